import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import Database from "better-sqlite3";
import { databasePath, db, schema } from "@db/index";
import { SYSTEM } from "~/models/audit.server";
import { parseTableParams } from "~/utils/datatable.server";
import { setClock } from "~/utils/time";
import { HEAD_OFFICE } from "~/models/scope.server";
import { PERMISSIONS } from "~/utils/permissions";
import { codeDelivery, queueMessage, queueSms, queueSmsInChunks } from "./sms.server";
import {
  CLAIM_LEASE_MS,
  claimSms,
  dueRows,
  EXPIRED_ERROR,
  INTERRUPTED_ERROR,
  hasDueSms,
  MAX_CLAIM,
  MAX_CLAIM_LOOK,
  SMS_RETRY,
  sendQueued,
  sendSms,
  smsWorkerId,
} from "./sms-delivery.server";
import { BUSY_PAUSE_MS, startSmsWorker } from "./sms-worker.server";
import { GATEWAY_TIMEOUT_MS, httpGatewayProvider, type SmsProvider } from "./sms-provider.server";
import { lastMessageTo, listOutbox, outboxPage, retryOutboxMessage } from "./sms-outbox.server";

/** A local stand-in for the SMS gateway: records each request, answers with `reply`. */
type Hit = { method: string; path: string; contentType: string | undefined; form: URLSearchParams; at: number };
let reply: { status: number; body: string; hang?: boolean; delayMs?: number } = { status: 200, body: "" };
/** Replies to come, one per request, before `reply` applies again. */
let script: (typeof reply)[] = [];
const hits: Hit[] = [];
let gateway: http.Server;
let gatewayUrl = "";

const ok = (count = 1) =>
  JSON.stringify({ count, response_code: 200, response: `${count} mesages has been queued for delivery` });
const gatewayError = (code: number, response: string) => ({
  status: 403,
  body: JSON.stringify({ response_code: code, response }),
});

