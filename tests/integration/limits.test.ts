/**
 * Every limit of app/utils/rate-limit.server.ts met through the door a client uses, at the factor
 * production uses (RATE_LIMIT_FACTOR=1, CODE_SMS_PER_HOUR unset): the documented number of attempts
 * goes through, one more gets the documented 429 with Retry-After and the message saying when. Then
 * the public forms' address limits again with PUBLIC_ADDRESS_LIMIT_FACTOR, and limits it leaves alone.
 * The numbers are written here from docs/api.md ("Limits"), not read from the product, so a limit
 * loosened in the product fails its row; the table is typed by the limits' names, so a new limit
 * without a row does not compile.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.RATE_LIMIT_FACTOR = "1";
  delete process.env.CODE_SMS_PER_HOUR;
  delete process.env.PUBLIC_ADDRESS_LIMIT_FACTOR;
});

import { db, schema } from "@db/index";
import { createUser } from "~/models/user.server";
import { action as loginApi } from "~/routes/api.v1.auth.login";
import { action as enquiryApi } from "~/routes/api.v1.enquiry";
import { action as verifyApi } from "~/routes/api.v1.enquiry.$id.verify";
import { action as continueApi } from "~/routes/api.v1.enquiry.continue";
import { action as testRideApi } from "~/routes/api.v1.test-ride";
import { action as notifyApi } from "~/routes/api.v1.registration.$slug.notify";
import { loader as preregistrationApi, action as counterApi } from "~/routes/api.v1.preregistration";
import { action as resetPage } from "~/routes/reset-password";
import { action as profilePage } from "~/routes/admin.profile";
import { ADDRESS_HEADER } from "~/http/auth.server";
import { config } from "~/utils/config.server";
import { EVERY_SENDER, LIMITS, take, type LimitName } from "~/utils/rate-limit.server";
import { now, setClock } from "~/utils/time";
import { makeBikeModel, makeBranch, makePreregistration, nextPhone } from "../fixtures";
import { makeRegistration } from "../referral-fixtures";
import { call, req, staffWith } from "../route-helpers";

let branchId = 0;
let modelId = 0;
let citizen = 91_000_000;
const start = Date.now();
afterEach(() => setClock(null));

beforeAll(() => {
  branchId = makeBranch().id;
  modelId = makeBikeModel("Limits Model").id;
});

/** Each limit's own addresses, so no two rows share a count. */
const at = (limit: number, i = 0) => ({ [ADDRESS_HEADER]: `10.${90 + limit}.${i >> 8}.${(i & 255) + 1}` });
const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
};
const enquiry = (phone = nextPhone()) => ({
  name: "Limit Visitor",
  address: "Kathmandu",
  phone,
  citizenship_no: String(citizen++ * 7),
  nearest_branch_id: String(branchId),
});
const ride = (phone = nextPhone()) => ({
  name: "Limit Rider",
  state: "Bagmati",
  district: "Kathmandu",
  city: "Kathmandu",
  phone,
  bike_model_id: String(modelId),
  branch_id: String(branchId),
});
/** Moves the clock on by `seconds` from the test file's start (codes and notices wait between sends). */
const later = (seconds: number) => setClock(() => new Date(start + seconds * 1000));

type Row = {
  /** The number docs/api.md gives: this many attempts go through, the next is refused. */
  documented: number;
  /** The i-th attempt (0-based), as a client makes it. */
  attempt: (i: number) => Promise<Response>;
  /** The refusal's message. */
  message: RegExp;
  /** Set up what the attempts need (a user, an entry); a number is how many points the window holds already. */
  before?: () => Promise<number | void>;
};

const CEILING =
  /^We are sending a great many codes right now\. Please try again in \d+ minute\(s\); nothing was lost\.$/;
