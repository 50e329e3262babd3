// A broadcast to 100,000 seeded numbers through the HTTP gateway provider, pointed at a local fake gateway:
// accepted at once (its messages stored afterwards in chunks), every number sent
// once, numbers the gateway refused sent again by "send the failed ones again". The workers run at a high rate
// here; its times are measured by `npm run bench` against the goals, never asserted here.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { prepareBroadcast, retryFailedMessages, sendBroadcast } from "~/models/broadcast.server";
import { getBroadcast } from "~/models/broadcast-read.server";
import type { ScopedActor } from "~/models/scope.server";
import { httpGatewayProvider } from "~/models/sms-provider.server";
import { startSmsWorker } from "~/models/sms-worker.server";
import { broadcastSchema } from "~/schemas/broadcast";
import { startFakeGateway, type FakeGateway } from "../fake-sms-gateway";

const N = 100_000;
const BASE = 9_700_000_000;
const actor: ScopedActor = { id: null, email: "ho@example.test", address: null, scope: { branchId: null } };

/** The fake gateway: counts each number it took; refuses numbers ending in 13 while `refusing`. */
let refusing = true;
let gateway: FakeGateway;
let url = "";

beforeAll(async () => {
  gateway = await startFakeGateway({ refuse: (to) => refusing && to.endsWith("13") });
  url = gateway.url;
  process.env.SMS_PROVIDER = "http";
  process.env.SMS_GATEWAY_URL = url;
  process.env.SMS_GATEWAY_TOKEN = "scale-token";
  // This test's own database: each commit need not wait for the disk (the rules under test are the same).
  db.$client.pragma("synchronous = NORMAL");

  // 100,000 verified pre-registrations, plus registrations sharing some of their numbers and stored numbers
  // that are not valid mobiles: ALL reaches each valid number once.
  const branch = db
    .insert(schema.branches)
    .values({ slug: "scale-branch", title: "Scale", state: "Bagmati", district: "Kathmandu", city: "Kathmandu" })
    .returning()
    .get();
  const insert = db.$client.prepare(
    `insert into preregistrations (slug, name, address, phone, citizenship_no, is_verified, verified_at, status, branch_id)
     values (?, 'Scale Person', 'Kathmandu', ?, ?, 1, '2026-01-01T00:00:00.000Z', 'verified', ?)`,
  );
  db.$client.transaction(() => {
    for (let i = 0; i < N; i++) insert.run(`scale-${i}`, String(BASE + i), String(i), branch.id);
    for (let i = 0; i < 7; i++) insert.run(`scale-bad-${i}`, `12345${i}`, `b${i}`, branch.id);
  })();
}, 300_000);

afterAll(async () => {
  await gateway.close();
  delete process.env.SMS_PROVIDER;
});

async function sendAll(broadcastId: number, workers = 8) {
  const provider = httpGatewayProvider({ url, token: "scale-token", timeoutMs: 10_000 });
  const stops = Array.from({ length: workers }, (_, i) =>
    startSmsWorker({ ratePerSecond: 100_000, intervalMs: 50, provider: () => provider, slot: `scale-${i}` }),
  );
  try {
    for (;;) {
      const b = getBroadcast(actor.scope, broadcastId)!;
      if (b.status === "done") return b;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await Promise.all(stops.map((stop) => stop()));
  }
}

describe("a broadcast to 100,000 numbers", () => {
  it("is accepted at once, stored in chunks, each number sent once; the refused ones sent again", async () => {
    const sent = await sendBroadcast(
      actor,
      await broadcastSchema.parseAsync({ type: "ALL", text: "Big sale this weekend!" }),
    );
    if (!sent.ok) throw new Error(sent.message);
    // Accepted before anything is counted: the recipients are counted as their messages are stored.
    expect(sent.broadcast).toMatchObject({ status: "preparing", counting: true });

    await prepareBroadcast(sent.broadcast.id);
    const prepared = getBroadcast(actor.scope, sent.broadcast.id)!;
    expect(prepared).toMatchObject({ total: N, stored: N, skipped: 7, counting: false });
    const counted = db.$client
      .prepare(`select count(*) n, count(distinct "to") d from sms_messages where broadcast_id = ?`)
      .get(sent.broadcast.id);
    expect(counted).toEqual({ n: N, d: N });

    const first = await sendAll(sent.broadcast.id);
    const refusedNumbers = N / 100;
    expect(first).toMatchObject({ total: N, sent: N - refusedNumbers, failed: refusedNumbers, status: "done" });
    expect(gateway.refused()).toBe(refusedNumbers);
    expect(gateway.taken.size).toBe(N - refusedNumbers);
    expect([...gateway.taken.values()].every((n) => n === 1)).toBe(true);

    // "Send the failed ones again": the gateway takes them now.
    refusing = false;
    const again = await retryFailedMessages(actor, sent.broadcast.id);
    expect(again).toEqual({ ok: true, requeued: refusedNumbers });
    const done = await sendAll(sent.broadcast.id);
    expect(done).toMatchObject({ total: N, sent: N, failed: 0, queued: 0, status: "done" });
    expect(gateway.taken.size).toBe(N);
    expect([...gateway.taken.values()].every((n) => n === 1)).toBe(true);
    const statuses = db.$client
      .prepare(`select status, count(*) n from sms_messages where broadcast_id = ? group by status`)
      .all(sent.broadcast.id);
    expect(statuses).toEqual([{ status: "sent", n: N }]);
    expect(
      db.select().from(schema.smsBroadcasts).where(eq(schema.smsBroadcasts.id, sent.broadcast.id)).get()?.prepared_at,
    ).toBeTruthy();

    // How long this takes and how the event loop fares meanwhile are measured by `npm run bench`
    // ("SMS broadcast, 100,000 typed numbers", "Server event-loop delay meanwhile"), not asserted here.
  }, 900_000);
});