beforeAll(async () => {
  gateway = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      hits.push({
        method: req.method ?? "",
        path: req.url ?? "",
        contentType: req.headers["content-type"],
        form: new URLSearchParams(body),
        at: Date.now(),
      });
      const answer = script.shift() ?? reply;
      if (answer.hang) return; // never answers
      const send = () => res.writeHead(answer.status, { "content-type": "application/json" }).end(answer.body);
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => gateway.listen(0, "127.0.0.1", resolve));
  gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/v2/sms/`;
});

afterAll(async () => {
  gateway.closeAllConnections();
  await new Promise<void>((resolve) => gateway.close(() => resolve()));
});

beforeEach(() => {
  hits.length = 0;
  script = [];
  reply = { status: 200, body: ok() };
  delete process.env.SMS_PROVIDER;
  delete process.env.SMS_GATEWAY_URL;
  delete process.env.SMS_GATEWAY_TOKEN;
  delete process.env.SMS_GATEWAY_FROM;
  db.delete(schema.smsMessages).run();
  db.delete(schema.smsBroadcasts).run();
});

afterEach(() => setClock(null));

function configureGateway() {
  process.env.SMS_PROVIDER = "http";
  process.env.SMS_GATEWAY_URL = gatewayUrl;
  process.env.SMS_GATEWAY_TOKEN = "tok-123";
  process.env.SMS_GATEWAY_FROM = "ThrillBikes";
}

function storedRow(id: number) {
  return db.select().from(schema.smsMessages).where(eq(schema.smsMessages.id, id)).get()!;
}

describe("outbox provider (default)", () => {
  it("stores the message and marks it sent; nothing leaves the machine", async () => {
    const msg = await sendSms({ to: "+977 981-234-5612", text: "Your code is 123456", purpose: "otp" });
    expect(msg).toMatchObject({
      to: "9812345612",
      text: "Your code is 123456",
      purpose: "otp",
      status: "sent",
      provider: "outbox",
      provider_reply: "stored in outbox",
      error: null,
      attempts: 1,
    });
    expect(msg.sent_at).toBeTruthy();
    expect(storedRow(msg.id).status).toBe("sent");
    expect(hits).toHaveLength(0);
  });

  it("lists the outbox latest first, filtered by phone and purpose", async () => {
    const a = await sendSms({ to: "9811111111", text: "one", purpose: "otp" });
    const b = await sendSms({ to: "9822222222", text: "two", purpose: "notify" });
    const c = await sendSms({ to: "9811111111", text: "three", purpose: "notify" });
    expect(listOutbox({ limit: 10 }).map((m) => m.id)).toEqual([c.id, b.id, a.id]);
    expect(listOutbox({ to: "+9779811111111", limit: 10 }).map((m) => m.id)).toEqual([c.id, a.id]);
    expect(listOutbox({ purpose: "notify", limit: 1 }).map((m) => m.id)).toEqual([c.id]);
    expect(lastMessageTo("9811111111")?.text).toBe("three");
    expect(lastMessageTo("9811111111", "otp")?.text).toBe("one");
    expect(lastMessageTo("9833333333")).toBeNull();
  });

  it("fails an invalid mobile number without sending it", async () => {
    configureGateway();
    const msg = await sendSms({ to: "12345", text: "hello", purpose: "notify" });
    expect(msg).toMatchObject({ to: "12345", status: "failed", error: "Invalid mobile number" });
    expect(hits).toHaveLength(0);
  });

  it("fails every message when SMS_PROVIDER names no provider", async () => {
    process.env.SMS_PROVIDER = "carrier-pigeon";
    const msg = await sendSms({ to: "9812345612", text: "hello", purpose: "notify" });
    expect(msg.status).toBe("failed");
    expect(msg.error).toMatch(/Unknown SMS provider "carrier-pigeon"/);
  });
});

describe("HTTP gateway provider", () => {
  it("posts token, from, to and text as a form and marks the message sent", async () => {
    configureGateway();
    const text = "तपाईंको कोड 123456 हो। Your code is 123456 & valid 10 min";
    const msg = await sendSms({ to: "9812345612", text, purpose: "otp" });
    expect(hits).toHaveLength(1);
    expect(hits[0].method).toBe("POST");
    expect(hits[0].path).toBe("/v2/sms/");
    expect(hits[0].contentType).toMatch(/application\/x-www-form-urlencoded/);
    expect(Object.fromEntries(hits[0].form)).toEqual({ token: "tok-123", from: "ThrillBikes", to: "9812345612", text });
    expect(msg).toMatchObject({ status: "sent", provider: "http", provider_reply: ok(), error: null });
    expect(storedRow(msg.id)).toMatchObject({ status: "sent", provider_reply: ok() });
  });

  it.each([
    [1002, "Invalid Token", /invalid token/],
    [1007, "Invalid Receiver", /invalid receiver \(mobile number\)/],
    [1008, "Invalid Sender", /invalid sender \(from\)/],
    [1011, "No valid receiver", /no valid receiver/],
    [1013, "Insufficient Credits", /not enough credit/],
  ])("maps gateway error %i to a clear failure", async (code, response, message) => {
    configureGateway();
    reply = gatewayError(code, response);
    const msg = await sendSms({ to: "9812345612", text: "hello", purpose: "notify" });
    expect(msg.status).toBe("failed");
    expect(msg.error).toMatch(message);
    expect(msg.error).toContain(String(code));
    expect(storedRow(msg.id)).toMatchObject({ status: "failed", provider: "http", provider_reply: reply.body });
  });

  it("reports an unknown gateway code with the gateway's own message", async () => {
    configureGateway();
    reply = gatewayError(1099, "Something new");
    const msg = await sendSms({ to: "9812345612", text: "hello", purpose: "notify" });
    expect(msg.error).toBe("SMS gateway error 1099: Something new");
  });

  it("fails on HTTP 500 and keeps the raw reply", async () => {
    configureGateway();
    reply = { status: 500, body: "Internal Server Error" };
    const msg = await sendSms({ to: "9812345612", text: "hello", purpose: "notify" });
    expect(msg).toMatchObject({
      status: "failed",
      error: "SMS gateway answered HTTP 500",
      provider_reply: "Internal Server Error",
    });
  });

  it("fails on a 200 reply that is not the gateway's JSON", async () => {
    configureGateway();
    reply = { status: 200, body: "<html>captive portal</html>" };
    const msg = await sendSms({ to: "9812345612", text: "hello", purpose: "notify" });
    expect(msg.status).toBe("failed");
    expect(msg.error).toMatch(/could not be understood/);
  });

  it("fails clearly when the gateway refuses the connection", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    configureGateway();
    process.env.SMS_GATEWAY_URL = `http://127.0.0.1:${port}/v2/sms/`;
    const msg = await sendSms({ to: "9812345612", text: "hello", purpose: "notify" });
    expect(msg).toMatchObject({ status: "failed", provider: "http", provider_reply: null });
    expect(msg.error).toBe("SMS gateway could not be reached (ECONNREFUSED)");
  });

  it("fails clearly when the gateway does not answer in time", async () => {
    expect(GATEWAY_TIMEOUT_MS).toBe(10_000);
    reply = { status: 200, body: "", hang: true };
    const provider = httpGatewayProvider({ url: gatewayUrl, token: "tok", from: "X", timeoutMs: 200 });
    const msg = await sendSms({ to: "9812345612", text: "hello", purpose: "notify" }, provider);
    expect(hits).toHaveLength(1);
    expect(msg.status).toBe("failed");
    expect(msg.error).toBe("SMS gateway did not answer within 0.2 s");
  });

  it("fails when the gateway URL or token is missing", async () => {
    process.env.SMS_PROVIDER = "http";
    process.env.SMS_GATEWAY_TOKEN = "tok";
    const noUrl = await sendSms({ to: "9812345612", text: "hello", purpose: "notify" });
    expect(noUrl).toMatchObject({ status: "failed", provider: "http", error: "SMS gateway is not configured" });
    delete process.env.SMS_GATEWAY_TOKEN;
    process.env.SMS_GATEWAY_URL = gatewayUrl;
    const noToken = await sendSms({ to: "9812345612", text: "hello", purpose: "notify" });
    expect(noToken.error).toBe("SMS gateway is not configured");
    expect(hits).toHaveLength(0);
  });
});

