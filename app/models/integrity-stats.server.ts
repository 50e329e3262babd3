/**
 * The integrity desk's statistical reasons (decision 21), recomputed over the whole campaign:
 * - improbable-wins: for each staff user and each branch, the pool prizes its draws won against the
 *   chance each draw had (1 - Π(1 - p/100) over the pools it faced, as its record lists them): the
 *   exact Poisson-binomial tail P(S ≥ wins);
 * - poaching: for each branch, the registrations it made of entries that named another showroom,
 *   reached by its counter search and registered there within `poachingDays` of the grant, against
 *   the rate of the other branches: the exact binomial tail.
 * Every subject's tail goes through one Holm procedure at RULES.alpha, so the chance that any honest
 * subject among all those tested is flagged is at most 0.001 (the decision's threshold).
 */
import { eq, inArray, sql } from "drizzle-orm";
import { db, schema, type Executor } from "@db/index";
import { binomialTail, chernoffTailBound, holm, poissonBinomialTail } from "~/utils/tail-probability";
import {
  formatP,
  registrationEvidence,
  RULES,
  strengthOfP,
  type EvidenceRow,
  type Finding,
  type RegistrationRow,
} from "./integrity-findings";
import { REGISTRATION_COLUMNS } from "./integrity-write.server";
import { chunks } from "./integrity-scan.server";

const { registrations: R, users: U, branches: B, preregistrations: P } = schema;

/** A draw's chance of a pool prize, from its record's pools (in order; the first win takes). */
export function poolChance(poolsJson: string): number {
  let miss = 1;
  for (const m of poolsJson.matchAll(/"probability":\s*([0-9.eE+-]+)/g)) miss *= 1 - Math.min(100, Number(m[1])) / 100;
  return 1 - miss;
}

type Tested = {
  subjectType: "user" | "branch";
  id: number;
  /** The chances its draws had, each with how many draws had it. */
  chances: Map<number, number>;
  draws: number;
  wins: number;
  p: number;
};

/** The tail of one subject, exact when a cheap bound cannot already tell it is far above any threshold. */
function tailOf(t: Tested): number {
  const ps = [...t.chances.keys()];
  if (chernoffTailBound(ps, t.wins, [...t.chances.values()]) > RULES.alpha) return 1;
  return poissonBinomialTail(
    ps.flatMap((p) => new Array<number>(t.chances.get(p)!).fill(p)),
    t.wins,
  );
}

/**
 * Every staff user's and branch's draws, counted by chance, in one read of the draws; who made a
 * draw's entry (the registration's or the pre-registration's staff user) is read first from the
 * makers' indexes, and a draw's chance from its pools once per distinct record of them.
 */
function improbableTests(): Tested[] {
  const c = db.$client;
  const makers = (table: "registrations" | "preregistrations") => {
    const out = new Map<number, number>();
    const rows = c.prepare(`select id, created_by from ${table} where created_by is not null`).raw().iterate();
    for (const [id, by] of rows as Iterable<[number, number]>) out.set(id, by);
    return out;
  };
  const madeBy = { registration: makers("registrations"), preregistration: makers("preregistrations") };
  const subjects = { user: new Map<number, Tested>(), branch: new Map<number, Tested>() };
  const add = (subjectType: "user" | "branch", id: number | null, chance: number, win: number) => {
    if (id === null) return;
    let t = subjects[subjectType].get(id);
    if (!t) subjects[subjectType].set(id, (t = { subjectType, id, chances: new Map(), draws: 0, wins: 0, p: 1 }));
    t.chances.set(chance, (t.chances.get(chance) ?? 0) + 1);
    t.draws++;
    t.wins += win;
  };
  const chanceOf = new Map<string, number>();
  const rows = c
    .prepare("select pools, outcome = 'pool', branch_id, entry_type, entry_id from draws")
    .raw()
    .iterate() as Iterable<[string, number, number | null, "registration" | "preregistration", number]>;
  for (const [pools, win, branchId, type, entryId] of rows) {
    let chance = chanceOf.get(pools);
    if (chance === undefined) chanceOf.set(pools, (chance = poolChance(pools)));
    add("user", madeBy[type]?.get(entryId) ?? null, chance, win);
    add("branch", branchId, chance, win);
  }
  const tested = [...subjects.user.values(), ...subjects.branch.values()];
  for (const t of tested) t.p = t.wins === 0 ? 1 : tailOf(t);
  return tested;
}

