import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db, schema } from "@db/index";
import {
  GATEWAY_TIMEOUT_MS,
  httpGatewayProvider,
  lastMessageTo,
  listOutbox,
  queueSms,
  sendQueued,
  sendSms,
  startSmsWorker,
} from "./sms.server";

/** A local stand-in for the SMS gateway: records each request, answers with `reply`. */
type Hit = { method: string; path: string; contentType: string | undefined; form: URLSearchParams };
let reply: { status: number; body: string; hang?: boolean } = { status: 200, body: "" };
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
      });
      if (reply.hang) return; // never answers
      res.writeHead(reply.status, { "content-type": "application/json" }).end(reply.body);
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
  reply = { status: 200, body: ok() };
  delete process.env.SMS_PROVIDER;
  delete process.env.SMS_GATEWAY_URL;
  delete process.env.SMS_GATEWAY_TOKEN;
  delete process.env.SMS_GATEWAY_FROM;
  db.delete(schema.smsMessages).run();
  db.delete(schema.smsBroadcasts).run();
});

function useGateway() {
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
    useGateway();
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
    useGateway();
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
    useGateway();
    reply = gatewayError(code, response);
    const msg = await sendSms({ to: "9812345612", text: "hello", purpose: "notify" });
    expect(msg.status).toBe("failed");
    expect(msg.error).toMatch(message);
    expect(msg.error).toContain(String(code));
    expect(storedRow(msg.id)).toMatchObject({ status: "failed", provider: "http", provider_reply: reply.body });
  });

  it("reports an unknown gateway code with the gateway's own message", async () => {
    useGateway();
    reply = gatewayError(1099, "Something new");
    const msg = await sendSms({ to: "9812345612", text: "hello", purpose: "notify" });
    expect(msg.error).toBe("SMS gateway error 1099: Something new");
  });

  it("fails on HTTP 500 and keeps the raw reply", async () => {
    useGateway();
    reply = { status: 500, body: "Internal Server Error" };
    const msg = await sendSms({ to: "9812345612", text: "hello", purpose: "notify" });
    expect(msg).toMatchObject({
      status: "failed",
      error: "SMS gateway answered HTTP 500",
      provider_reply: "Internal Server Error",
    });
  });

  it("fails on a 200 reply that is not the gateway's JSON", async () => {
    useGateway();
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
    useGateway();
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
    useGateway();
    queueSms(
      ["9800000001", "9800000002", "9800000003", "9800000004", "9800000005"].map((to) => ({
        to,
        text: `hi ${to}`,
        purpose: "broadcast" as const,
      })),
    );
    expect(queued()).toHaveLength(5);

    expect(await sendQueued(3)).toEqual({ sent: 3, failed: 0 });
    expect(hits.map((h) => h.form.get("to"))).toEqual(["9800000001", "9800000002", "9800000003"]);
    expect(queued().map((m) => m.to)).toEqual(["9800000004", "9800000005"]);

    expect(await sendQueued(10)).toEqual({ sent: 2, failed: 0 });
    expect(await sendQueued(10)).toEqual({ sent: 0, failed: 0 });
    expect(hits).toHaveLength(5);
    const all = listOutbox({ limit: 10 });
    expect(all.every((m) => m.status === "sent" && m.provider === "http" && m.provider_reply === ok())).toBe(true);
  });

  it("never sends a row twice when two senders run at once", async () => {
    useGateway();
    queueSms(Array.from({ length: 6 }, (_, i) => ({ to: `980000001${i}`, text: "hi", purpose: "broadcast" as const })));
    const [a, b] = await Promise.all([sendQueued(6), sendQueued(6)]);
    expect(a.sent + b.sent).toBe(6);
    expect(hits).toHaveLength(6);
    expect(new Set(hits.map((h) => h.form.get("to"))).size).toBe(6);
  });

  it("moves a broadcast's progress; a bad number fails alone", async () => {
    useGateway();
    const broadcast = db
      .insert(schema.smsBroadcasts)
      .values({ type: "MOBILE", text: "Offer", total: 3, mobiles: "[]" })
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

    expect(await sendQueued(1)).toEqual({ sent: 1, failed: 0 });
    const mid = db.select().from(schema.smsBroadcasts).where(eq(schema.smsBroadcasts.id, broadcast.id)).get()!;
    expect(mid).toMatchObject({ sent: 1, failed: 0, status: "sending" });

    expect(await sendQueued(5)).toEqual({ sent: 1, failed: 1 });
    const done = db.select().from(schema.smsBroadcasts).where(eq(schema.smsBroadcasts.id, broadcast.id)).get()!;
    expect(done).toMatchObject({ sent: 2, failed: 1, status: "done" });
    expect(hits).toHaveLength(2);
    const bad = listOutbox({ broadcastId: broadcast.id, limit: 10 }).find((m) => m.to === "12345")!;
    expect(bad).toMatchObject({ status: "failed", error: "Invalid mobile number" });
  });

  it("a failed gateway send marks the row failed, not queued", async () => {
    useGateway();
    reply = gatewayError(1013, "Insufficient Credits");
    queueSms([{ to: "9800000031", text: "hi", purpose: "broadcast" }]);
    expect(await sendQueued(5)).toEqual({ sent: 0, failed: 1 });
    expect(queued()).toHaveLength(0);
    expect(lastMessageTo("9800000031")).toMatchObject({ status: "failed", attempts: 1 });
  });

  it("the background worker drains the queue at its rate and stops", async () => {
    queueSms(Array.from({ length: 4 }, (_, i) => ({ to: `980000004${i}`, text: "hi", purpose: "broadcast" as const })));
    const stop = startSmsWorker({ ratePerSecond: 20, intervalMs: 50 });
    try {
      await vi.waitFor(() => expect(queued()).toHaveLength(0), { timeout: 5000, interval: 20 });
    } finally {
      stop();
    }
    expect(listOutbox({ limit: 10 }).every((m) => m.status === "sent" && m.provider === "outbox")).toBe(true);
  });
});