describe("queued messages", () => {
  const queued = () => db.select().from(schema.smsMessages).where(eq(schema.smsMessages.status, "queued")).all();

  it("sends queued rows oldest first and stops at the limit", async () => {
    configureGateway();
    queueSms(
      ["9800000001", "9800000002", "9800000003", "9800000004", "9800000005"].map((to) => ({
        to,
        text: `hi ${to}`,
        purpose: "broadcast" as const,
      })),
    );
    expect(queued()).toHaveLength(5);

    expect(await sendQueued(3)).toEqual({ sent: 3, failed: 0, retried: 0 });
    expect(hits.map((h) => h.form.get("to"))).toEqual(["9800000001", "9800000002", "9800000003"]);
    expect(queued().map((m) => m.to)).toEqual(["9800000004", "9800000005"]);

    expect(await sendQueued(10)).toEqual({ sent: 2, failed: 0, retried: 0 });
    expect(await sendQueued(10)).toEqual({ sent: 0, failed: 0, retried: 0 });
    expect(hits).toHaveLength(5);
    const all = listOutbox({ limit: 10 });
    expect(all.every((m) => m.status === "sent" && m.provider === "http" && m.provider_reply === ok())).toBe(true);
  });

  it("never sends a row twice when two senders run at once", async () => {
    configureGateway();
    queueSms(Array.from({ length: 6 }, (_, i) => ({ to: `980000001${i}`, text: "hi", purpose: "broadcast" as const })));
    const [a, b] = await Promise.all([sendQueued(6), sendQueued(6)]);
    expect(a.sent + b.sent).toBe(6);
    expect(hits).toHaveLength(6);
    expect(new Set(hits.map((h) => h.form.get("to"))).size).toBe(6);
  });

  it("moves a broadcast's progress; a bad number fails alone", async () => {
    configureGateway();
    const broadcast = db
      .insert(schema.smsBroadcasts)
      .values({ type: "MOBILE", text: "Offer", total: 3 })
      .returning()
      .get();
    queueSms(
      ["9800000021", "12345", "9800000023"].map((to) => ({
        to,
        text: "Offer",
        purpose: "broadcast" as const,
        broadcastId: broadcast.id,
      })),
    );

    expect(await sendQueued(1)).toEqual({ sent: 1, failed: 0, retried: 0 });
    const mid = db.select().from(schema.smsBroadcasts).where(eq(schema.smsBroadcasts.id, broadcast.id)).get()!;
    expect(mid).toMatchObject({ sent: 1, failed: 0, status: "sending" });

    expect(await sendQueued(5)).toEqual({ sent: 1, failed: 1, retried: 0 });
    const done = db.select().from(schema.smsBroadcasts).where(eq(schema.smsBroadcasts.id, broadcast.id)).get()!;
    expect(done).toMatchObject({ sent: 2, failed: 1, status: "done" });
    expect(hits).toHaveLength(2);
    const bad = listOutbox({ broadcastId: broadcast.id, limit: 10 }).find((m) => m.to === "12345")!;
    expect(bad).toMatchObject({ status: "failed", error: "Invalid mobile number" });
  });

  it("a message-level gateway error fails the row at once; it is not retried", async () => {
    configureGateway();
    reply = gatewayError(1007, "Invalid Receiver");
    queueSms([{ to: "9800000031", text: "hi", purpose: "broadcast" }]);
    expect(await sendQueued(5)).toEqual({ sent: 0, failed: 1, retried: 0 });
    expect(queued()).toHaveLength(0);
    expect(lastMessageTo("9800000031")).toMatchObject({ status: "failed", attempts: 1 });
    expect(lastMessageTo("9800000031")?.error).toMatch(/invalid receiver/);
  });

  it("the background worker drains the queue at its rate and stops", async () => {
    queueSms(Array.from({ length: 4 }, (_, i) => ({ to: `980000004${i}`, text: "hi", purpose: "broadcast" as const })));
    const stop = startSmsWorker({ ratePerSecond: 20, intervalMs: 50 });
    try {
      await vi.waitFor(() => expect(queued()).toHaveLength(0), { timeout: 5000, interval: 20 });
    } finally {
      await stop();
    }
    expect(listOutbox({ limit: 10 }).every((m) => m.status === "sent" && m.provider === "outbox")).toBe(true);
  });

  it("while the server is busy, broadcasts trickle (one per BUSY_PAUSE_MS) and a code goes at once", async () => {
    let busy = true;
    queueSms(
      Array.from({ length: 8 }, (_, i) => ({ to: `98000005${i}0`, text: "offer", purpose: "broadcast" as const })),
    );
    const sent = (purpose: string) =>
      db
        .select()
        .from(schema.smsMessages)
        .where(and(eq(schema.smsMessages.status, "sent"), eq(schema.smsMessages.purpose, purpose)))
        .all().length;
    const started = performance.now();
    const stop = startSmsWorker({ ratePerSecond: 100, intervalMs: 50, busy: () => busy });
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      queueSms([{ to: "9800000599", text: "Your code is 123456", purpose: "otp" }]);
      await vi.waitFor(() => expect(sent("otp")).toBe(1), { timeout: 1000, interval: 10 });
      const broadcasts = sent("broadcast");
      // At the full rate all eight would have gone in 80 ms.
      expect(broadcasts).toBeGreaterThanOrEqual(1);
      expect(broadcasts).toBeLessThanOrEqual(Math.floor((performance.now() - started) / BUSY_PAUSE_MS) + 1);
      busy = false;
      await vi.waitFor(() => expect(sent("broadcast")).toBe(8), { timeout: 3000, interval: 20 });
    } finally {
      await stop();
    }
  });
});

// ---------------------------------------------------------------- retries, restarts, order

const T0 = Date.parse("2026-11-21T06:00:00.000Z");
/** Stands the app's clock `ms` after T0. */
const at = (ms: number) => setClock(() => new Date(T0 + ms));
const iso = (ms: number) => new Date(T0 + ms).toISOString();
const row = (id: number) => storedRow(id);
const fastGateway = (timeoutMs = 100) => httpGatewayProvider({ url: gatewayUrl, token: "tok", from: "X", timeoutMs });

