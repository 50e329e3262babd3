// The visitor is told when the SMS of their one-time code could not be sent (decision 8): the SMS
// fails through the real sender against a local stand-in for the gateway (5xx and timeouts after
// their retries, an error code about the message, a code that expired first), and the verify page
// and GET /api/v1/enquiry/{slug} say so; Resend code then follows the new code's SMS.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CodeSmsNotice } from "~/components/public/CodeSmsNotice";
import { accessText, sendContinueCode } from "~/models/preregistration-verify.server";
import { setSetting } from "~/models/settings.server";
import { EXPIRED_ERROR, sendQueued } from "~/models/sms-delivery.server";
import { httpGatewayProvider } from "~/models/sms-provider.server";
import { lastMessageTo } from "~/models/sms-outbox.server";
import { action as enquiryAction } from "~/routes/api.v1.enquiry";
import { loader as enquiryLoader } from "~/routes/api.v1.enquiry.$id";
import { action as verifyAction } from "~/routes/api.v1.enquiry.$id.verify";
import { action as verifyPageAction, loader as verifyPageLoader } from "~/routes/enquiry.$slug.verify";
import { ADDRESS_HEADER } from "~/http/auth.server";
import { t, type Lang } from "~/utils/i18n";
import { setClock } from "~/utils/time";
import { desc, eq } from "drizzle-orm";
import { db, schema } from "@db/index";
import { codeSmsOf } from "~/models/preregistration-read.server";
import { queueSms } from "~/models/sms.server";
import { makeBranch, makePreregistration, nextPhone } from "../fixtures";
import { context } from "../route-helpers";

type Reply = { status: number; body: string; hang?: boolean };
const OK: Reply = {
  status: 200,
  body: JSON.stringify({ count: 1, response_code: 200, response: "1 mesages has been queued for delivery" }),
};
let reply: Reply = OK;
let gateway: http.Server;
let gatewayUrl = "";
const gatewayProvider = () => httpGatewayProvider({ url: gatewayUrl, token: "tok", from: "Thrill", timeoutMs: 100 });

const URL_BASE = "http://localhost";
let branch: ReturnType<typeof makeBranch>;
let citizen = 81_000_000;
let address = 0;
let base = 0;
/** Stands the app's clock `ms` after the test's start. */
const at = (ms: number) => setClock(() => new Date(base + ms));