/** A flagged subject's winning draws (its entries' prizes), in the order they were drawn. */
function winningOf(exec: Executor, t: Tested): { entry_type: string; entry_id: number; amount: number }[] {
  if (t.subjectType === "branch")
    return exec.all(sql`select entry_type, entry_id, amount from draws
      where branch_id = ${t.id} and outcome = 'pool' order by id`);
  // CROSS JOIN keeps SQLite's order: the user's own entries first (by their created_by index), then each one's
  // draw; left to choose, it read every draw of the campaign through the draws' entry index (3.6 s at ten
  // times the bench's data, 0.02 s this way).
  return exec.all(sql`select entry_type, entry_id, amount from (
      select d.id, d.entry_type, d.entry_id, d.amount from registrations r
        cross join draws d on d.entry_type = 'registration' and d.entry_id = r.id
      where r.created_by = ${t.id} and d.outcome = 'pool'
      union all
      select d.id, d.entry_type, d.entry_id, d.amount from preregistrations p
        cross join draws d on d.entry_type = 'preregistration' and d.entry_id = p.id
      where p.created_by = ${t.id} and d.outcome = 'pool'
    ) order by id`);
}

type PoachTest = {
  subjectType: "branch";
  id: number;
  n: number;
  k: number;
  rate: number;
  p: number;
  poached: number[];
};

/**
 * The registrations of entries that named another showroom (nearest_branch_id) and were reached at this
 * branch's counter (a grant) at most `poachingDays` before their registration here.
 */
function poachingTests(exec: Executor): PoachTest[] {
  const days = RULES.poachingDays;
  // A branch's registrations whose entries named a showroom: all of its live ones (its index) but
  // those of entries that named none.
  const counted = new Map<number, number>();
  const tally = (rows: { branch_id: number; n: number }[], sign: number) => {
    for (const r of rows) counted.set(r.branch_id, (counted.get(r.branch_id) ?? 0) + sign * r.n);
  };
  tally(exec.all(sql`select branch_id, count(*) as n from registrations group by branch_id`), 1);
  tally(
    exec.all(sql`select branch_id, count(*) as n from registrations where deleted_at is not null group by branch_id`),
    -1,
  );
  tally(
    exec.all(sql`select r.branch_id, count(*) as n from preregistrations p
      join registrations r on r.preregistration_id = p.id
      where p.nearest_branch_id is null and r.deleted_at is null group by r.branch_id`),
    -1,
  );
  // The poached ones start from the counter searches' grants (few), one grant a branch and entry.
  const poachedRows = exec.all<{ branch_id: number; id: number }>(sql`
    select r.branch_id, r.id from preregistration_grants g
      join registrations r on r.preregistration_id = g.preregistration_id and r.branch_id = g.branch_id
      join preregistrations p on p.id = r.preregistration_id
    where r.deleted_at is null and p.nearest_branch_id is not null and p.nearest_branch_id <> r.branch_id
      and g.created_at <= r.created_at and julianday(r.created_at) - julianday(g.created_at) <= ${days}
    order by r.id`);
  const byBranch = new Map<number, { n: number; poached: number[] }>();
  let total = 0;
  for (const [branch, n] of counted) {
    if (n <= 0) continue;
    byBranch.set(branch, { n, poached: [] });
    total += n;
  }
  for (const r of poachedRows) byBranch.get(r.branch_id)?.poached.push(r.id);
  const totalPoached = poachedRows.length;
  return [...byBranch].map(([id, b]) => {
    // The other branches' rate (so the branch tested does not set its own bar), never below one case in the network.
    const others = total - b.n;
    const rate = Math.max((totalPoached - b.poached.length) / Math.max(1, others), 1 / Math.max(1, total));
    const k = b.poached.length;
    return {
      subjectType: "branch" as const,
      id,
      n: b.n,
      k,
      rate,
      p: k === 0 ? 1 : binomialTail(b.n, rate, k),
      poached: b.poached,
    };
  });
}

const rowsOf = (exec: Executor, ids: number[]): RegistrationRow[] =>
  [...chunks(ids, 500)].flatMap((c) => exec.select(REGISTRATION_COLUMNS).from(R).where(inArray(R.id, c)).all());

/** The registrations (and entries) of winning draws, and the entries whose prizes a flag holds. */
function winningRows(exec: Executor, winning: ReturnType<typeof winningOf>) {
  const regIds = winning.filter((w) => w.entry_type === "registration").map((w) => w.entry_id);
  const preIds = winning.filter((w) => w.entry_type === "preregistration").map((w) => w.entry_id);
  const regs = rowsOf(exec, regIds);
  const pres = [...chunks(preIds, 500)].flatMap((c) =>
    exec
      .select({ id: P.id, slug: P.slug, name: P.name, phone: P.phone, created_at: P.created_at })
      .from(P)
      .where(inArray(P.id, c))
      .all(),
  );
  const amount = new Map(winning.map((w) => [`${w.entry_type} ${w.entry_id}`, w.amount]));
  const rows: EvidenceRow[] = [
    ...regs.map((r) => registrationEvidence(r, `won Rs ${amount.get(`registration ${r.id}`) ?? "?"}`)),
    ...pres.map((p) => ({
      kind: "entry" as const,
      slug: p.slug,
      label: `${p.name} · ${p.phone}`,
      at: p.created_at,
      detail: `won Rs ${amount.get(`preregistration ${p.id}`) ?? "?"}`,
    })),
  ];
  // The entries in the order of their draws (winningOf's), so the newest are last.
  const entryOf = new Map(regs.map((r) => [r.id, r.preregistration_id]));
  const entries = winning.map((w) => (w.entry_type === "registration" ? entryOf.get(w.entry_id) : w.entry_id));
  return { rows, entries: entries.filter((id): id is number => id !== undefined) };
}