/** Fills a ceiling's window of this hour (by the test's clock) to `points`, as thousands of senders would. */
function fillTo(name: "code-sms" | "public-code-sms", points: number) {
  const C = schema.rateLimitCounters;
  const used = db
    .select()
    .from(C)
    .where(and(eq(C.name, name), eq(C.key, EVERY_SENDER)))
    .get();
  const open = used && used.reset_at > now().getTime() ? used.points : 0;
  expect(take(db, name, EVERY_SENDER, points - open).ok).toBe(true);
}
const NOTICE_AGAIN = /^The prize notice was sent a short while ago\. It can be sent again in \d+ minute\(s\)\.$/;
const TRY_AGAIN = /^Too many attempts\. Please try again in \d+ minute\(s\)\.$/;
let user: { email: string; cookie: string; id: number } = { email: "", cookie: "", id: 0 };
let entrySlug = "";
let registrationSlug = "";
let notifier = "";
let shared = "";
let counterUser = "";
let publicEntries: { phone: string }[] = [];

const ROWS: Record<LimitName, Row> = {
  "login-ip": {
    documented: 30,
    attempt: (i) =>
      call(
        loginApi,
        req("POST", "/api/v1/auth/login", {
          json: { email: `nobody-${i}@example.test`, password: "Wrong-pass-1" },
          headers: at(1),
        }),
      ),
    message: TRY_AGAIN,
  },
  "login-account": {
    documented: 10,
    before: async () => {
      const u = await staffWith([], branchId);
      user = { email: u.user.email, cookie: u.cookie, id: u.user.id };
    },
    attempt: (i) =>
      call(
        loginApi,
        req("POST", "/api/v1/auth/login", { json: { email: user.email, password: "Wrong-pass-1" }, headers: at(2, i) }),
      ),
    message: TRY_AGAIN,
  },
  "password-check": {
    documented: 10,
    before: async () => {
      const u = await staffWith([], branchId);
      user = { email: u.user.email, cookie: u.cookie, id: u.user.id };
    },
    attempt: () =>
      call(
        profilePage as never,
        req("POST", "/admin/profile", {
          form: form({
            current_password: "Not-my-pass-1",
            password: "Brand-new-pass-77",
            password_confirmation: "Brand-new-pass-77",
          }),
          headers: { Cookie: user.cookie, Origin: "http://localhost" },
        }),
      ),
    message: TRY_AGAIN,
  },
  "reset-ip": {
    documented: 10,
    attempt: (i) =>
      call(
        resetPage,
        req("POST", "/reset-password", {
          form: form({ intent: "send", email: `reset-${i}@example.test` }),
          headers: at(4),
        }),
      ),
    message: TRY_AGAIN,
  },
  // Met in its own test below: over it, the answer stays the same (nothing tells an address apart) and no code is sent.
  "reset-account": { documented: 3, attempt: () => Promise.reject(new Error("met below")), message: /./ },
  "enquiry-ip": {
    documented: 20,
    attempt: () => call(enquiryApi, req("POST", "/api/v1/enquiry", { form: form(enquiry()), headers: at(6) })),
    message: TRY_AGAIN,
  },
  "enquiry-phone": {
    documented: 5,
    before: async () => {
      shared = nextPhone();
    },
    // The same phone from new addresses: its first save, then "already pre-registered" answers, each costing a point.
    attempt: (i) =>
      call(enquiryApi, req("POST", "/api/v1/enquiry", { form: form(enquiry(shared)), headers: at(7, i) })),
    message: TRY_AGAIN,
  },
  "otp-verify-ip": {
    documented: 60,
    before: async () => {
      const res = await call(
        enquiryApi,
        req("POST", "/api/v1/enquiry", { form: form(enquiry()), headers: at(8, 999) }),
      );
      entrySlug = ((await res.json()) as { data: { slug: string } }).data.slug;
    },
    attempt: () =>
      call(
        verifyApi,
        req("POST", `/api/v1/enquiry/${entrySlug}/verify`, { json: { code: "000000" }, headers: at(8) }),
        {
          id: entrySlug,
        },
      ),
    message: TRY_AGAIN,
  },
  "otp-resend-ip": {
    documented: 20,
    // Codes asked for twenty phones from one address; the twenty-first is refused.
    attempt: () =>
      call(continueApi, req("POST", "/api/v1/enquiry/continue", { json: { phone: nextPhone() }, headers: at(9) })),
    message: TRY_AGAIN,
  },
  "continue-phone-wait": {
    documented: 1,
    before: async () => {
      shared = nextPhone();
    },
    attempt: (i) =>
      call(continueApi, req("POST", "/api/v1/enquiry/continue", { json: { phone: shared }, headers: at(10, i) })),
    message: /^Please wait \d+ seconds/,
  },
  "continue-phone": {
    documented: 5,
    before: async () => {
      shared = nextPhone();
    },
    attempt: (i) => {
      later(3600 + i * 61);
      return call(
        continueApi,
        req("POST", "/api/v1/enquiry/continue", { json: { phone: shared }, headers: at(11, i) }),
      );
    },
    message: /^Too many codes were sent to this phone/,
  },
  "test-ride-ip": {
    documented: 20,
    attempt: () => call(testRideApi, req("POST", "/api/v1/test-ride", { json: ride(), headers: at(12) })),
    message: TRY_AGAIN,
  },
  "test-ride-phone": {
    documented: 5,
    before: async () => {
      shared = nextPhone();
    },
    // The same phone books a test ride, then a purchase booking, from new addresses.
    attempt: (i) =>
      call(
        testRideApi,
        req("POST", "/api/v1/test-ride", {
          json: { ...ride(shared), type: i % 2 ? "BOOKING" : "TESTRIDE" },
          headers: at(13, i),
        }),
      ),
    message: TRY_AGAIN,
  },
  "code-sms": {
    documented: 3000,
    // 3,000 code SMS in an hour from every sender together: the window is filled to one short of it
    // (as thousands of visitors and counters would), then one more code goes and the next is refused. The door
    // is the counter's (staff may spend the reserve that the public forms may not).
    before: async () => {
      counterUser = (await staffWith(["read-registration", "create-registration"], branchId)).token;
      fillTo("code-sms", 3000 - 1);
      return 3000 - 1;
    },
    attempt: () =>
      call(counterApi as never, req("POST", "/api/v1/preregistration", { form: form(enquiry()), token: counterUser })),
    message: CEILING,
  },
  "public-code-sms": {
    documented: 2700,
    // The public forms' share: 3,000 less the staff reserve of 300 (a tenth). In an hour of its own.
    before: async () => {
      later(2 * 3600);
      fillTo("public-code-sms", 2700 - 1);
      return 2700 - 1;
    },
    attempt: (i) => call(enquiryApi, req("POST", "/api/v1/enquiry", { form: form(enquiry()), headers: at(15, i) })),
    message: CEILING,
  },
  "counter-grant": {
    documented: 20,
    before: async () => {
      const other = makeBranch().id;
      counterUser = (await staffWith(["read-registration"], branchId)).token;
      publicEntries = Array.from({ length: 21 }, () =>
        makePreregistration({ branch_id: null, nearest_branch_id: other }),
      );
    },
    // A branch user finds public entries of another showroom by their full phones: twenty are opened, the next is refused.
    attempt: (i) =>
      call(
        preregistrationApi as never,
        req("GET", `/api/v1/preregistration?phone=${publicEntries[i].phone}`, { token: counterUser }),
      ),
    message:
      /^You have opened many customers of other showrooms by their phone this hour\. Please try again in \d+ minute\(s\), or ask head office\.$/,
  },
  "notify-wait": {
    documented: 1,
    before: async () => {
      notifier = (await staffWith(["create-registration", "read-registration"], branchId)).token;
      registrationSlug = makeRegistration(branchId, { status: "drawn" }).slug;
    },
    attempt: () =>
      call(notifyApi as never, req("POST", `/api/v1/registration/${registrationSlug}/notify`, { token: notifier }), {
        slug: registrationSlug,
      }),
    message: NOTICE_AGAIN,
  },
  "notify-day": {
    documented: 5,
    before: async () => {
      notifier = (await staffWith(["create-registration", "read-registration"], branchId)).token;
      registrationSlug = makeRegistration(branchId, { status: "drawn" }).slug;
    },
    attempt: (i) => {
      later(i * 11 * 60);
      return call(
        notifyApi as never,
        req("POST", `/api/v1/registration/${registrationSlug}/notify`, { token: notifier }),
        {
          slug: registrationSlug,
        },
      );
    },
    message: NOTICE_AGAIN,
  },
};