beforeAll(async () => {
  gateway = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (reply.hang) return; // never answers: the provider's timeout
      res.writeHead(reply.status, { "content-type": "application/json" }).end(reply.body);
    });
  });
  await new Promise<void>((resolve) => gateway.listen(0, "127.0.0.1", resolve));
  gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/v2/sms/`;
  branch = makeBranch({ title: "Code SMS Branch", state: "Bagmati", district: "Kathmandu", city: "Kathmandu" });
});

afterAll(async () => {
  gateway.closeAllConnections();
  await new Promise<void>((resolve) => gateway.close(() => resolve()));
});

beforeEach(() => {
  setSetting("registration_open", true);
  reply = OK;
  base = Date.now();
  at(0);
});

afterEach(() => setClock(null));

/** A public pre-registration made through the API (its code's SMS queued), from an address of its own. */
async function createEntry() {
  const form = new FormData();
  const phone = nextPhone();
  const fields = {
    name: "Sita Tamang",
    address: "Baneshwor",
    phone,
    citizenship_no: String(citizen++ * 7),
    nearest_branch_id: String(branch.id),
  };
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = (await enquiryAction({
    request: new Request(`${URL_BASE}/api/v1/enquiry`, { method: "POST", body: form, headers: headers() }),
    context,
    params: {},
  })) as Response;
  expect(res.status).toBe(201);
  const body = (await res.json()) as { data: { slug: string } };
  return { slug: body.data.slug, phone };
}

const headers = () => ({ [ADDRESS_HEADER]: `10.9.0.${++address % 250}` });

async function apiCodeSms(slug: string) {
  const res = (await enquiryLoader({
    request: new Request(`${URL_BASE}/api/v1/enquiry/${slug}`),
    context,
    params: { id: slug },
  })) as Response;
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { code_sms: string | null } }).data.code_sms;
}

async function page(slug: string) {
  const result = (await verifyPageLoader({
    request: new Request(`${URL_BASE}/enquiry/${slug}/verify`),
    context,
    params: { slug },
  })) as unknown as { data: { codeSms: string | null; phone: string; changed: boolean } };
  return result.data;
}

/** What the page shows above the form, as its component renders it (no script involved), entities read. */
const notice = async (slug: string, lang: Lang) => {
  const data = await page(slug);
  const html = renderToStaticMarkup(
    createElement(CodeSmsNotice, {
      lang,
      phone: data.phone,
      codeSms: data.codeSms as never,
      changed: data.changed,
    }),
  );
  return html
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
};

/** Sends what is due, moving the clock past each backoff, until the code's SMS is no longer queued. */
async function sendUntilSettled(slug: string) {
  const seen: (string | null)[] = [];
  for (let step = 1; step <= 8; step++) {
    await sendQueued(10, gatewayProvider());
    const state = await apiCodeSms(slug);
    seen.push(state);
    if (state !== "retrying" && state !== "queued") break;
    at(step * 130_000); // past the longest code backoff (2 min), inside the code's 10 minutes
  }
  return seen;
}

const cases: { name: string; reply?: Reply; prepare?: () => void; retried: boolean; error: RegExp }[] = [
  {
    name: "the gateway answers 5xx, after its retries",
    reply: { status: 502, body: "Bad gateway" },
    retried: true,
    error: /HTTP 502 \(gave up after 5 attempts\)/,
  },
  {
    name: "the gateway times out, after its retries",
    reply: { status: 200, body: "", hang: true },
    retried: true,
    error: /gave up after 5 attempts/,
  },
  {
    name: "the gateway refuses the message with an error code",
    reply: { status: 403, body: JSON.stringify({ response_code: 1007, response: "Invalid Receiver" }) },
    retried: false,
    error: /invalid receiver/i,
  },
  {
    name: "the code expired before its SMS could be sent (marked failed)",
    prepare: () => at(11 * 60_000),
    retried: false,
    error: new RegExp(EXPIRED_ERROR.replace(/\./g, "\\.")),
  },
];

describe("a code whose SMS could not be sent", () => {
  it.each(cases)("$name: the verify page and the API say so and offer Resend", async (c) => {
    const { slug, phone } = await createEntry();
    expect(await apiCodeSms(slug)).toBe("queued");
    expect((await page(slug)).codeSms).toBe("queued");
    expect(await notice(slug, "en")).toContain("We have sent a 6-digit code");

    if (c.reply) reply = c.reply;
    c.prepare?.();
    const seen = await sendUntilSettled(slug);
    expect(seen.at(-1)).toBe("failed");
    if (c.retried) {
      // While it was being retried the visitor was told it takes longer, not that it failed.
      expect(seen.slice(0, -1)).toEqual(["retrying", "retrying", "retrying", "retrying"]);
    } else expect(seen).toEqual(["failed"]);
    expect((await page(slug)).codeSms).toBe("failed");
    expect(lastMessageTo(phone, "otp")).toMatchObject({ status: "failed", error: expect.stringMatching(c.error) });

    const masked = `${phone.slice(0, 2)}XXXXXX${phone.slice(-2)}`;
    const en = await notice(slug, "en");
    expect(en).toContain(t("en", "verify.notSent", { phone: masked }));
    expect(en).toContain('role="alert"');
    expect(en).not.toContain("We have sent");
    const ne = await notice(slug, "ne");
    expect(ne).toContain(t("ne", "verify.notSent", { phone: masked }));
    expect(ne).toContain("कोड पठाउन सकिएन");

    // Resend code (a plain form post) sends a new code; the page then follows its SMS.
    reply = OK;
    at(20 * 60_000);
    const resent = (await verifyPageAction({
      request: new Request(`${URL_BASE}/enquiry/${slug}/verify`, {
        method: "POST",
        body: new URLSearchParams({ intent: "resend" }),
        headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers() },
      }),
      context,
      params: { slug },
    })) as unknown as { data: { notice?: string } };
    expect(resent.data.notice).toBe("A new code has been sent.");
    expect(await apiCodeSms(slug)).toBe("queued");
    expect(await notice(slug, "en")).toContain("We have sent a 6-digit code");
    await sendQueued(10, gatewayProvider());
    expect(await apiCodeSms(slug)).toBe("sent");
  });

  it("a verified entry has no code to report: code_sms is null", async () => {
    const { slug, phone } = await createEntry();
    reply = { status: 500, body: "oops" };
    await sendQueued(10, gatewayProvider());
    expect(await apiCodeSms(slug)).toBe("retrying");
    const code = /\b(\d{6})\b/.exec(lastMessageTo(phone, "otp")!.text)![1];
    const ok = (await verifyAction({
      request: new Request(`${URL_BASE}/api/v1/enquiry/${slug}/verify`, {
        method: "POST",
        body: JSON.stringify({ code }),
        headers: { "Content-Type": "application/json", ...headers() },
      }),
      context,
      params: { id: slug },
    })) as Response;
    expect(ok.status).toBe(200);
    expect(await apiCodeSms(slug)).toBeNull();
  });

  it("the continue step's access code never stands in for the verification code's SMS", async () => {
    const { slug, phone } = await createEntry();
    await sendQueued(10, gatewayProvider());
    expect(await apiCodeSms(slug)).toBe("sent");
    at(2 * 60_000);
    const sent = sendContinueCode({ channel: "public", address: "10.9.1.1" }, phone);
    expect(sent.ok).toBe(true);
    const access = lastMessageTo(phone, "otp")!;
    expect(access.text).toBe(accessText(/\b(\d{6})\b/.exec(access.text)![1]));
    expect(access.subject_id).toBeNull();
    reply = { status: 403, body: JSON.stringify({ response_code: 1007, response: "Invalid Receiver" }) };
    await sendQueued(10, gatewayProvider());
    expect(lastMessageTo(phone, "otp")).toMatchObject({ id: access.id, status: "failed" });
    // The verification code went; the page says so.
    expect(await apiCodeSms(slug)).toBe("sent");
    expect((await page(slug)).codeSms).toBe("sent");
  });
});

describe("a first send still with the gateway", () => {
  it("reads as queued, not retrying: only a send the gateway failed is being tried again", () => {
    const entry = makePreregistration();
    queueSms([{ to: entry.phone, text: "Your code is 123456", purpose: "otp", subjectId: entry.id }]);
    const row = db.select().from(schema.smsMessages).orderBy(desc(schema.smsMessages.id)).limit(1).get()!;
    const mark = (set: Partial<typeof row>) =>
      db.update(schema.smsMessages).set(set).where(eq(schema.smsMessages.id, row.id)).run();
    mark({ attempts: 1, sending_at: new Date().toISOString(), claimed_by: "w" });
    expect(codeSmsOf(entry)).toBe("queued");
    mark({ sending_at: null, claimed_by: null, error: "Gateway answered 503" });
    expect(codeSmsOf(entry)).toBe("retrying");
  });
});