describe("retries with backoff", () => {
  it("a gateway 5xx puts the message back with a backoff; it is sent once the gateway answers", async () => {
    configureGateway();
    at(0);
    queueSms([{ to: "9800000101", text: "offer", purpose: "broadcast" }]);
    const id = listOutbox()[0].id;
    script = [{ status: 503, body: "Service Unavailable" }];

    expect(await sendQueued(5)).toEqual({ sent: 0, failed: 0, retried: 1 });
    expect(row(id)).toMatchObject({
      status: "queued",
      attempts: 1,
      error: "SMS gateway answered HTTP 503",
      provider_reply: "Service Unavailable",
      claimed_by: null,
      sending_at: null,
      due_at: iso(SMS_RETRY.delaysMs[0]),
    });
    // Not due yet: nothing is sent.
    at(SMS_RETRY.delaysMs[0] - 1);
    expect(await sendQueued(5)).toEqual({ sent: 0, failed: 0, retried: 0 });
    expect(hits).toHaveLength(1);

    at(SMS_RETRY.delaysMs[0]);
    expect(await sendQueued(5)).toEqual({ sent: 1, failed: 0, retried: 0 });
    expect(row(id)).toMatchObject({ status: "sent", attempts: 2, error: null, provider_reply: ok() });
    expect(hits).toHaveLength(2);
  });

  it("a gateway that keeps timing out: retried after 30 s, 2, 8 and 30 min, then failed with its reason", async () => {
    reply = { status: 200, body: "", hang: true };
    const provider = fastGateway(100);
    at(0);
    queueSms([{ to: "9800000102", text: "offer", purpose: "broadcast" }]);
    const id = listOutbox()[0].id;
    let clock = 0;
    for (let attempt = 1; attempt < SMS_RETRY.maxAttempts; attempt++) {
      expect(await sendQueued(5, provider)).toEqual({ sent: 0, failed: 0, retried: 1 });
      expect(row(id)).toMatchObject({
        status: "queued",
        attempts: attempt,
        error: "SMS gateway did not answer within 0.1 s",
      });
      expect(row(id).due_at).toBe(iso(clock + SMS_RETRY.delaysMs[attempt - 1]));
      clock += SMS_RETRY.delaysMs[attempt - 1];
      at(clock);
    }
    expect(await sendQueued(5, provider)).toEqual({ sent: 0, failed: 1, retried: 0 });
    expect(row(id)).toMatchObject({
      status: "failed",
      attempts: SMS_RETRY.maxAttempts,
      error: `SMS gateway did not answer within 0.1 s (gave up after ${SMS_RETRY.maxAttempts} attempts)`,
      claimed_by: null,
    });
    expect(hits).toHaveLength(SMS_RETRY.maxAttempts);
    at(clock + 3600_000);
    expect(await sendQueued(5, provider)).toEqual({ sent: 0, failed: 0, retried: 0 });
    expect(hits).toHaveLength(SMS_RETRY.maxAttempts);
  });

  it.each([
    ["credit (1013)", gatewayError(1013, "Insufficient Credits"), /not enough credit/],
    ["token (1002)", gatewayError(1002, "Invalid Token"), /invalid token/],
    ["HTTP 429", { status: 429, body: "slow down" }, /HTTP 429/],
  ])("an account-level failure (%s) is retried", async (_name, answer, message) => {
    configureGateway();
    at(0);
    queueSms([{ to: "9800000103", text: "offer", purpose: "notify" }]);
    script = [answer];
    expect(await sendQueued(5)).toEqual({ sent: 0, failed: 0, retried: 1 });
    expect(lastMessageTo("9800000103")?.error).toMatch(message);
    at(SMS_RETRY.delaysMs[0]);
    expect(await sendQueued(5)).toEqual({ sent: 1, failed: 0, retried: 0 });
  });

  it("a refused connection is retried", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    at(0);
    queueSms([{ to: "9800000104", text: "offer", purpose: "notify" }]);
    const provider = httpGatewayProvider({ url: `http://127.0.0.1:${port}/`, token: "t", from: "X" });
    expect(await sendQueued(5, provider)).toEqual({ sent: 0, failed: 0, retried: 1 });
    expect(lastMessageTo("9800000104")).toMatchObject({
      status: "queued",
      error: "SMS gateway could not be reached (ECONNREFUSED)",
    });
  });

  it("a code is retried sooner, and fails (so the visitor is told to resend) once its code would expire", async () => {
    configureGateway();
    reply = { status: 500, body: "oops" };
    at(0);
    const sms = queueMessage(db, { to: "9800000105", text: "Your code is 482913", purpose: "otp", subjectId: 77 });
    expect(sms).toMatchObject({ priority: 0, subject_id: 77, valid_until: iso(10 * 60_000) });
    expect(codeDelivery("otp", 77)).toMatchObject({ messageId: sms.id, status: "queued", attempts: 0, error: null });

    await sendQueued(5);
    expect(row(sms.id).due_at).toBe(iso(SMS_RETRY.codeDelaysMs[0]));
    expect(codeDelivery("otp", 77)).toMatchObject({
      status: "queued",
      attempts: 1,
      error: "SMS gateway answered HTTP 500",
    });

    // A code whose next try would fall after the code's expiry ends now.
    const short = queueMessage(db, {
      to: "9800000106",
      text: "Your code is 111222",
      purpose: "purchase-code",
      subjectId: 78,
      validUntil: iso(5_000),
    });
    await sendQueued(5);
    expect(row(short.id)).toMatchObject({ status: "failed", error: "SMS gateway answered HTTP 500" });
    expect(codeDelivery("purchase-code", 78)).toMatchObject({ status: "failed", attempts: 1 });
    expect(codeDelivery("purchase-code", 79)).toBeNull();
  });

  it("the latest code of a subject is the one reported", async () => {
    at(0);
    queueMessage(db, { to: "9800000107", text: "Your code is 100001", purpose: "otp", subjectId: 90 });
    await sendQueued(5);
    expect(codeDelivery("otp", 90)).toMatchObject({ status: "sent", attempts: 1 });
    const second = queueMessage(db, { to: "9800000107", text: "Your code is 100002", purpose: "otp", subjectId: 90 });
    expect(codeDelivery("otp", 90)).toMatchObject({ messageId: second.id, status: "queued" });
  });
});