/** `allowed` attempts go through, the next is the limit's 429 with Retry-After and its message. */
async function meetLimit(name: LimitName, row: Row, allowed: number) {
  const already = (await row.before?.()) ?? 0;
  for (let i = already; i < allowed; i++) {
    const res = await row.attempt(i);
    expect(res.status, `${name}: attempt ${i + 1} of ${allowed}: ${res.status}`).not.toBe(429);
  }
  const over = await row.attempt(allowed);
  expect(over.status, `${name}: attempt ${allowed + 1}`).toBe(429);
  expect(Number(over.headers.get("Retry-After")), `${name}: Retry-After`).toBeGreaterThan(0);
  expect(await messageOf(over)).toMatch(row.message);
}

/** The refusal's message, from an API body or a page's form reply. */
async function messageOf(res: Response): Promise<string> {
  const body = (await res.json()) as { message?: string; error?: Record<string, string[]> } & {
    result?: { error?: Record<string, string[]> };
  };
  return body.message ?? body.error?.[""]?.[0] ?? body.result?.error?.[""]?.[0] ?? JSON.stringify(body);
}

describe("every limit, met at production's numbers", () => {
  it("the table has a row for every limit", () => {
    expect(Object.keys(ROWS).sort()).toEqual(Object.keys(LIMITS).sort());
  });

  for (const [name, row] of Object.entries(ROWS) as [LimitName, Row][]) {
    if (name === "reset-account") continue;
    it(`${name}: ${row.documented} go through, one more is a 429 with Retry-After`, () =>
      meetLimit(name, row, row.documented));
  }

  it("reset-account: three codes an hour per account, then the same answer and no code", async () => {
    const phone = nextPhone();
    const u = await createUser({
      first_name: "Reset",
      email: "reset-account@example.test",
      phone,
      role_id: db.select().from(schema.roles).all()[0].id,
      branch_id: branchId,
      password: "Secret-pass-9",
    });
    const codes = () =>
      db
        .select()
        .from(schema.smsMessages)
        .where(and(eq(schema.smsMessages.to, phone), eq(schema.smsMessages.purpose, "password-reset")))
        .all().length;
    const answers: string[] = [];
    for (let i = 0; i < 4; i++) {
      later(7200 + i * 61);
      const res = await call(
        resetPage,
        req("POST", "/reset-password", { form: form({ intent: "send", email: u.email }), headers: at(5, i) }),
      );
      answers.push(`${res.status} ${res.headers.get("Location")}`);
      expect(codes(), `after request ${i + 1}`).toBe(Math.min(i + 1, 3));
    }
    expect(new Set(answers).size, answers.join(", ")).toBe(1);
  });
});

