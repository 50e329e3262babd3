/**
 * Both checkers (scripts/verify-draws.mjs in JavaScript, scripts/verify_draws.py in Python with the
 * standard library, written from the spec) on a campaign of three days drawn against the local
 * beacon, with an entry fixed before a midnight and drawn after it and a draw made with the house
 * seed while the beacon was down: both pass it, both agree on each day, and both fail every change
 * a file can show (each written again as its forger would), naming where. The spec's test vectors
 * (docs/draw-test-vectors.json) hold for both.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { resetBeacon } from "~/models/beacon.server";
import { campaignFile, publishedDay } from "~/models/fair-draw.server";
import { drawSecondThrill, drawThirdThrill, fixSecondThrill, settleDraw } from "~/models/prize-draw.server";
import { setClock } from "~/utils/time";
import { randomnessOf, rollBits, roundAfter, verifyCampaign, type DayFile } from "../../scripts/fair-draws-core.mjs";
import { signatureVerifies } from "../../scripts/fair-draws-bls.mjs";
import { makeChain } from "../../scripts/local-beacon.mjs";
import { movingClock } from "../clock";
import { clone, recordsOf, redrawFrom, rewrite, type Bundle, type Rec } from "../fair-tamper";
import { makeBranch, makePreregistration } from "../fixtures";
import { makeRegistration } from "../referral-fixtures";
import { TEST_BEACON } from "../setup/global-setup";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fair-checkers-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const run = promisify(execFile);
const NODE_CHECKER = fileURLToPath(new URL("../../scripts/verify-draws.mjs", import.meta.url));
const PY_CHECKER = fileURLToPath(new URL("../../scripts/verify_draws.py", import.meta.url));

const DAYS = ["2026-07-01", "2026-07-02", "2026-07-03"];
const AFTER = new Date("2026-07-05T06:00:00.000Z");
const kathmandu = (local: string) => new Date(Date.parse(`${local}+05:45`)).toISOString();

let bundle: Bundle;
const chain = makeChain(TEST_BEACON);

async function drawDay(date: string, branchId: number) {
  setClock(movingClock(kathmandu(`${date}T11:00:00.000`)));
  try {
    const pre = Array.from({ length: 8 }, (_, i) =>
      makePreregistration({ is_verified: true, branch_id: i % 2 ? branchId : null }),
    );
    const regs = Array.from({ length: 3 }, () => makeRegistration(branchId, { status: "confirmed" }));
    await Promise.all([...pre.map((p) => drawSecondThrill(p.id)), ...regs.map((r) => drawThirdThrill(r.id))]);
  } finally {
    setClock(null);
  }
}

beforeAll(async () => {
  const branch = makeBranch();
  for (const date of DAYS) {
    for (const [type, branchId, amount, count, probability] of [
      ["preregistration_public", null, 50000, 1, 20],
      ["preregistration_public", null, 10000, 3, 40],
      ["preregistration_branch", branch.id, 8000, 2, 50],
      ["registration_branch", branch.id, 5000, 2, 60],
    ] as const) {
      db.insert(schema.allocations).values({ type, branch_id: branchId, date, amount, count, probability }).run();
    }
  }
  await drawDay(DAYS[0], branch.id);
  await drawDay(DAYS[1], branch.id);
  // An entry fixed in the last moment of the second day, drawn after midnight; the third day's
  // first entry fixed before that draw is made.
  const late = makePreregistration({ is_verified: true });
  const early = makePreregistration({ is_verified: true });
  setClock(movingClock(kathmandu(`${DAYS[1]}T23:59:59.700`)));
  db.transaction((tx) => fixSecondThrill(tx, late.id), { behavior: "immediate" });
  setClock(movingClock(kathmandu(`${DAYS[2]}T00:00:00.100`)));
  db.transaction((tx) => fixSecondThrill(tx, early.id), { behavior: "immediate" });
  await Promise.all([settleDraw("preregistration", late.id), settleDraw("preregistration", early.id)]);
  setClock(null);
  await drawDay(DAYS[2], branch.id);
  // The beacon down: a draw with the house seed, marked.
  const urls = process.env.BEACON_URLS;
  process.env.BEACON_URLS = "http://127.0.0.1:9";
  resetBeacon();
  setClock(movingClock(kathmandu(`${DAYS[2]}T15:00:00.000`)));
  try {
    await drawSecondThrill(makePreregistration({ is_verified: true }).id);
  } finally {
    setClock(null);
    process.env.BEACON_URLS = urls;
    resetBeacon();
  }
  const list = campaignFile(AFTER);
  bundle = {
    campaign: { days: list.days.filter((d) => DAYS.includes(d.date)) },
    days: DAYS.map((d) => publishedDay(d, AFTER)! as unknown as DayFile),
  };
}, 120_000);

const write = (name: string, value: unknown) => {
  const file = path.join(dir, `${name}.json`);
  fs.writeFileSync(file, JSON.stringify(value));
  return file;
};

async function python(file: string, pin?: string) {
  return run("python3", [PY_CHECKER, file, ...(pin ? ["--pin", pin] : [])]).then(
    (r) => ({ code: 0, out: r.stdout }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
  );
}

async function node(args: string[]) {
  return run(process.execPath, [NODE_CHECKER, ...args]).then(
    (r) => ({ code: 0, out: r.stdout }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
  );
}

describe("the campaign as drawn", () => {
  it("has a straggler across midnight and a house-seed draw, and both checkers pass it", async () => {
    const all = recordsOf(bundle);
    const straggler = all.find(
      (r) => r.kind === "draw" && r.date === DAYS[1] && r.time > kathmandu(`${DAYS[2]}T00:00:00.000`),
    );
    expect(straggler).toBeDefined();
    expect(bundle.days[2].records.some((x) => JSON.parse(x.text).seq === straggler!.seq)).toBe(true);
    const house = all.filter((r) => r.kind === "draw" && r.source === "house");
    expect(house).toHaveLength(1);
    expect(house[0].reason).toBe("beacon unreachable");
    expect(bundle.campaign.days.find((d) => d.date === DAYS[2])).toMatchObject({ house: 1, closed: true });

    const js = await verifyCampaign(bundle.campaign, bundle.days, { signatures: signatureVerifies });
    expect(js).toMatchObject({ ok: true });
    const file = write("campaign", bundle);
    const cli = await node([file]);
    expect(cli).toMatchObject({ code: 0 });
    expect(cli.out).toContain("All 3 days check");
    const py = await python(file);
    expect(py).toMatchObject({ code: 0 });
    // The two agree on every day, word for word in their counts.
    for (const day of bundle.days) {
      const line = (out: string) =>
        out
          .split("\n")
          .find((l) => l.startsWith(day.date))
          ?.match(/all \d+ draws of \d+ entries/)?.[0];
      expect(line(py.out)).toBe(line(cli.out));
      expect(line(py.out)).toBeTruthy();
    }
    const days = write("days", bundle.days[0]);
    expect(await python(days)).toMatchObject({ code: 0 });
    expect(await node([days])).toMatchObject({ code: 0 });
  });
});

// ---------------------------------------------------------------- the changes a file can show

type Case = { bundle: Bundle; pin?: Bundle["campaign"]; signaturesOnly?: boolean };

const own = (records: Rec[], kind: string, date = DAYS[1]) => records.filter((r) => r.kind === kind && r.date === date);
/** A draw of the day that won a pool and has a later draw of the same pools, for the stock cases. */
const drawWith = (records: Rec[], test: (r: Rec) => boolean) => own(records, "draw").find(test)!;