describe("nothing is sent twice", () => {
  it("a sent message is released in the same write: no later claim sends it again", async () => {
    configureGateway();
    at(0);
    queueSms([{ to: "9800000111", text: "offer", purpose: "broadcast" }]);
    await sendQueued(5);
    const id = listOutbox()[0].id;
    expect(row(id)).toMatchObject({ status: "sent", claimed_by: null, sending_at: null });
    at(24 * 3600_000);
    expect(await claimSms(10, "other-host:3000#zz")).toEqual([]);
    expect(hits).toHaveLength(1);
  });

  it("a message with the gateway when its worker died is failed on the lease's expiry, never sent again", async () => {
    reply = { status: 200, body: ok(), delayMs: 50 };
    at(0);
    queueSms([{ to: "9800000112", text: "offer", purpose: "broadcast" }]);
    // A worker that hands the message over and dies before it can record the gateway's answer.
    let handedOver!: () => void;
    const withGateway = new Promise<void>((resolve) => (handedOver = resolve));
    const dying: SmsProvider = {
      name: "http",
      timeoutMs: 100,
      send: async (to, text) => {
        await fastGateway().send(to, text);
        handedOver();
        return new Promise<never>(() => {}); // the process is gone: no outcome is ever recorded
      },
    };
    startSmsWorker({ ratePerSecond: 10, slot: "dead-host:3000", provider: () => dying });
    await withGateway;
    const id = listOutbox()[0].id;
    expect(hits).toHaveLength(1);
    expect(row(id)).toMatchObject({ status: "queued", claimed_by: smsWorkerId("dead-host:3000"), attempts: 1 });
    expect(row(id).sending_at).toBe(iso(0));

    // Before the lease ends nobody takes it; after, the next claim fails it instead of sending it.
    at(60_000);
    expect(await claimSms(5, "live-host:3000#bb")).toEqual([]);
    at(GATEWAY_TIMEOUT_MS + 60_000);
    expect(await sendQueued(5, fastGateway())).toEqual({ sent: 0, failed: 0, retried: 0 });
    expect(row(id)).toMatchObject({ status: "failed", error: INTERRUPTED_ERROR, claimed_by: null });
    expect(hits).toHaveLength(1);
  });

  it("two workers with their own claims send each of 40 messages once", async () => {
    configureGateway();
    reply = { status: 200, body: ok(), delayMs: 2 };
    queueSms(
      Array.from({ length: 40 }, (_, i) => ({
        to: `98000002${String(i).padStart(2, "0")}`,
        text: "hi",
        purpose: "broadcast" as const,
      })),
    );
    const stops = [
      startSmsWorker({ ratePerSecond: 1000, intervalMs: 20, slot: "worker-a" }),
      startSmsWorker({ ratePerSecond: 1000, intervalMs: 20, slot: "worker-b" }),
    ];
    try {
      await vi.waitFor(() => expect(hits).toHaveLength(40), { timeout: 5000, interval: 20 });
      await vi.waitFor(() => expect(listOutbox({ limit: 100 }).every((m) => m.status === "sent")).toBe(true));
    } finally {
      await Promise.all(stops.map((stop) => stop()));
    }
    expect(new Set(hits.map((h) => h.form.get("to"))).size).toBe(40);
    const owners = new Set(listOutbox({ limit: 100 }).map((m) => m.claimed_by));
    expect(owners).toEqual(new Set([null]));
  });
});

describe("restart after a crash", () => {
  it("claims left by an earlier run of this slot go back to the queue at once: unsent ones are sent, the one with the gateway is failed", async () => {
    configureGateway();
    at(0);
    const slot = "vps-1:3000";
    const previous = `${slot}#oldrun`;
    queueSms([
      { to: "9800000121", text: "offer 1", purpose: "broadcast" },
      { to: "9800000122", text: "offer 2", purpose: "broadcast" },
    ]);
    const otp = queueMessage(db, { to: "9800000123", text: "Your code is 555111", purpose: "otp", subjectId: 5 });
    const inFlight = queueMessage(db, { to: "9800000124", text: "Your code is 555222", purpose: "otp", subjectId: 6 });
    // The earlier run claimed everything (leases a minute long) and was killed while one code was with the gateway.
    const claimed = await claimSms(10, previous);
    expect(claimed.map((m) => m.id)).toEqual(expect.arrayContaining([otp.id, inFlight.id]));
    db.update(schema.smsMessages)
      .set({ sending_at: iso(0), attempts: 1 })
      .where(eq(schema.smsMessages.id, inFlight.id))
      .run();
    // Another slot's claims are not this worker's to take before their lease ends.
    const otherSlot = queueMessage(db, { to: "9800000125", text: "hello", purpose: "notify" });
    await claimSms(1, "vps-1:3001#live");
    expect(row(otherSlot.id).claimed_by).toBe("vps-1:3001#live");

    at(1000); // well inside the old leases
    const stop = startSmsWorker({ ratePerSecond: 1000, intervalMs: 20, slot });
    try {
      await vi.waitFor(() => expect(hits).toHaveLength(3), { timeout: 5000, interval: 20 });
    } finally {
      await stop();
    }
    expect(hits.map((h) => h.form.get("to")).sort()).toEqual(["9800000121", "9800000122", "9800000123"]);
    expect(row(otp.id)).toMatchObject({ status: "sent", attempts: 1 });
    expect(row(inFlight.id)).toMatchObject({ status: "failed", error: INTERRUPTED_ERROR });
    expect(codeDelivery("otp", 6)).toMatchObject({ status: "failed", error: INTERRUPTED_ERROR });
    expect(row(otherSlot.id)).toMatchObject({ status: "queued", claimed_by: "vps-1:3001#live" });
  });

  it("another worker's expired lease is taken over; a code past its life is failed, not sent", async () => {
    configureGateway();
    at(0);
    const left = queueMessage(db, { to: "9800000131", text: "hello", purpose: "notify" });
    await claimSms(1, "gone-host:3000#x");
    const stale = queueMessage(db, { to: "9800000132", text: "Your code is 123123", purpose: "otp", subjectId: 9 });
    at(CLAIM_LEASE_MS + 11 * 60_000);
    expect(await sendQueued(10)).toEqual({ sent: 1, failed: 0, retried: 0 });
    expect(row(left.id)).toMatchObject({ status: "sent" });
    expect(row(stale.id)).toMatchObject({ status: "failed", error: EXPIRED_ERROR, attempts: 0 });
    expect(codeDelivery("otp", 9)?.status).toBe("failed");
    expect(hits.map((h) => h.form.get("to"))).toEqual(["9800000131"]);
  });
});

