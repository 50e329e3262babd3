/**
 * Every branch-owned list, download and action, from one table: a user at branch A holding the
 * permission sees A's rows and never B's, and gets 404 for B's record; without the permission, 403.
 * Every /api/v1 route module is either in the table or named in NOT_BRANCH_OWNED with its reason, so
 * a new route cannot be left out.
 */
import { beforeAll, describe, expect, it } from "vitest";
import XLSX from "sheetjs-style";
import { db, schema } from "@db/index";
import { drawSecondThrill } from "~/models/prize-draw.server";
import { randomSlug } from "~/utils/crypto.server";
import { makeBranch, makePreregistration, nextPhone } from "../fixtures";
import { makeRegistration, makeTestRide } from "../referral-fixtures";
import { call, req, staffWith } from "../route-helpers";
import { loader as drawsList } from "~/routes/api.v1.draws";
import { loader as drawsDownload } from "~/routes/api.v1.draws.download";
import { loader as smsList } from "~/routes/api.v1.sms";
import { loader as smsOne } from "~/routes/api.v1.sms.$id";
import { loader as smsRecipients } from "~/routes/api.v1.sms.$id.recipients";
import { action as smsRetry } from "~/routes/api.v1.sms.$id.retry";
import { loader as outboxPage } from "~/routes/admin.outbox";
import { action as restore } from "~/routes/api.v1.registration.$slug.restore";
import { action as notify } from "~/routes/api.v1.registration.$slug.notify";
import { loader as registrationList } from "~/routes/api.v1.registration";
import { loader as registrationOne } from "~/routes/api.v1.registration.$slug";
import { loader as registrationDownload } from "~/routes/api.v1.registration.download";
import { loader as registrationDeleted } from "~/routes/api.v1.registration.deleted";
import { loader as registrationPrint } from "~/routes/api.v1.registration.print";
import { action as registrationDraw } from "~/routes/api.v1.registration.$slug.draw";
import { action as registrationVerify } from "~/routes/api.v1.registration.$slug.verify";
import { action as registrationReset } from "~/routes/api.v1.registration.$slug.reset";
import { loader as preregistrationList } from "~/routes/api.v1.preregistration";
import { loader as preregistrationOne } from "~/routes/api.v1.preregistration.$id";
import { loader as preregistrationDownload } from "~/routes/api.v1.preregistration.download";
import { action as preregistrationResend } from "~/routes/api.v1.preregistration.$id.resend";
import { action as preregistrationVerify } from "~/routes/api.v1.preregistration.$id.verify";
import { loader as testRideList } from "~/routes/api.v1.test-ride";
import { loader as testRideOne } from "~/routes/api.v1.test-ride.$id";
import { loader as testRideDownload } from "~/routes/api.v1.test-ride.download";
import { loader as referrerList } from "~/routes/api.v1.referrer";
import { loader as referrerDownload } from "~/routes/api.v1.referrer.download";
import { loader as grantList } from "~/routes/api.v1.preregistration.grants";
import { loader as grantDownload } from "~/routes/api.v1.preregistration.grants.download";

/** What one branch owns: each record carries the branch's tag in a name or phone the answers show. */
type World = {
  tag: string;
  phone: string;
  preregistration: string;
  drawId: number;
  registration: string;
  deleted: string;
  /** A second deleted one, for the restore (the first stays in the trash list). */
  restorable: string;
  rideSlug: string;
  broadcast: number;
  referrerName: string;
};

