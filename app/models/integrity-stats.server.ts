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
  chances: number[];
  wins: number;
  winning: { entry_type: string; entry_id: number; amount: number }[];
  p: number;
};

type DrawRow = {
  outcome: string;
  pools: string;
  amount: number;
  branch_id: number | null;
  user_id: number | null;
  entry_type: string;
  entry_id: number;
};

/** The draws with who made their entry (the registration's or the pre-registration's staff user), streamed. */
function* drawsWithMaker(): Generator<DrawRow> {
  const rows = db.$client
    .prepare(
      `select d.outcome, d.pools, d.amount, d.branch_id, d.entry_type, d.entry_id,
        case d.entry_type when 'registration' then r.created_by else p.created_by end as user_id
      from draws d
      left join registrations r on d.entry_type = 'registration' and r.id = d.entry_id
      left join preregistrations p on d.entry_type = 'preregistration' and p.id = d.entry_id`,
    )
    .iterate();
  yield* rows as Iterable<DrawRow>;
}

/** The tail of one subject, exact when a cheap bound cannot already tell it is far above any threshold. */
function tailOf(chances: number[], wins: number): number {
  if (chernoffTailBound(chances, wins) > RULES.alpha) return 1;
  return poissonBinomialTail(chances, wins);
}

function improbableTests(): Tested[] {
  const subjects = new Map<string, Tested>();
  const add = (subjectType: "user" | "branch", id: number | null, d: DrawRow, chance: number) => {
    if (id === null) return;
    const key = `${subjectType} ${id}`;
    let t = subjects.get(key);
    if (!t) subjects.set(key, (t = { subjectType, id, chances: [], wins: 0, winning: [], p: 1 }));
    t.chances.push(chance);
    if (d.outcome === "pool") {
      t.wins++;
      t.winning.push({ entry_type: d.entry_type, entry_id: d.entry_id, amount: d.amount });
    }
  };
  for (const d of drawsWithMaker()) {
    const chance = poolChance(d.pools);
    add("user", d.user_id, d, chance);
    add("branch", d.branch_id, d, chance);
  }
  const tested = [...subjects.values()];
  for (const t of tested) t.p = t.wins === 0 ? 1 : tailOf(t.chances, t.wins);
  return tested;
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
  const rows = exec.all<{ branch_id: number; id: number; poached: number }>(sql`
    select r.branch_id, r.id,
      (p.nearest_branch_id is not null and p.nearest_branch_id <> r.branch_id and exists (
        select 1 from preregistration_grants g
        where g.branch_id = r.branch_id and g.preregistration_id = p.id
          and g.created_at <= r.created_at
          and julianday(r.created_at) - julianday(g.created_at) <= ${days}
      )) as poached
    from registrations r join preregistrations p on p.id = r.preregistration_id
    where r.deleted_at is null and p.nearest_branch_id is not null`);
  const byBranch = new Map<number, { n: number; poached: number[] }>();
  let total = 0;
  let totalPoached = 0;
  for (const r of rows) {
    const b = byBranch.get(r.branch_id) ?? { n: 0, poached: [] };
    b.n++;
    if (r.poached) b.poached.push(r.id);
    byBranch.set(r.branch_id, b);
    total++;
    if (r.poached) totalPoached++;
  }
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
function winningRows(exec: Executor, winning: Tested["winning"]) {
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
  return { rows, entries: [...regs.map((r) => r.preregistration_id), ...preIds] };
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
    const expected = t.chances.reduce((a, b) => a + b, 0);
    const { rows, entries } = winningRows(exec, t.winning);
    out.push({
      reason: "improbable-wins",
      subjectType: t.subjectType,
      subjectKey: String(t.id),
      branchId: subject.branchId,
      userId: t.subjectType === "user" ? t.id : null,
      strength: strengthOfP(t.p),
      evidence: {
        subject: { label: subject.label, kind: t.subjectType, slug: subject.slug },
        summary: `${t.wins} pool prizes in ${t.chances.length} draws where ${expected.toFixed(1)} were likely (P = ${formatP(t.p)})`,
        figures: [
          { label: "Draws", value: String(t.chances.length) },
          { label: "Pool prizes won", value: String(t.wins) },
          { label: "Expected", value: expected.toFixed(2) },
          { label: "Tail probability", value: `${formatP(t.p)} (Poisson-binomial, exact)` },
          { label: "Threshold", value: `${RULES.alpha} over ${rejected.length} subjects (Holm)` },
        ],
        rows: rows.slice(0, RULES.maxRows),
        ...(rows.length > RULES.maxRows ? { more: rows.length - RULES.maxRows } : {}),
      },
      entries: [...new Set(entries)].slice(0, RULES.maxEntries),
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
      entries: regs.map((r) => r.preregistration_id).slice(0, RULES.maxEntries),
    });
  });
  return out;
}
