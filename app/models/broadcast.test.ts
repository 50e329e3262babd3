import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { databasePath, db, schema } from "@db/index";
import { broadcastSchema, type BroadcastInput } from "~/schemas/broadcast";
import { parseTableParams } from "~/utils/datatable.server";
import { makeBranch, makePreregistration } from "../../tests/fixtures";
import { makeRegistration } from "../../tests/referral-fixtures";
import {
  NO_FAILED_MESSAGES,
  prepareBroadcast,
  previewBroadcast,
  resumeBroadcasts,
  retryFailedMessages,
  sendBroadcast,
  storeNextChunk,
} from "./broadcast.server";
import { audiencePlans, distinctSorted, type Audience } from "./broadcast-audience.server";
import { getBroadcast, listBroadcasts, listRecipients, searchBroadcastRegistrants } from "./broadcast-read.server";
import type { ScopedActor } from "./scope.server";
import { gatewayCredit, gatewayCreditUrl, type SmsProvider } from "./sms-provider.server";
import { queueBroadcastChunk, queueMessage } from "./sms.server";
import { sendQueued } from "./sms-delivery.server";

const { smsMessages: M, smsBroadcasts: B, auditLog } = schema;

const headOffice: ScopedActor = { id: null, email: "ho@example.test", address: "10.0.0.1", scope: { branchId: null } };

const input = (values: Record<string, unknown>): Promise<BroadcastInput> => broadcastSchema.parseAsync(values);

const messagesOf = (id: number) => db.select().from(M).where(eq(M.broadcast_id, id)).orderBy(M.to).all();

async function sendAndStore(actor: ScopedActor, values: Record<string, unknown>) {
  const sent = await sendBroadcast(actor, await input(values));
  if (!sent.ok) throw new Error(`sendBroadcast: ${sent.message}`);
  await prepareBroadcast(sent.broadcast.id);
  return getBroadcast(actor.scope, sent.broadcast.id)!;
}

beforeEach(() => {
  db.delete(M).run();
  db.delete(B).run();
  delete process.env.SMS_PROVIDER;
  delete process.env.SMS_GATEWAY_URL;
  delete process.env.SMS_GATEWAY_CREDIT_URL;
  delete process.env.SMS_GATEWAY_TOKEN;
});