async function world(branchId: number, tag: string): Promise<World> {
  const phone = nextPhone();
  const pre = makePreregistration({ branch_id: branchId, name: `${tag} Entry`, phone });
  const verified = makePreregistration({
    branch_id: branchId,
    name: `${tag} Drawn`,
    is_verified: true,
    status: "verified",
  });
  const draw = await drawSecondThrill(verified.id);
  const reg = makeRegistration(branchId, { status: "drawn", name: `${tag} Buyer`, phone: nextPhone() });
  const deleted = makeRegistration(branchId, { name: `${tag} Deleted`, deleted_at: new Date().toISOString() });
  const restorable = makeRegistration(branchId, { deleted_at: new Date().toISOString() });
  const referrer = makeRegistration(branchId, { status: "drawn", name: `${tag} Referrer` });
  const ride = makeTestRide(branchId, { name: `${tag} Rider`, referrer_id: referrer.id });
  // A public entry of no showroom that the branch found at its counter.
  const found = makePreregistration({ branch_id: null, nearest_branch_id: null, name: `${tag} Granted` });
  db.insert(schema.preregistrationGrants).values({ branch_id: branchId, preregistration_id: found.id }).run();
  const broadcast = db
    .insert(schema.smsBroadcasts)
    .values({
      type: "MOBILE",
      text: `${tag} broadcast`,
      total: 1,
      stored: 1,
      failed: 1,
      status: "done",
      scope_branch_id: branchId,
      prepared_at: "2026-01-01T00:00:00.000Z",
    })
    .returning()
    .get();
  db.insert(schema.smsBroadcastMobiles)
    .values({ broadcast_id: broadcast.id, mobiles: JSON.stringify([phone]), count: 1 })
    .run();
  db.insert(schema.smsMessages)
    .values([
      { to: phone, text: `${tag} code`, purpose: "otp", provider: "outbox", subject_id: pre.id, status: "sent" },
      {
        to: phone,
        text: `${tag} broadcast`,
        purpose: "broadcast",
        provider: "outbox",
        broadcast_id: broadcast.id,
        status: "failed",
      },
    ])
    .run();
  return {
    tag,
    phone,
    preregistration: pre.slug,
    drawId: draw.draw.id,
    registration: reg.slug,
    deleted: deleted.slug,
    restorable: restorable.slug,
    rideSlug: ride.slug,
    broadcast: broadcast.id,
    referrerName: referrer.name,
  };
}

type Fn = Parameters<typeof call>[0];
type Row = {
  route: string;
  fn: Fn;
  permission: string | null;
  /** A list or download: the request, and what of a world its answer shows. */
  list?: { path: string; shows: (w: World) => string };
  /** One record's read or action: its request for a world's record. */
  record?: { method: string; path: (w: World) => string; params: (w: World) => Record<string, string>; json?: unknown };
};

