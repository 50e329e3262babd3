/**
 * The beacon client against local beacons (drand's HTTP API on 127.0.0.1): a round is fetched once
 * and shared by every draw waiting on it; a signature that does not verify against the configured
 * key is refused; with no beacon reachable a draw uses the house seed at once (within a second, as
 * `npm start` on a machine without internet), marked and counted on /fair-draws, head office's
 * panel and /healthz, and draws stop waiting on the beacon until it answers again.
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { beaconStatus, material, probeBeacon, resetBeacon } from "~/models/beacon.server";
import { listDays } from "~/models/fair-draw.server";
import { fallbackCounts, houseDrawsToday } from "~/models/fair-observers.server";
import { drawSecondThrill, fixSecondThrill, settleDraw } from "~/models/prize-draw.server";
import { SLICE_MS } from "~/utils/run-queue.server";
import { loader as healthz } from "~/routes/healthz";
import { kathmanduDate } from "~/utils/time";
import { startLocalBeacon } from "../../scripts/local-beacon.mjs";
import { makePreregistration } from "../fixtures";
import { TEST_BEACON } from "../setup/global-setup";

const saved = { ...process.env };
const restore = () => {
  for (const key of Object.keys(process.env)) if (key.startsWith("BEACON")) delete process.env[key];
  for (const [key, value] of Object.entries(saved)) if (key.startsWith("BEACON")) process.env[key] = value;
  resetBeacon();
};
afterEach(restore);
const beacons: { close: () => Promise<void> }[] = [];
afterAll(async () => {
  for (const b of beacons) await b.close();
});

async function useBeacon(options: Parameters<typeof startLocalBeacon>[0] = {}) {
  const beacon = await startLocalBeacon({ ...TEST_BEACON, ...options });
  beacons.push(beacon);
  Object.assign(process.env, beacon.settings);
  resetBeacon();
  return beacon;
}

describe("a round", () => {
  it("is fetched once and shared by every draw waiting on it, its signature checked", async () => {
    const beacon = await useBeacon();
    const round = beacon.chain.latestRound() + 1;
    const before = beacon.counts.public;
    const got = await Promise.all(Array.from({ length: 50 }, () => material(round)));
    expect(got.every((m) => m === got[0])).toBe(true);
    expect(got[0]).toMatchObject({ source: "beacon", round, signature: beacon.chain.sign(round).signature });
    // One fetch (a second only when the round was asked for a moment before the beacon had it).
    expect(beacon.counts.public - before).toBeLessThanOrEqual(2);
    expect(Date.now()).toBeGreaterThanOrEqual(beacon.chain.roundTimeMs(round));
  });

  it("whose signature does not verify with the configured key gives way to the house seed", async () => {
    const beacon = await useBeacon();
    const forger = await startLocalBeacon({ ...TEST_BEACON, secret: "22".repeat(32) });
    beacons.push(forger);
    // The relay serves another key's rounds under the configured chain's hash.
    process.env.BEACON_URLS = forger.url;
    process.env.BEACON_CHAIN_HASH = forger.chain.info.hash;
    const m = await material(beacon.chain.latestRound());
    expect(m).toMatchObject({ source: "house", reason: "beacon unreachable" });
    expect(beaconStatus()).toMatchObject({ up: false, lastError: expect.stringMatching(/does not verify/) });
  });
});

describe("the requests a round decides", () => {
  it("go on a slice of the event loop a turn, so the server reads its sockets between their answers", async () => {
    await useBeacon();
    const ids = Array.from({ length: 24 }, () => makePreregistration({ is_verified: true }).id);
    // Fixed at one instant: one round decides them all.
    const at = new Date();
    db.transaction((tx) => ids.forEach((id) => fixSecondThrill(tx, id, at)));
    // A turn counter: one step per turn of the loop while the draws wait.
    let turn = 0;
    let counting = true;
    const tick = () => {
      turn++;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    const turns: number[] = [];
    // Each request's answer (its render) takes a little over a third of a slice.
    const render = () => {
      turns.push(turn);
      const end = performance.now() + SLICE_MS / 3 + 1;
      while (performance.now() < end);
    };
    await Promise.all(ids.map((id) => settleDraw("preregistration", id).then(render)));
    counting = false;
    const rounds = db
      .select()
      .from(schema.drawRecords)
      .all()
      .slice(-ids.length)
      .map((r) => JSON.parse(r.text).round);
    expect(new Set(rounds).size).toBe(1);
    // Three renders fill a slice: neither all in one piece nor one per turn.
    const perTurn = [...new Set(turns)].map((t) => turns.filter((u) => u === t).length);
    expect(Math.max(...perTurn)).toBeLessThanOrEqual(3);
    expect(perTurn.length).toBeLessThanOrEqual(12);
  });
});

describe("without a beacon", () => {
  it("a draw uses the house seed within a second, marked and counted, and /healthz alerts", async () => {
    process.env.BEACON_URLS = "http://127.0.0.1:9"; // nothing listens: refused at once
    resetBeacon();
    await probeBeacon(); // as every server process does at start
    expect(beaconStatus().up).toBe(false);
    const houseBefore = houseDrawsToday();
    const t0 = performance.now();
    const draw = await drawSecondThrill(makePreregistration({ is_verified: true }).id);
    expect(performance.now() - t0).toBeLessThan(1000);
    const record = db.select().from(schema.drawRecords).all().at(-1)!;
    expect(JSON.parse(record.text)).toMatchObject({
      kind: "draw",
      source: "house",
      reason: "beacon unreachable",
      signature: null,
      prize: { amount: draw.amount },
    });
    const today = kathmanduDate();
    expect(listDays().find((d) => d.date === today)?.house).toBeGreaterThanOrEqual(1);
    expect(fallbackCounts().find((d) => d.date === today)?.house).toBeGreaterThanOrEqual(1);
    const health = await (await healthz()).json();
    expect(health.beacon).toMatchObject({ configured: true, up: false, houseDrawsToday: houseBefore + 1 });
    expect(health.alerts.join(" ")).toMatch(/beacon unreachable since/);

    // A second draw does not wait either: the beacon is known down.
    const t1 = performance.now();
    await drawSecondThrill(makePreregistration({ is_verified: true }).id);
    expect(performance.now() - t1).toBeLessThan(1000);
    // Counted again from the records appended since the last count.
    expect(houseDrawsToday()).toBe(houseBefore + 2);
  });

  it("once it answers again, draws wait for it again", async () => {
    process.env.BEACON_URLS = "http://127.0.0.1:9";
    resetBeacon();
    await probeBeacon();
    expect(beaconStatus().up).toBe(false);
    const beacon = await startLocalBeacon(TEST_BEACON);
    beacons.push(beacon);
    process.env.BEACON_URLS = beacon.url;
    await probeBeacon();
    expect(beaconStatus().up).toBe(true);
    const draw = await drawSecondThrill(makePreregistration({ is_verified: true }).id);
    const record = db.select().from(schema.drawRecords).all().at(-1)!;
    expect(JSON.parse(record.text)).toMatchObject({ source: "beacon", prize: { amount: draw.amount } });
  });
});