describe("who a broadcast reaches", () => {
  it("ALL: every distinct phone of a live registration or a verified pre-registration, once; invalid ones skipped", async () => {
    const branch = makeBranch().id;
    const before = (await previewBroadcast(headOffice, await input({ type: "ALL", text: "Hello" }))) as {
      ok: true;
      preview: { recipients: number; skipped: number };
    };
    const reg = makeRegistration(branch); // its pre-registration is verified too: the same phone, once
    const verified = makePreregistration({ is_verified: true });
    makePreregistration({ is_verified: false }); // not verified: not reached
    makePreregistration({ is_verified: true, deleted_at: new Date().toISOString() }); // deleted: not reached
    const deleted = makeRegistration(branch, { deleted_at: new Date().toISOString() }); // deleted registration
    // Its pre-registration is verified and live: the phone is still reached through it.
    makePreregistration({ is_verified: true, phone: "12345" }); // not a valid mobile: skipped
    const preview = await previewBroadcast(headOffice, await input({ type: "ALL", text: "Hello" }));
    expect(preview.ok).toBe(true);
    if (!preview.ok) return;
    expect(preview.preview.recipients - before.preview.recipients).toBe(3); // reg, verified, deleted's pre-registration
    expect(preview.preview.skipped - before.preview.skipped).toBe(1);

    const view = await sendAndStore(headOffice, { type: "ALL", text: "Hello" });
    const phones = messagesOf(view.id).map((m) => m.to);
    expect(new Set(phones).size).toBe(phones.length);
    expect(phones).toContain(reg.phone);
    expect(phones).toContain(verified.phone);
    expect(phones).toContain(deleted.phone);
    expect(phones).not.toContain("12345");
    expect(view).toMatchObject({ total: phones.length, stored: phones.length, counting: false, status: "sending" });
    expect(view.skipped).toBeGreaterThanOrEqual(1);
    // Accepted before it was counted; the last chunk wrote the counts and their audit row.
    const stored = db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "sms.broadcast_stored"), eq(auditLog.entity_id, String(view.id))))
      .get()!;
    expect(JSON.parse(stored.changes)).toEqual({
      recipients: { before: null, after: phones.length },
      skipped: { before: null, after: view.skipped },
    });
  });

  it("BRANCH: a registration's branch; a pre-registration's branch, or its nearest showroom when public", async () => {
    const [b1, b2] = [makeBranch().id, makeBranch().id];
    const reg1 = makeRegistration(b1);
    const reg2 = makeRegistration(b2);
    const counter1 = makePreregistration({ is_verified: true, branch_id: b1, nearest_branch_id: b2 });
    const public1 = makePreregistration({ is_verified: true, branch_id: null, nearest_branch_id: b1 });
    const public2 = makePreregistration({ is_verified: true, branch_id: null, nearest_branch_id: b2 });
    const view = await sendAndStore(headOffice, { type: "BRANCH", branches: [String(b1)], text: "Branch news" });
    expect(messagesOf(view.id).map((m) => m.to)).toEqual([reg1.phone, counter1.phone, public1.phone].sort());
    const both = await sendAndStore(headOffice, { type: "BRANCH", branches: [b1, b2], text: "Both" });
    expect(messagesOf(both.id).map((m) => m.to)).toEqual(
      [reg1.phone, reg2.phone, counter1.phone, public1.phone, public2.phone].sort(),
    );
    expect(both.branches.map((b) => b.id)).toEqual([b1, b2].sort((x, y) => x - y));
  });

  it("REGISTRANTS: the chosen customers; MOBILE: the typed list, a number typed twice sent once", async () => {
    const branch = makeBranch().id;
    const [r1, r2] = [makeRegistration(branch), makeRegistration(branch)];
    makeRegistration(branch);
    const chosen = await sendAndStore(headOffice, { type: "REGISTRANTS", registrants: [r1.id, r2.id], text: "Hi" });
    expect(messagesOf(chosen.id).map((m) => m.to)).toEqual([r1.phone, r2.phone].sort());

    const typed = await sendAndStore(headOffice, {
      type: "MOBILE",
      mobiles: "9841000001, +977 9841000002 ,9841000001,\n9841000003,",
      text: "Hi",
    });
    expect(messagesOf(typed.id).map((m) => m.to)).toEqual(["9841000001", "9841000002", "9841000003"]);
    expect(typed).toMatchObject({ total: 3, duplicates: 1, mobiles: 3 });
  });

  it("a chunk stores each number once per broadcast, as queued messages of the broadcast, counting only new ones", async () => {
    const typed = await sendAndStore(headOffice, { type: "MOBILE", mobiles: "9841500001,9841500002", text: "Once" });
    expect(db.transaction((tx) => queueBroadcastChunk(tx, typed.id, "Once", ["9841500002", "9841500003"]))).toBe(1);
    const stored = messagesOf(typed.id);
    expect(stored.map((m) => m.to)).toEqual(["9841500001", "9841500002", "9841500003"]);
    // Each row is what any queued message of the broadcast is.
    const single = db.transaction((tx) =>
      queueMessage(tx, { to: "9841500009", text: "Once", purpose: "broadcast", broadcastId: typed.id }),
    );
    const fields = ({ id: _, to: __, created_at: ___, due_at: ____, ...rest }: typeof single) => rest;
    for (const row of stored) {
      expect(fields(row)).toEqual(fields(single));
      expect(row.due_at).toBe(row.created_at);
    }
  });

  it("a branch user's broadcast stays in their branch: ALL is their branch, other branches and customers are refused", async () => {
    const [own, other] = [makeBranch().id, makeBranch().id];
    const mine = makeRegistration(own);
    const theirs = makeRegistration(other);
    const branchUser: ScopedActor = { id: null, email: "b@example.test", address: null, scope: { branchId: own } };
    const all = await sendAndStore(branchUser, { type: "ALL", text: "Ours" });
    expect(messagesOf(all.id).map((m) => m.to)).toEqual([mine.phone]);

    const outside = await sendBroadcast(branchUser, await input({ type: "BRANCH", branches: [other], text: "x" }));
    expect(outside).toMatchObject({
      ok: false,
      code: "invalid",
      errors: { branches: ["You can only send to your own branch."] },
    });
    const customer = await sendBroadcast(
      branchUser,
      await input({ type: "REGISTRANTS", registrants: [theirs.id], text: "x" }),
    );
    expect(customer).toMatchObject({ ok: false, errors: { registrants: ["Please choose customers from the list."] } });
    // Head office does not see the branch's broadcast in another branch's history; the branch sees its own.
    const otherUser: ScopedActor = { ...branchUser, scope: { branchId: other } };
    expect(getBroadcast(otherUser.scope, all.id)).toBeNull();
    expect(listBroadcasts(branchUser.scope, parseTableParams(new URLSearchParams())).data.map((b) => b.id)).toContain(
      all.id,
    );
    expect(searchBroadcastRegistrants(branchUser.scope, theirs.phone)).toEqual([]);
    expect(searchBroadcastRegistrants(headOffice.scope, theirs.phone).map((o) => o.value)).toEqual([theirs.id]);
  });

  it("nobody to send to is refused under the type's field; an unknown branch under branches", async () => {
    const empty = makeBranch().id;
    expect(
      await sendBroadcast(headOffice, await input({ type: "BRANCH", branches: [empty], text: "x" })),
    ).toMatchObject({
      ok: false,
      errors: { branches: ["There is no valid mobile number to send to."] },
    });
    expect(
      await sendBroadcast(headOffice, await input({ type: "BRANCH", branches: [999999], text: "x" })),
    ).toMatchObject({
      ok: false,
      errors: { branches: ["Please choose branches from the list."] },
    });
    expect(db.select({ n: count() }).from(B).get()?.n).toBe(0);
  });

  it("reads each source through its phone index, in phone order (no table or branch re-read per chunk)", () => {
    const audience = (over: Partial<Audience>): Audience => ({
      type: "ALL",
      branches: [],
      registrants: [],
      mobiles: [],
      scopeBranchId: null,
      cutoff: new Date().toISOString(),
      ...over,
    });
    for (const a of [audience({}), audience({ type: "BRANCH", branches: [1, 2] }), audience({ scopeBranchId: 1 })]) {
      const [reg, pre] = audiencePlans(a);
      expect(reg, a.type).toMatch(
        /^SEARCH registrations USING (COVERING )?INDEX registrations_phone_idx \(phone>\?\)$/,
      );
      expect(pre, a.type).toMatch(
        /^SEARCH preregistrations USING INDEX preregistrations_phone_unique \(campaign=\? AND phone>\?\)$/,
      );
    }
    // Chosen customers: by id.
    expect(audiencePlans(audience({ type: "REGISTRANTS", registrants: [1, 2] }))[0]).toMatch(
      /USING INTEGER PRIMARY KEY/,
    );
  });
});