const BRANCH_OWNED: Row[] = [
  {
    route: "api.v1.draws",
    fn: drawsList,
    permission: "manage-allocation",
    list: { path: "/api/v1/draws?length=500", shows: (w) => `${w.tag} Drawn` },
  },
  {
    route: "api.v1.draws.download",
    fn: drawsDownload,
    permission: "manage-allocation",
    list: { path: "/api/v1/draws/download", shows: (w) => `${w.tag} Drawn` },
  },
  {
    route: "api.v1.sms",
    fn: smsList,
    permission: "send-sms",
    list: { path: "/api/v1/sms?length=500", shows: (w) => `${w.tag} broadcast` },
  },
  {
    route: "api.v1.sms.$id",
    fn: smsOne,
    permission: "send-sms",
    record: { method: "GET", path: (w) => `/api/v1/sms/${w.broadcast}`, params: (w) => ({ id: String(w.broadcast) }) },
  },
  {
    route: "api.v1.sms.$id.recipients",
    fn: smsRecipients,
    permission: "send-sms",
    record: {
      method: "GET",
      path: (w) => `/api/v1/sms/${w.broadcast}/recipients`,
      params: (w) => ({ id: String(w.broadcast) }),
    },
  },
  {
    route: "api.v1.sms.$id.retry",
    fn: smsRetry,
    permission: "send-sms",
    record: {
      method: "POST",
      path: (w) => `/api/v1/sms/${w.broadcast}/retry`,
      params: (w) => ({ id: String(w.broadcast) }),
    },
  },
  {
    route: "admin.outbox",
    fn: outboxPage,
    permission: "send-sms",
    list: { path: "/admin/outbox?length=500", shows: (w) => `${w.tag} code` },
  },
  {
    route: "api.v1.registration.$slug.restore",
    fn: restore,
    permission: "delete-registration",
    record: {
      method: "POST",
      path: (w) => `/api/v1/registration/${w.restorable}/restore`,
      params: (w) => ({ slug: w.restorable }),
    },
  },
  {
    route: "api.v1.registration.$slug.notify",
    fn: notify,
    permission: "create-registration",
    record: {
      method: "POST",
      path: (w) => `/api/v1/registration/${w.registration}/notify`,
      params: (w) => ({ slug: w.registration }),
    },
  },
  {
    route: "api.v1.registration",
    fn: registrationList,
    permission: "read-registration",
    list: { path: "/api/v1/registration?length=500", shows: (w) => `${w.tag} Buyer` },
  },
  {
    route: "api.v1.registration.download",
    fn: registrationDownload,
    permission: "read-registration",
    list: { path: "/api/v1/registration/download", shows: (w) => `${w.tag} Buyer` },
  },
  {
    route: "api.v1.registration.deleted",
    fn: registrationDeleted,
    permission: "delete-registration",
    list: { path: "/api/v1/registration/deleted?length=500", shows: (w) => `${w.tag} Deleted` },
  },
  {
    route: "api.v1.registration.print",
    fn: registrationPrint,
    permission: "read-registration",
    list: { path: "/api/v1/registration/print", shows: (w) => `${w.tag} Buyer` },
  },
  {
    route: "api.v1.registration.$slug",
    fn: registrationOne,
    permission: "read-registration",
    record: {
      method: "GET",
      path: (w) => `/api/v1/registration/${w.registration}`,
      params: (w) => ({ slug: w.registration }),
    },
  },
  {
    route: "api.v1.registration.$slug.draw",
    fn: registrationDraw,
    permission: "create-registration",
    record: {
      method: "POST",
      path: (w) => `/api/v1/registration/${w.registration}/draw`,
      params: (w) => ({ slug: w.registration }),
    },
  },
  {
    route: "api.v1.registration.$slug.verify",
    fn: registrationVerify,
    permission: "read-registration",
    record: {
      method: "POST",
      path: (w) => `/api/v1/registration/${w.registration}/verify`,
      params: (w) => ({ slug: w.registration }),
      json: { code: "123456" },
    },
  },
  {
    route: "api.v1.registration.$slug.reset",
    fn: registrationReset,
    permission: "read-registration",
    record: {
      method: "POST",
      path: (w) => `/api/v1/registration/${w.registration}/reset`,
      params: (w) => ({ slug: w.registration }),
    },
  },
  {
    route: "api.v1.preregistration",
    fn: preregistrationList,
    permission: "read-registration",
    list: { path: "/api/v1/preregistration?length=500", shows: (w) => `${w.tag} Entry` },
  },
  {
    route: "api.v1.preregistration.download",
    fn: preregistrationDownload,
    permission: "read-registration",
    list: { path: "/api/v1/preregistration/download", shows: (w) => `${w.tag} Entry` },
  },
  {
    route: "api.v1.preregistration.$id",
    fn: preregistrationOne,
    permission: "read-registration",
    record: {
      method: "GET",
      path: (w) => `/api/v1/preregistration/${w.preregistration}`,
      params: (w) => ({ id: w.preregistration }),
    },
  },
  {
    route: "api.v1.preregistration.$id.resend",
    fn: preregistrationResend,
    permission: "read-registration",
    record: {
      method: "POST",
      path: (w) => `/api/v1/preregistration/${w.preregistration}/resend`,
      params: (w) => ({ id: w.preregistration }),
    },
  },
  {
    route: "api.v1.preregistration.$id.verify",
    fn: preregistrationVerify,
    permission: "read-registration",
    record: {
      method: "POST",
      path: (w) => `/api/v1/preregistration/${w.preregistration}/verify`,
      params: (w) => ({ id: w.preregistration }),
      json: { code: "123456" },
    },
  },
  {
    route: "api.v1.test-ride",
    fn: testRideList,
    permission: null,
    list: { path: "/api/v1/test-ride?length=500", shows: (w) => `${w.tag} Rider` },
  },
  {
    route: "api.v1.test-ride.download",
    fn: testRideDownload,
    permission: null,
    list: { path: "/api/v1/test-ride/download", shows: (w) => `${w.tag} Rider` },
  },
  {
    route: "api.v1.test-ride.$id",
    fn: testRideOne,
    permission: null,
    record: { method: "GET", path: (w) => `/api/v1/test-ride/${w.rideSlug}`, params: (w) => ({ id: w.rideSlug }) },
  },
  {
    route: "api.v1.referrer",
    fn: referrerList,
    permission: "read-registration",
    list: { path: "/api/v1/referrer?length=500", shows: (w) => w.referrerName },
  },
  {
    route: "api.v1.referrer.download",
    fn: referrerDownload,
    permission: "read-registration",
    list: { path: "/api/v1/referrer/download", shows: (w) => w.referrerName },
  },
  {
    route: "api.v1.preregistration.grants",
    fn: grantList,
    permission: "read-registration",
    list: { path: "/api/v1/preregistration/grants?length=500", shows: (w) => `${w.tag} Granted` },
  },
  {
    route: "api.v1.preregistration.grants.download",
    fn: grantDownload,
    permission: "read-registration",
    list: { path: "/api/v1/preregistration/grants/download", shows: (w) => `${w.tag} Granted` },
  },
];