const CASES: Record<string, () => Promise<Case>> = {
  "a pool's amount changed in one draw": async () => {
    const records = recordsOf(bundle);
    drawWith(records, (r) => r.pools.length > 0).pools[0].amount += 1000;
    return { bundle: rewrite(bundle, records) };
  },
  "a pool's stock raised in one draw": async () => {
    const records = recordsOf(bundle);
    drawWith(records, (r) => r.pools.length > 0).pools[0].count += 1;
    return { bundle: rewrite(bundle, records) };
  },
  "a pool's probability raised in one draw": async () => {
    const records = recordsOf(bundle);
    drawWith(records, (r) => r.pools.length > 0).pools[0].probability = 100;
    return { bundle: rewrite(bundle, records) };
  },
  "a pool added in the middle of a day": async () => {
    const records = recordsOf(bundle);
    const r = own(records, "draw")[3];
    r.pools.unshift({ id: 999, amount: 60000, count: 1, paid: 0, probability: 100 });
    r.prize = { amount: 60000, outcome: "pool", pool: 999 };
    return { bundle: rewrite(bundle, records) };
  },
  "a pool missing from a draw": async () => {
    const records = recordsOf(bundle);
    drawWith(records, (r) => r.pools.length > 1).pools.pop();
    return { bundle: rewrite(bundle, records) };
  },
  "a pool added to a day's terms (the day remade)": async () => {
    const b = clone(bundle);
    const terms = JSON.parse(b.days[1].terms);
    terms.pools.push({
      id: 999,
      type: "preregistration_public",
      branch: null,
      amount: 60000,
      count: 1,
      probability: 0,
    });
    return { bundle: rewrite(b, recordsOf(b), { terms: new Map([[DAYS[1], terms]]) }), pin: bundle.campaign };
  },
  "a draw inserted": async () => {
    const records = recordsOf(bundle);
    const r = own(records, "draw")[2];
    records.splice(records.indexOf(r) + 1, 0, clone(r));
    return { bundle: rewrite(bundle, records) };
  },
  "a draw in the middle deleted": async () => {
    const records = recordsOf(bundle);
    records.splice(records.indexOf(own(records, "draw")[2]), 1);
    return { bundle: rewrite(bundle, records) };
  },
  "two draws swapped": async () => {
    const records = recordsOf(bundle);
    const [a, b] = own(records, "draw").slice(2, 4);
    const i = records.indexOf(a);
    const j = records.indexOf(b);
    [records[i], records[j]] = [records[j], records[i]];
    return { bundle: rewrite(bundle, records) };
  },
  "the last draws cut, the head updated (against the published list)": async () => {
    const b = clone(bundle);
    const records = recordsOf(b).filter((r) => r.seq < recordsOf(b).at(-1)!.seq - 1);
    const cut = rewrite(b, records);
    cut.campaign = bundle.campaign;
    return { bundle: cut };
  },
  "the last draws cut and the list rewritten (against a pinned campaign file)": async () => {
    const records = recordsOf(bundle);
    return { bundle: rewrite(bundle, records.slice(0, -2)), pin: bundle.campaign };
  },
  "the head absent": async () => {
    const b = clone(bundle);
    b.days[1].head = null;
    b.campaign.days[1].head = null;
    return { bundle: b };
  },
  "an entry's time moved outside its day": async () => {
    const records = recordsOf(bundle);
    const e = own(records, "entry")[0];
    e.time = kathmandu(`${DAYS[0]}T23:00:00.000`);
    return { bundle: rewrite(bundle, records) };
  },
  "two records' times out of order": async () => {
    const records = recordsOf(bundle);
    const [a, b] = own(records, "entry").slice(1, 3);
    [a.time, b.time] = [b.time, a.time];
    b.time = a.time > b.time ? b.time : new Date(Date.parse(a.time) - 1000).toISOString();
    return { bundle: rewrite(bundle, records) };
  },
  "a beacon round published before the entry was fixed": async () => {
    // The forger names the round before the right one (already public when the entry was fixed),
    // with its real signature, and rolls again from its randomness.
    const records = recordsOf(bundle);
    const e = own(records, "entry")[0];
    const d = own(records, "draw").find((r) => r.entry === e.seq)!;
    const earlier = roundAfter(chain.info, Date.parse(e.time)) - 2;
    e.beacon_round = d.beacon_round = earlier;
    d.signature = chain.sign(earlier).signature;
    return { bundle: await redrawFrom(bundle, records, e.seq) };
  },
  "a signature that does not verify": async () => {
    // Another key's signature of the right round, and rolls made again from it: only the BLS step can tell.
    const records = recordsOf(bundle);
    const d = own(records, "draw").find((r) => r.source === "beacon")!;
    d.signature = makeChain({ ...TEST_BEACON, secret: "11".repeat(32) }).sign(d.beacon_round).signature;
    return { bundle: await redrawFrom(bundle, records, d.seq), signaturesOnly: true };
  },
  "a day missing from the campaign's list": async () => {
    const b = clone(bundle);
    b.campaign.days.splice(1, 1);
    b.days.splice(1, 1);
    return { bundle: b };
  },
  "a remade day (against the pinned file)": async () => {
    const b = clone(bundle);
    const terms = JSON.parse(b.days[0].terms);
    terms.house_commitment = "ab".repeat(32);
    b.days[0].house_seed = null;
    return { bundle: rewrite(b, recordsOf(b), { terms: new Map([[DAYS[0], terms]]) }), pin: bundle.campaign };
  },
  "a prize changed": async () => {
    const records = recordsOf(bundle);
    const r = own(records, "draw")[1];
    r.prize =
      r.prize.outcome === "pool" ? { amount: 4000, outcome: "fallback", pool: null } : { ...r.prize, amount: 99999 };
    return { bundle: rewrite(bundle, records) };
  },
  "a roll changed": async () => {
    const records = recordsOf(bundle);
    own(records, "draw")[4].rolls[0] = 1;
    return { bundle: rewrite(bundle, records) };
  },
};