describe("sending", () => {
  it("writes the broadcast and its audit row (who, type, text, counts) together, then stores one message per number", async () => {
    const actor: ScopedActor = {
      id: null,
      email: "sender@example.test",
      address: "10.1.1.1",
      scope: { branchId: null },
    };
    const sent = await sendBroadcast(
      actor,
      await input({ type: "MOBILE", mobiles: "9841100001,9841100002", text: "Sale" }),
    );
    expect(sent.ok).toBe(true);
    if (!sent.ok) return;
    const row = db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "sms.broadcast"), eq(auditLog.entity_id, String(sent.broadcast.id))))
      .get()!;
    expect(row.user_email).toBe("sender@example.test");
    expect(JSON.parse(row.changes)).toMatchObject({
      type: { after: "MOBILE" },
      text: { after: "Sale" },
      recipients: { after: 2 },
    });
    await prepareBroadcast(sent.broadcast.id);
    expect(messagesOf(sent.broadcast.id).map((m) => [m.to, m.purpose, m.priority, m.status])).toEqual([
      ["9841100001", "broadcast", 2, "queued"],
      ["9841100002", "broadcast", 2, "queued"],
    ]);
  });

  it("a failing audit row undoes the broadcast: nothing is stored", async () => {
    db.$client.exec(
      `CREATE TEMP TRIGGER audit_refuses BEFORE INSERT ON audit_log WHEN new.action = 'sms.broadcast' BEGIN SELECT RAISE(ABORT, 'audit refused'); END`,
    );
    try {
      await expect(
        sendBroadcast(headOffice, await input({ type: "MOBILE", mobiles: "9841100009", text: "x" })),
      ).rejects.toThrow(/audit refused/);
    } finally {
      db.$client.exec(`DROP TRIGGER temp.audit_refuses`);
    }
    expect(db.select({ n: count() }).from(B).get()?.n).toBe(0);
  });

  it("carries on after a stop: chunks in phone order from the cursor, each number once", async () => {
    const mobiles = Array.from({ length: 1000 }, (_, i) => String(9842000000 + i * 7));
    const sent = await sendBroadcast(
      headOffice,
      await input({ type: "MOBILE", mobiles: mobiles.join(","), text: "Go" }),
    );
    if (!sent.ok) throw new Error(sent.message);
    // The background preparation was started by sendBroadcast; wait for it, then pretend it had stopped early.
    await prepareBroadcast(sent.broadcast.id);
    db.delete(M).where(eq(M.broadcast_id, sent.broadcast.id)).run();
    db.update(B)
      .set({ prepared_at: null, stored: 0, cursor: "", total: 1000 })
      .where(eq(B.id, sent.broadcast.id))
      .run();

    expect(await storeNextChunk(sent.broadcast.id, 300)).toBe(true);
    expect(await storeNextChunk(sent.broadcast.id, 300)).toBe(true);
    const mid = db.select().from(B).where(eq(B.id, sent.broadcast.id)).get()!;
    expect(mid).toMatchObject({ stored: 600, cursor: [...mobiles].sort()[599] });
    // A restart: the broadcast is found unprepared and carried on.
    expect(resumeBroadcasts()).toBe(1);
    await prepareBroadcast(sent.broadcast.id);
    const done = getBroadcast(headOffice.scope, sent.broadcast.id)!;
    expect(done).toMatchObject({ total: 1000, stored: 1000, queued: 1000, status: "sending" });
    expect(done.prepared_at).toBeTruthy();
    const phones = messagesOf(sent.broadcast.id).map((m) => m.to);
    expect(phones).toEqual([...mobiles].sort());
  });

  it("stores a chunk only once another process lets go of the write lock, the event loop turning meanwhile", async () => {
    const mobiles = Array.from({ length: 300 }, (_, i) => String(9842100000 + i));
    const sent = await sendBroadcast(
      headOffice,
      await input({ type: "MOBILE", mobiles: mobiles.join(","), text: "Wait" }),
    );
    if (!sent.ok) throw new Error(sent.message);
    await prepareBroadcast(sent.broadcast.id);
    db.delete(M).where(eq(M.broadcast_id, sent.broadcast.id)).run();
    db.update(B).set({ prepared_at: null, stored: 0, cursor: "", total: 300 }).where(eq(B.id, sent.broadcast.id)).run();
    // Another process holds the write lock (a second connection to the same file).
    const other = new Database(databasePath());
    other.prepare("BEGIN IMMEDIATE").run();
    let turns = 0;
    const ticker = setInterval(() => turns++, 5);
    const chunk = storeNextChunk(sent.broadcast.id, 100);
    await new Promise((resolve) => setTimeout(resolve, 150));
    // Asleep in SQLite's busy handler, the loop would not have turned at all.
    expect(turns).toBeGreaterThan(5);
    other.prepare("COMMIT").run();
    other.close();
    expect(await chunk).toBe(true);
    clearInterval(ticker);
    expect(messagesOf(sent.broadcast.id)).toHaveLength(100);
  });

  it("counts move as messages end; the failed ones are sent again and the broadcast ends done", async () => {
    const view = await sendAndStore(headOffice, {
      type: "MOBILE",
      mobiles: "9843000001,9843000002,9843000003",
      text: "Counts",
    });
    let calls = 0;
    const flaky: SmsProvider = {
      name: "outbox",
      async send(to) {
        calls++;
        return to === "9843000002"
          ? { ok: false, reply: "", error: "refused", permanent: true }
          : { ok: true, reply: "ok" };
      },
    };
    expect(await sendQueued(10, flaky)).toEqual({ sent: 2, failed: 1, retried: 0 });
    expect(getBroadcast(headOffice.scope, view.id)).toMatchObject({ sent: 2, failed: 1, queued: 0, status: "done" });
    const failed = listRecipients(headOffice.scope, view.id, parseTableParams(new URLSearchParams()), {
      status: "failed",
    });
    expect(failed.ok && failed.table.data.map((r) => r.to)).toEqual(["9843000002"]);

    const again = await retryFailedMessages(headOffice, view.id);
    expect(again).toEqual({ ok: true, requeued: 1 });
    expect(getBroadcast(headOffice.scope, view.id)).toMatchObject({ sent: 2, failed: 0, queued: 1, status: "sending" });
    const ok: SmsProvider = { name: "outbox", send: async () => ({ ok: true, reply: "ok" }) };
    expect(await sendQueued(10, ok)).toEqual({ sent: 1, failed: 0, retried: 0 });
    expect(getBroadcast(headOffice.scope, view.id)).toMatchObject({ sent: 3, failed: 0, status: "done" });
    expect(calls).toBe(3);
    expect(await retryFailedMessages(headOffice, view.id)).toMatchObject({ ok: false, message: NO_FAILED_MESSAGES });
    const audits = db.select().from(auditLog).where(eq(auditLog.action, "sms.broadcast_retry")).all();
    expect(audits.some((a) => a.entity_id === String(view.id))).toBe(true);
  });
});