/** The other /api/v1 routes, and why no branch owns what they serve. */
const NOT_BRANCH_OWNED: Record<string, string> = {
  "api.v1.$": "the API's 404 for unknown paths",
  "api.v1.allocation": "schemes: head office's, tested in api-allocation.test.ts",
  "api.v1.allocation.$id": "schemes: head office's, tested in api-allocation.test.ts",
  "api.v1.analytics": "aggregates, scoped in analytics tests",
  "api.v1.audit.download": "every permission only",
  "api.v1.auth.login": "public",
  "api.v1.auth.logout": "the caller's own token",
  "api.v1.auth.me": "the caller's own account",
  "api.v1.bike-model": "catalogue, shared by every branch",
  "api.v1.bike-model.$slug": "catalogue",
  "api.v1.bike-model.$slug.restore": "catalogue",
  "api.v1.bike-model.$slug.retire": "catalogue",
  "api.v1.bike-models": "public catalogue",
  "api.v1.branch": "branches themselves (a branch user reads only its own: user-routes and catalogue tests)",
  "api.v1.branch.$slug": "branches themselves",
  "api.v1.branch.$slug.close": "branches themselves",
  "api.v1.branch.$slug.reopen": "branches themselves",
  "api.v1.branch.export": "branches themselves",
  "api.v1.branch-stats": "aggregates per branch, scoped in its own test",
  "api.v1.branches": "public showroom list",
  "api.v1.dashboard": "aggregates, scoped in its own test",
  "api.v1.enquiry": "public",
  "api.v1.enquiry.$id": "public, by the browser that owns the entry",
  "api.v1.enquiry.$id.verify": "public",
  "api.v1.enquiry.continue": "public",
  "api.v1.enquiry.continue.verify": "public",
  "api.v1.fair-draws": "public",
  "api.v1.fair-draws.$date": "public",
  "api.v1.file": "uploaded images, shared",
  "api.v1.integrity.flags": "head office only (review-integrity): a branch user is refused, api-integrity.test.ts",
  "api.v1.integrity.flags.$id": "head office only: api-integrity.test.ts",
  "api.v1.integrity.flags.download": "head office only: api-integrity.test.ts",
  "api.v1.registration.search":
    "the counter's full-phone search, which grants by design (decision 5): counter-grant.test.ts",
  "api.v1.role": "roles, shared",
  "api.v1.setting": "settings, head office",
  "api.v1.settings": "public texts",
  "api.v1.sms.registrants": "counts of a branch's own registrants, scoped in api-broadcast.test.ts",
  "api.v1.upload": "uploads, shared",
  "api.v1.user": "users: a branch user manages its own (user-routes.test.ts)",
  "api.v1.user.$id": "users: user-routes.test.ts",
  "api.v1.video": "winner videos, shared",
  "api.v1.video.$slug": "winner videos, shared",
  "api.v1.videos": "public",
};