describe("PUBLIC_ADDRESS_LIMIT_FACTOR raises the public forms' address limits, and no other", () => {
  const FACTOR = 3;
  // docs/operations.md ("Launch day"): these four, times the factor; the rest as documented.
  const raised: LimitName[] = ["enquiry-ip", "otp-verify-ip", "otp-resend-ip", "test-ride-ip"];
  const kept: LimitName[] = ["login-ip", "reset-ip", "enquiry-phone", "test-ride-phone"];
  beforeAll(() => {
    process.env.PUBLIC_ADDRESS_LIMIT_FACTOR = String(FACTOR);
  });
  afterAll(() => {
    delete process.env.PUBLIC_ADDRESS_LIMIT_FACTOR;
  });

  for (const name of [...raised, ...kept]) {
    const allowed = ROWS[name].documented * (raised.includes(name) ? FACTOR : 1);
    it(`${name}: ${allowed} go through, one more is a 429`, () => {
      later(4 * 3600); // past every window the production round opened
      return meetLimit(name, ROWS[name], allowed);
    });
  }

  it("reads anything but a positive number as 1", () => {
    for (const value of ["0", "-3", "many", ""]) {
      process.env.PUBLIC_ADDRESS_LIMIT_FACTOR = value;
      expect(config.publicAddressLimitFactor(), JSON.stringify(value)).toBe(1);
    }
    process.env.PUBLIC_ADDRESS_LIMIT_FACTOR = "2.5";
    expect(config.publicAddressLimitFactor()).toBe(2.5);
    process.env.PUBLIC_ADDRESS_LIMIT_FACTOR = String(FACTOR);
  });
});