describe("a typed list of many numbers", () => {
  /** Pages in the database's write-ahead log now. */
  const logFrames = () => {
    const [r] = db.$client.pragma("wal_checkpoint(PASSIVE)") as { log: number }[];
    return r.log;
  };

  it("is kept apart from the broadcast's counters: a message sent writes a few pages, not the list again", async () => {
    const mobiles = Array.from({ length: 20_000 }, (_, i) => String(9845000000 + i));
    const view = await sendAndStore(headOffice, { type: "MOBILE", mobiles: mobiles.join(","), text: "Many" });
    expect(view).toMatchObject({ mobiles: 20_000, total: 20_000, stored: 20_000 });
    const ok: SmsProvider = { name: "outbox", send: async () => ({ ok: true, reply: "ok" }) };
    db.$client.pragma("wal_checkpoint(TRUNCATE)");
    expect(logFrames()).toBe(0);
    expect(await sendQueued(1, ok)).toEqual({ sent: 1, failed: 0, retried: 0 });
    expect(getBroadcast(headOffice.scope, view.id)).toMatchObject({ sent: 1, queued: 19_999 });
    // The list is 260 KB (64 pages): claiming and ending one message, with the broadcast's counters
    // moved, stays well under that.
    expect(logFrames()).toBeLessThan(32);
  });
});