describe("stopping the worker (SIGTERM)", () => {
  it("the message with the gateway finishes; the others claimed go back to the queue untouched", async () => {
    configureGateway();
    reply = { status: 200, body: ok(), delayMs: 300 };
    queueSms(Array.from({ length: 4 }, (_, i) => ({ to: `980000014${i}`, text: "hi", purpose: "broadcast" as const })));
    const stop = startSmsWorker({ ratePerSecond: 50, intervalMs: 20, slot: "stopping" });
    await vi.waitFor(() => expect(hits).toHaveLength(1), { timeout: 5000, interval: 5 });
    const stopped = stop();
    const all = () => listOutbox({ limit: 10 }).sort((a, b) => a.id - b.id);
    expect(all()[0]).toMatchObject({ status: "queued" }); // still with the gateway
    await stopped;
    expect(all().map((m) => [m.status, m.attempts, m.claimed_by])).toEqual([
      ["sent", 1, null],
      ["queued", 0, null],
      ["queued", 0, null],
      ["queued", 0, null],
    ]);
    expect(hits).toHaveLength(1);
    // Whoever starts next sends them.
    reply = { status: 200, body: ok() };
    expect(await sendQueued(10)).toEqual({ sent: 3, failed: 0, retried: 0 });
  });
});

describe("order and pace", () => {
  it("codes go before notices and broadcasts queued earlier", async () => {
    at(0);
    queueSms(
      Array.from({ length: 30 }, (_, i) => ({
        to: `98000003${String(i).padStart(2, "0")}`,
        text: "offer",
        purpose: "broadcast" as const,
      })),
    );
    queueSms([{ to: "9800000401", text: "prize", purpose: "notify" }]);
    at(1000);
    queueMessage(db, { to: "9800000402", text: "Your code is 999000", purpose: "password-reset", subjectId: 3 });
    const first = await claimSms(3, smsWorkerId());
    expect(first.map((m) => m.purpose)).toEqual(["password-reset", "notify", "broadcast"]);
  });

  it("the claim is one index range per priority (no scan, no sort), and takes at most MAX_CLAIM rows", async () => {
    const { sql: text, params } = dueRows(db, 2, iso(0), 10).toSQL();
    const plan = db.$client.prepare(`explain query plan ${text}`).all(...params) as { detail: string }[];
    expect(plan.map((p) => p.detail)).toEqual([
      "SEARCH sms_messages USING INDEX sms_messages_claim_idx (status=? AND priority=? AND due_at<?)",
    ]);
    queueSms(
      Array.from({ length: MAX_CLAIM + 10 }, () => ({ to: "9800000501", text: "x", purpose: "broadcast" as const })),
    );
    expect(await claimSms(10_000)).toHaveLength(MAX_CLAIM);
  });

  it("a claim waits for another process's write lock by timer: the event loop keeps turning meanwhile", async () => {
    queueSms([{ to: "9800000502", text: "x", purpose: "broadcast" as const }]);
    // Another process holds the write lock (a second connection to the same file).
    const other = new Database(databasePath());
    other.prepare("BEGIN IMMEDIATE").run();
    let turns = 0;
    const ticker = setInterval(() => turns++, 5);
    const claim = claimSms(5, smsWorkerId());
    const before = turns;
    await new Promise((resolve) => setTimeout(resolve, 150));
    // Asleep in SQLite's busy handler, the loop would not have turned at all.
    expect(turns - before).toBeGreaterThan(5);
    other.prepare("COMMIT").run();
    other.close();
    const claimed = await claim;
    clearInterval(ticker);
    expect(claimed.map((r) => r.to)).toContain("9800000502");
  });

  it("a backlog of expired codes is failed a bounded claim at a time, and a fresh code behind it is still sent", async () => {
    configureGateway();
    at(0);
    const backlog = 3 * MAX_CLAIM_LOOK;
    for (let i = 0; i < backlog; i++)
      queueMessage(db, {
        to: "9800000801",
        text: "Your code is 100100",
        purpose: "otp",
        subjectId: 1000 + i,
        validUntil: iso(60_000),
      });
    at(11 * 60_000); // every one of them is past its code's life
    const fresh = queueMessage(db, { to: "9800000802", text: "Your code is 200200", purpose: "otp", subjectId: 5000 });
    const failed = () => listOutbox({ limit: 5000 }).filter((m) => m.status === "failed").length;
    expect(await claimSms(10, smsWorkerId())).toEqual([]);
    expect(failed()).toBe(MAX_CLAIM_LOOK);
    expect(hasDueSms()).toBe(true);
    // A worker that paused on an empty claim would wait a minute here.
    const stop = startSmsWorker({ ratePerSecond: 50, intervalMs: 60_000, slot: "backlog" });
    try {
      await vi.waitFor(() => expect(row(fresh.id)).toMatchObject({ status: "sent" }), {
        timeout: 10_000,
        interval: 10,
      });
    } finally {
      await stop();
    }
    expect(failed()).toBe(backlog);
    expect(hits.map((h) => h.form.get("to"))).toEqual(["9800000802"]);
    expect(hasDueSms()).toBe(false);
  });

  it("the worker keeps its rate", async () => {
    configureGateway();
    queueSms(Array.from({ length: 6 }, (_, i) => ({ to: `980000060${i}`, text: "hi", purpose: "broadcast" as const })));
    const stop = startSmsWorker({ ratePerSecond: 20, intervalMs: 20, slot: "paced" });
    try {
      await vi.waitFor(() => expect(hits).toHaveLength(6), { timeout: 20_000, interval: 10 });
    } finally {
      await stop();
    }
    // 20 per second: six hand-overs span at least five gaps of 50 ms. The gateway notes arrivals, which
    // a busy machine can delay one by one, so one gap of slack; unpaced, all six arrive within a few ms.
    expect(hits[5].at - hits[0].at).toBeGreaterThanOrEqual(4 * 50);
  });

  it("one message with the gateway at a time: each earlier one's outcome is stored when the next is handed over", async () => {
    const sent: string[] = [];
    const watching: SmsProvider = {
      name: "outbox",
      send: async (to) => {
        const withGateway = listOutbox({ limit: 10 }).filter((m) => m.sending_at !== null);
        expect(withGateway.map((m) => m.to)).toEqual([to]);
        const earlier = listOutbox({ limit: 10 }).filter((m) => sent.includes(m.to));
        expect(earlier.every((m) => m.status === "sent" && m.claimed_by === null)).toBe(true);
        sent.push(to);
        return { ok: true, reply: "" };
      },
    };
    queueSms(Array.from({ length: 5 }, (_, i) => ({ to: `980000070${i}`, text: "hi", purpose: "broadcast" as const })));
    expect(await sendQueued(5, watching)).toEqual({ sent: 5, failed: 0, retried: 0 });
    expect(sent).toHaveLength(5);
    expect(listOutbox({ limit: 10 }).every((m) => m.status === "sent" && m.sending_at === null)).toBe(true);
  });

  it("a message's outcome is stored before the worker waits for the next one's turn", async () => {
    configureGateway();
    queueSms([
      { to: "9800000711", text: "first", purpose: "broadcast" },
      { to: "9800000712", text: "second", purpose: "broadcast" },
    ]);
    // Two a second: the second waits half a second after the first is handed over.
    const stop = startSmsWorker({ ratePerSecond: 2, intervalMs: 20, slot: "slow-pace" });
    try {
      await vi.waitFor(() => expect(hits).toHaveLength(1), { timeout: 5000, interval: 5 });
      const first = () => listOutbox({ limit: 10 }).find((m) => m.to === "9800000711")!;
      await vi.waitFor(() => expect(first()).toMatchObject({ status: "sent", sending_at: null }), {
        timeout: 300,
        interval: 5,
      });
      expect(hits).toHaveLength(1);
    } finally {
      await stop();
    }
  });

  it("a large broadcast is queued in chunks", async () => {
    const n = await queueSmsInChunks(
      Array.from({ length: 2500 }, () => ({ to: "9800000701", text: "x", purpose: "broadcast" as const })),
      1000,
    );
    expect(n).toBe(2500);
    expect(listOutbox({ limit: 5000 })).toHaveLength(2500);
  });
});