function subjectOf(exec: Executor, type: "user" | "branch", id: number) {
  if (type === "user") {
    const u = exec.select({ slug: U.slug, name: U.name, branch_id: U.branch_id }).from(U).where(eq(U.id, id)).get();
    return { label: u?.name ?? `user ${id}`, slug: u?.slug ?? null, branchId: u?.branch_id ?? null };
  }
  const b = exec.select({ slug: B.slug, title: B.title }).from(B).where(eq(B.id, id)).get();
  return { label: b?.title ?? `branch ${id}`, slug: b?.slug ?? null, branchId: id };
}

/** improbable-wins and poaching findings, every subject tested at once under Holm's procedure. */
export function scanStatistics(exec: Executor): Finding[] {
  const wins = improbableTests();
  const poaching = poachingTests(exec);
  const rejected = holm([...wins.map((t) => t.p), ...poaching.map((t) => t.p)], RULES.alpha);
  const out: Finding[] = [];
  wins.forEach((t, i) => {
    if (!rejected[i]) return;
    const subject = subjectOf(exec, t.subjectType, t.id);
    const expected = [...t.chances].reduce((sum, [p, n]) => sum + p * n, 0);
    const { rows, entries } = winningRows(exec, winningOf(exec, t));
    out.push({
      reason: "improbable-wins",
      subjectType: t.subjectType,
      subjectKey: String(t.id),
      branchId: subject.branchId,
      userId: t.subjectType === "user" ? t.id : null,
      strength: strengthOfP(t.p),
      evidence: {
        subject: { label: subject.label, kind: t.subjectType, slug: subject.slug },
        summary: `${t.wins} pool prizes in ${t.draws} draws where ${expected.toFixed(1)} were likely (P = ${formatP(t.p)})`,
        figures: [
          { label: "Draws", value: String(t.draws) },
          { label: "Pool prizes won", value: String(t.wins) },
          { label: "Expected", value: expected.toFixed(2) },
          { label: "Tail probability", value: `${formatP(t.p)} (Poisson-binomial, exact)` },
          { label: "Threshold", value: `${RULES.alpha} over ${rejected.length} subjects (Holm)` },
        ],
        rows: rows.slice(0, RULES.maxRows),
        ...(rows.length > RULES.maxRows ? { more: rows.length - RULES.maxRows } : {}),
      },
      // Past the most a flag holds, the newest: their prizes are the ones not yet printed or sent.
      entries: [...new Set(entries)].slice(-RULES.maxEntries),
    });
  });
  poaching.forEach((t, j) => {
    if (!rejected[wins.length + j]) return;
    const subject = subjectOf(exec, "branch", t.id);
    const regs = rowsOf(exec, t.poached);
    out.push({
      reason: "poaching",
      subjectType: "branch",
      subjectKey: String(t.id),
      branchId: t.id,
      userId: null,
      strength: strengthOfP(t.p),
      evidence: {
        subject: { label: subject.label, kind: "branch", slug: subject.slug },
        summary: `${t.k} of ${t.n} registrations were other showrooms' entries found at the counter and registered within ${RULES.poachingDays} days, where ${(t.rate * t.n).toFixed(1)} were likely (P = ${formatP(t.p)})`,
        figures: [
          { label: "Registrations", value: String(t.n) },
          { label: "Taken from other showrooms", value: String(t.k) },
          { label: "Other branches' rate", value: `${(t.rate * 100).toFixed(2)}%` },
          { label: "Tail probability", value: `${formatP(t.p)} (binomial, exact)` },
        ],
        rows: regs
          .slice(0, RULES.maxRows)
          .map((r) => registrationEvidence(r, "named another showroom; found by a counter search")),
        ...(regs.length > RULES.maxRows ? { more: regs.length - RULES.maxRows } : {}),
      },
      // Past the most a flag holds, the newest: their prizes are the ones not yet printed or sent.
      entries: regs.map((r) => r.preregistration_id).slice(-RULES.maxEntries),
    });
  });
  return out;
}