describe("the preview", () => {
  let server: http.Server;
  let base = "";
  let answer: { status: number; body: string; delayMs?: number } = { status: 200, body: "" };
  const paths: string[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      paths.push(req.url ?? "");
      const send = () => res.writeHead(answer.status, { "content-type": "application/json" }).end(answer.body);
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const useGateway = () => {
    process.env.SMS_PROVIDER = "http";
    process.env.SMS_GATEWAY_URL = `${base}/v2/sms/`;
    process.env.SMS_GATEWAY_TOKEN = "tok-9";
  };

  it("shows recipients, characters and SMS parts of an English and a Nepali text, and the gateway's credit", async () => {
    useGateway();
    answer = {
      status: 200,
      body: JSON.stringify({ credits_available: 4321, credits_consumed: 10, response_code: 200 }),
    };
    const english = await previewBroadcast(
      headOffice,
      await input({ type: "MOBILE", mobiles: "9844000001,9844000002,9844000001", text: "a".repeat(161) }),
    );
    expect(english).toMatchObject({
      ok: true,
      preview: {
        recipients: 2,
        duplicates: 1,
        sms: { encoding: "GSM-7", characters: 161, parts: 2 },
        total_parts: 4,
        credit: { provider: "http", known: true, value: 4321 },
      },
    });
    expect(paths.at(-1)).toBe("/v2/credit/?token=tok-9");
    const nepali = await previewBroadcast(
      headOffice,
      await input({
        type: "MOBILE",
        mobiles: "9844000001",
        text: "नमस्ते! थ्रिल योजनामा तपाईंलाई स्वागत छ। आजै शोरुममा आउनुहोस्, नयाँ बाइक चलाउनुहोस्।",
      }),
    );
    expect(nepali.ok && nepali.preview.sms).toMatchObject({ encoding: "UCS-2", parts: 2, perPart: 67 });
  });

  it("the credit is unknown when the gateway fails, is slow, or is not the provider", async () => {
    answer = { status: 200, body: "{}" };
    expect(await gatewayCredit()).toMatchObject({ known: false });
    useGateway();
    answer = { status: 500, body: "oops" };
    expect(await gatewayCredit()).toEqual({ known: false, reason: "the gateway answered HTTP 500" });
    answer = { status: 403, body: JSON.stringify({ response_code: 1002, response: "Invalid Token" }) };
    expect(await gatewayCredit()).toEqual({ known: false, reason: "the gateway answered HTTP 403" });
    answer = { status: 200, body: JSON.stringify({ response_code: 1002, response: "Invalid Token" }) };
    expect(await gatewayCredit()).toEqual({ known: false, reason: "the gateway says: invalid token" });
    answer = { status: 200, body: "not json" };
    expect(await gatewayCredit()).toMatchObject({ known: false, reason: "the gateway's answer could not be read" });
    answer = { status: 200, body: "{}", delayMs: 500 };
    expect(await gatewayCredit({ timeoutMs: 100 })).toMatchObject({
      known: false,
      reason: expect.stringMatching(/within/),
    });
    const preview = await previewBroadcast(
      headOffice,
      await input({ type: "MOBILE", mobiles: "9844000001", text: "x" }),
    );
    expect(preview.ok && preview.preview.credit).toMatchObject({
      known: false,
      value: null,
      reason: "the gateway's answer has no credit",
    });
  });

  it("the credit address: SMS_GATEWAY_CREDIT_URL, else the send address's sms segment as credit", () => {
    process.env.SMS_GATEWAY_URL = "https://api.sparrowsms.com/v2/sms/";
    expect(gatewayCreditUrl()).toBe("https://api.sparrowsms.com/v2/credit/");
    process.env.SMS_GATEWAY_URL = "https://gateway.example/send";
    expect(gatewayCreditUrl()).toBe("");
    process.env.SMS_GATEWAY_CREDIT_URL = "https://gateway.example/balance";
    expect(gatewayCreditUrl()).toBe("https://gateway.example/balance");
  });
});

describe("a typed list's numbers, each once, in order", () => {
  it("sorts valid mobiles as numbers to the same order as text, and anything else as text", async () => {
    // Distinct numbers in no order, then some of them again.
    const shuffled = Array.from({ length: 5000 }, (_, i) => String(9_600_000_000 + ((i * 7919) % 5000) * 97));
    // Neighbours that differ in their last digit only, in no order.
    const neighbours = ["9841000019", "9841000011", "9841000010", "9841000018", "9841000011"];
    const typed = [...shuffled, ...shuffled.slice(100, 900), "9999999999", "9000000000", ...neighbours];
    const expected = [...new Set(typed)].sort();
    expect(await distinctSorted(typed)).toEqual(expected);
    expect(await distinctSorted(typed)).toHaveLength(5006);
    // Not all valid mobiles: sorted as text, still each once.
    expect(await distinctSorted(["9812345678", "01234", "9812345678", "98"])).toEqual(["01234", "98", "9812345678"]);
    expect(await distinctSorted([])).toEqual([]);
  });
});