describe("each change to the record", () => {
  for (const [name, make] of Object.entries(CASES)) {
    it(`fails both checkers: ${name}`, async () => {
      const c = await make();
      const js = await verifyCampaign(c.bundle.campaign, c.bundle.days, {
        signatures: signatureVerifies,
        pinned: c.pin ?? null,
      });
      expect(js.ok).toBe(false);
      const file = write(name.replace(/\W+/g, "-"), c.bundle);
      const pin = c.pin ? write(`${name.replace(/\W+/g, "-")}-pin`, { days: c.pin.days }) : undefined;
      const cli = await node([file, ...(pin ? ["--pin", pin] : [])]);
      expect(cli.code).toBe(1);
      const py = await python(file, pin);
      if (c.signaturesOnly) {
        // Python has no pairing: its documented BLS step is the Node checker's --signatures-only.
        expect(py.code, py.out).toBe(0);
        expect(await node(["--signatures-only", file])).toMatchObject({ code: 1 });
      } else {
        expect(py.code, py.out).toBe(1);
      }
    });
  }
});

describe("the spec's test vectors", () => {
  const vectors = JSON.parse(
    fs.readFileSync(fileURLToPath(new URL("../../docs/draw-test-vectors.json", import.meta.url)), "utf8"),
  );

  it("hold for the JavaScript checker's functions", async () => {
    for (const v of vectors.rolls) expect(await rollBits(v.key, v.entry_hash, v.k)).toBe(v.bits);
    for (const v of vectors.rounds) expect(roundAfter(vectors.chain, Date.parse(v.fixed_at))).toBe(v.round);
    for (const v of vectors.beacon) {
      expect(await randomnessOf(v.signature)).toBe(v.randomness);
      expect(await signatureVerifies(v.public_key, v.round, v.signature)).toBe(v.verifies);
    }
    const day = vectors.day as DayFile;
    expect(
      await verifyCampaign({ days: [{ date: day.date, terms_hash: day.terms_hash, head: day.head }] }, [day]),
    ).toMatchObject({ ok: true });
  });

  it("hold for the Python checker", async () => {
    const file = write("vector-day", vectors.day);
    expect(await python(file)).toMatchObject({ code: 0 });
    const script = `
import json, sys
sys.path.insert(0, ${JSON.stringify(path.dirname(PY_CHECKER))})
import verify_draws as v
vectors = json.load(open(${JSON.stringify(fileURLToPath(new URL("../../docs/draw-test-vectors.json", import.meta.url)))}))
for r in vectors["rolls"]:
    assert v.roll_bits(r["key"], r["entry_hash"], r["k"]) == r["bits"], r
for r in vectors["rounds"]:
    assert v.round_after(vectors["chain"], v.millis(r["fixed_at"])) == r["round"], r
for b in vectors["beacon"]:
    assert v.sha256_hex(bytes.fromhex(b["signature"])) == b["randomness"], b
print("ok")
`;
    expect((await run("python3", ["-c", script])).stdout.trim()).toBe("ok");
  });
});