/** An answer's text: JSON as it is, an .xls download as CSV of every sheet. */
async function textOf(res: Response): Promise<string> {
  const type = res.headers.get("Content-Type") ?? "";
  if (/excel|spreadsheet|octet/.test(type)) {
    const book = XLSX.read(new Uint8Array(await res.arrayBuffer()), { type: "array" });
    return book.SheetNames.map((n) => XLSX.utils.sheet_to_csv(book.Sheets[n])).join("\n");
  }
  return res.text();
}

let a: World;
let b: World;
let branchA = 0;
type Staff = { cookie: string; token: string };
const holders = new Map<string | null, Staff>();
let nobody: Staff;

beforeAll(async () => {
  branchA = makeBranch({ title: "Owned A" }).id;
  const branchB = makeBranch({ title: "Owned B" }).id;
  const tag = randomSlug().slice(0, 6);
  a = await world(branchA, `OwnA${tag}`);
  b = await world(branchB, `OwnB${tag}`);
  for (const p of new Set(BRANCH_OWNED.map((r) => r.permission)))
    holders.set(p, await staffWith(p ? [p] : [], branchA));
  nobody = await staffWith([], branchA);
});

/** The API reads the bearer token, pages and downloads the session cookie: both are sent. */
const request = (method: string, path: string, staff: Staff, json?: unknown) =>
  req(method, path, {
    token: staff.token,
    headers: { Cookie: staff.cookie, Origin: "http://localhost" },
    ...(method === "GET" ? {} : { json: json ?? {} }),
  });

describe("the table of branch-owned routes", () => {
  it("names every /api/v1 route module, each once", () => {
    const files = Object.keys(import.meta.glob("/app/routes/api.v1.*.ts")).map((f) =>
      f.replace(/^.*\/routes\/|\.ts$/g, ""),
    );
    const named = [
      ...BRANCH_OWNED.map((r) => r.route).filter((r) => r.startsWith("api.")),
      ...Object.keys(NOT_BRANCH_OWNED),
    ];
    expect(new Set(named).size).toBe(named.length);
    expect(named.sort()).toEqual(files.sort());
  });
});

describe("a branch user reaches only its own branch's", () => {
  for (const row of BRANCH_OWNED) {
    it(`${row.route} (${row.permission ?? "login only"})`, async () => {
      const cookie = holders.get(row.permission)!;
      if (row.list) {
        const res = await call(row.fn, request("GET", row.list.path, cookie));
        expect(res.status, row.route).toBe(200);
        const text = await textOf(res);
        expect(text, `${row.route} shows its own branch's`).toContain(row.list.shows(a));
        expect(text, `${row.route} shows another branch's`).not.toContain(row.list.shows(b));
        if (row.permission) {
          const refused = await call(row.fn, request("GET", row.list.path, nobody));
          expect([302, 403], `${row.route} without ${row.permission}`).toContain(refused.status);
        }
      }
      if (row.record) {
        const { method, path, params, json } = row.record;
        const theirs = await call(row.fn, request(method, path(b), cookie, json), params(b));
        expect(theirs.status, `${row.route} on another branch's record`).toBe(404);
        const mine = await call(row.fn, request(method, path(a), cookie, json), params(a));
        expect([403, 404], `${row.route} on its own record: ${mine.status}`).not.toContain(mine.status);
        if (row.permission) {
          const refused = await call(row.fn, request(method, path(a), nobody, json), params(a));
          expect(refused.status, `${row.route} without ${row.permission}`).toBe(403);
        }
      }
    });
  }
});