// ---------------------------------------------------------------- the back-office outbox

describe("outbox page and retry (model)", () => {
  const params = (q: Record<string, string> = {}) => parseTableParams(new URLSearchParams(q));
  const noCodes = { permissions: ["send-sms"], scope: HEAD_OFFICE };
  const seesCodes = { permissions: ["send-sms", "read-user"], scope: HEAD_OFFICE };
  // Staff password-reset messages are for a full administrator's eyes only.
  const fullAdmin = { permissions: [...PERMISSIONS], scope: HEAD_OFFICE };

  async function seed() {
    configureGateway();
    const otp = await sendSms({ to: "9811111111", text: "Your code is 482913", purpose: "otp" });
    const reset = await sendSms({ to: "9811111111", text: "Reset code 771234", purpose: "password-reset" });
    reply = gatewayError(1007, "Invalid Receiver");
    const notify = await sendSms({ to: "9822222222", text: "Prize 5000 won, code-free", purpose: "notify" });
    const failedOtp = await sendSms({ to: "9822222222", text: "Your code is 123456", purpose: "otp" });
    reply = { status: 200, body: ok() };
    return { otp, reset, notify, failedOtp };
  }

  it("masks codes for staff who may not see codes; password-reset codes for everyone", async () => {
    const { otp, reset, notify } = await seed();
    const byId = (rows: { id: number; text: string }[], id: number) => rows.find((r) => r.id === id)!.text;
    const hidden = outboxPage(noCodes, params()).data;
    expect(byId(hidden, otp.id)).toBe("Your code is ••••••");
    expect(hidden.some((r) => r.id === reset.id)).toBe(false);
    expect(byId(hidden, notify.id)).toBe("Prize 5000 won, code-free");
    const shown = outboxPage(seesCodes, params()).data;
    expect(byId(shown, otp.id)).toBe("Your code is 482913");
    expect(shown.some((r) => r.id === reset.id)).toBe(false);
    expect(byId(outboxPage(fullAdmin, params()).data, reset.id)).toBe("Reset code ••••••");
    expect(hidden.every((r) => !("claimed_by" in r))).toBe(true);
  });

  it("pages with status and purpose filters and a phone search (never a text search)", async () => {
    const { otp, reset, notify, failedOtp } = await seed();
    const ids = (t: { data: { id: number }[] }) => t.data.map((r) => r.id);
    expect(ids(outboxPage(fullAdmin, params()))).toEqual([failedOtp.id, notify.id, reset.id, otp.id]);
    expect(ids(outboxPage(fullAdmin, params(), { status: "failed" }))).toEqual([failedOtp.id, notify.id]);
    expect(ids(outboxPage(fullAdmin, params(), { purpose: "otp" }))).toEqual([failedOtp.id, otp.id]);
    expect(ids(outboxPage(fullAdmin, params({ search: "+977 9811111111" })))).toEqual([reset.id, otp.id]);
    expect(ids(outboxPage(fullAdmin, params({ search: "9822" })))).toEqual([failedOtp.id, notify.id]);
    expect(ids(outboxPage(fullAdmin, params({ search: "482913" })))).toEqual([]);
    expect(ids(outboxPage(fullAdmin, params({ search: "code" })))).toEqual([]);
    const page = outboxPage(fullAdmin, params({ length: "2", start: "2" }));
    expect(page).toMatchObject({ recordsTotal: 4, recordsFiltered: 4 });
    expect(ids(page)).toEqual([reset.id, otp.id]);
    expect(
      outboxPage(fullAdmin, params())
        .data.filter((r) => r.retryable)
        .map((r) => r.id),
    ).toEqual([notify.id]);
  });

  const auditRows = () => db.select().from(schema.auditLog).where(eq(schema.auditLog.action, "sms.retry")).all();
  const actor = { id: 7, email: "ho@example.test", address: "10.0.0.7", ...fullAdmin };

  it("a retry puts the failed message back in the queue with its audit row; the worker sends it", async () => {
    const { notify } = await seed();
    const result = retryOutboxMessage(actor, notify.id);
    expect(result.ok).toBe(true);
    expect(row(notify.id)).toMatchObject({ status: "queued", attempts: 0, error: null, claimed_by: null });
    const entry = auditRows().at(-1)!;
    expect(entry).toMatchObject({
      user_id: 7,
      user_email: "ho@example.test",
      address: "10.0.0.7",
      entity_type: "sms_message",
      entity_id: String(notify.id),
    });
    expect(JSON.parse(entry.changes)).toMatchObject({
      status: { before: "failed", after: "queued" },
      attempts: { before: 1, after: 0 },
      error: { before: expect.stringMatching(/invalid receiver/), after: null },
    });
    expect(await sendQueued(5)).toEqual({ sent: 1, failed: 0, retried: 0 });
    expect(row(notify.id).status).toBe("sent");
  });

  it("refuses a code message, a message that did not fail and an unknown id; nothing changes, no audit row", async () => {
    const { otp, failedOtp } = await seed();
    const audited = auditRows().length;
    expect(retryOutboxMessage(actor, failedOtp.id)).toMatchObject({
      ok: false,
      code: "conflict",
      message: "Only a failed message without a code can be sent again.",
    });
    expect(retryOutboxMessage(actor, otp.id)).toMatchObject({ ok: false, code: "conflict" });
    expect(retryOutboxMessage(actor, 999_999)).toMatchObject({ ok: false, code: "not_found" });
    expect(row(failedOtp.id).status).toBe("failed");
    expect(auditRows()).toHaveLength(audited);
  });

  it("refuses a message to an invalid number", async () => {
    const bad = await sendSms({ to: "12345", text: "hello", purpose: "notify" });
    expect(retryOutboxMessage({ ...SYSTEM, ...fullAdmin }, bad.id)).toMatchObject({
      ok: false,
      code: "conflict",
      message: expect.stringMatching(/not a valid mobile/),
    });
  });

  it("the retry and its audit row are one transaction: an audit write that fails leaves the message failed", async () => {
    const { notify } = await seed();
    db.$client.exec(
      `CREATE TEMP TRIGGER audit_refuses BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'audit down'); END`,
    );
    try {
      expect(() => retryOutboxMessage(actor, notify.id)).toThrow(/audit down/);
    } finally {
      db.$client.exec(`DROP TRIGGER temp.audit_refuses`);
    }
    expect(row(notify.id)).toMatchObject({ status: "failed", attempts: 1 });
  });

  it("a retried broadcast message takes its failure back from the broadcast's counters", async () => {
    configureGateway();
    const broadcast = db
      .insert(schema.smsBroadcasts)
      .values({ type: "MOBILE", text: "Offer", total: 2 })
      .returning()
      .get();
    queueSms(
      ["9800000801", "9800000802"].map((to) => ({
        to,
        text: "Offer",
        purpose: "broadcast" as const,
        broadcastId: broadcast.id,
      })),
    );
    script = [gatewayError(1007, "Invalid Receiver")];
    await sendQueued(5);
    const counters = () =>
      db.select().from(schema.smsBroadcasts).where(eq(schema.smsBroadcasts.id, broadcast.id)).get()!;
    expect(counters()).toMatchObject({ sent: 1, failed: 1, status: "done" });
    const failed = listOutbox({ broadcastId: broadcast.id }).find((m) => m.status === "failed")!;
    expect(retryOutboxMessage(actor, failed.id).ok).toBe(true);
    expect(counters()).toMatchObject({ sent: 1, failed: 0, status: "sending" });
    await sendQueued(5);
    expect(counters()).toMatchObject({ sent: 2, failed: 0, status: "done" });
  });
});
