/**
 * The integrity desk's full recompute of the rules that read the whole campaign (decision 21): every
 * reason's findings made again from the rows, set-wise, read outside any write so the public write
 * never waits on it. The write path (integrity-write.server.ts) raises the same findings for one row
 * as it is written; the statistical reasons (improbable-wins, poaching) are integrity-stats.server.ts.
 * Raising is idempotent (integrity-flags.server.ts): a finding already flagged is not flagged twice.
 */
import { and, eq, inArray, isNotNull, sql, type SQL } from "drizzle-orm";
import { db, schema, type Executor } from "@db/index";
import { hammingWords, hashBands, hashWords } from "~/utils/image-hash.server";
import {
  addressBurst,
  outsideHours,
  phoneRun,
  rapidRegistrations,
  remadeEntry,
  RULES,
  sharedCitizenship,
  sharedScreenshot,
  sharedVehicle,
  type EntryRow,
  type Finding,
  type RegistrationRow,
} from "./integrity-findings";
import {
  citizenshipGroup,
  ENTRY_COLUMNS,
  kathmanduTime,
  outside,
  REGISTRATION_COLUMNS,
  showroomHours,
  vehicleTwins,
} from "./integrity-write.server";

const { preregistrations: P, registrations: R, entryAddresses: A, files: F, users: U } = schema;

const MINUTE = 60_000;
const ms = (iso: string) => Date.parse(iso);

/** shared-citizenship: every citizenship number behind two phones or more, entries and registrations together. */
export function scanSharedCitizenship(exec: Executor): Finding[] {
  const numbers = exec.all<{ no: string }>(sql`
    select no from (
      select citizenship_no as no, phone from preregistrations
      union
      select citizenship_no as no, phone from registrations
    ) group by no having count(distinct phone) > 1`);
  const out: Finding[] = [];
  for (const { no } of numbers) {
    const group = citizenshipGroup(exec, no);
    const found = sharedCitizenship(no, group.entries, group.registrations);
    if (found) out.push(found);
  }
  return out;
}

/** shared-vehicle: every engine, chassis, vehicle or branch bill number in two registrations, deleted ones counted. */
export function scanSharedVehicles(exec: Executor): Finding[] {
  const latest = new Set<number>();
  for (const key of [sql`engine_no`, sql`chasis_no`, sql`registration_no`, sql`branch_id, bill_no`]) {
    const rows = exec.all<{ id: number }>(
      sql`select max(id) as id from registrations group by ${key} having count(*) > 1`,
    );
    for (const r of rows) latest.add(r.id);
  }
  const out: Finding[] = [];
  for (const chunk of chunks([...latest], 500)) {
    for (const r of exec.select(REGISTRATION_COLUMNS).from(R).where(inArray(R.id, chunk)).all()) {
      // The latest of a group is its subject; an older one sharing another number with a newer one is its twin there.
      const twins = vehicleTwins(exec, r).filter((t) => t.id < r.id);
      const found = twins.length ? sharedVehicle(r, twins) : null;
      if (found) out.push(found);
    }
  }
  return out;
}

/** remade-entry: every entry made after a deleted one of the same phone or citizenship number. */
export function scanRemadeEntries(exec: Executor): Finding[] {
  const deleted = exec.select(ENTRY_COLUMNS).from(P).where(isNotNull(P.deleted_at)).all();
  const byEntry = new Map<number, { entry: EntryRow; deleted: EntryRow[] }>();
  for (const d of deleted) {
    // Each number on its own index (an OR of the two would read the whole table).
    const after = (cond: SQL) =>
      exec
        .select(ENTRY_COLUMNS)
        .from(P)
        .where(and(cond, sql`${P.id} <> ${d.id}`, sql`${P.created_at} >= ${d.created_at}`))
        .limit(RULES.maxRows)
        .all();
    const seen = new Set<number>();
    const samePhone = and(eq(P.campaign, d.campaign), eq(P.phone, d.phone))!;
    const later = [...after(samePhone), ...after(eq(P.citizenship_no, d.citizenship_no))].filter(
      (e) => !seen.has(e.id) && seen.add(e.id),
    );
    for (const e of later) {
      const slot = byEntry.get(e.id) ?? { entry: e, deleted: [] };
      slot.deleted.push(d);
      byEntry.set(e.id, slot);
    }
  }
  return [...byEntry.values()].flatMap(({ entry, deleted }) => remadeEntry(entry, deleted) ?? []);
}

/** Rows sorted by time cut into clusters: each row within `minutes` of a window of `least` rows that holds it. */
function denseRuns<T>(rows: T[], at: (r: T) => number, minutes: number, least: number): T[][] {
  const span = minutes * MINUTE;
  const inBurst = new Array<boolean>(rows.length).fill(false);
  let lo = 0;
  for (let hi = 0; hi < rows.length; hi++) {
    while (at(rows[hi]) - at(rows[lo]) > span) lo++;
    if (hi - lo + 1 >= least) for (let i = lo; i <= hi; i++) inBurst[i] = true;
  }
  const runs: T[][] = [];
  let run: T[] = [];
  for (let i = 0; i < rows.length; i++) {
    if (inBurst[i] && run.length && at(rows[i]) - at(run[run.length - 1]) <= span) run.push(rows[i]);
    else {
      if (run.length >= least) runs.push(run);
      run = inBurst[i] ? [rows[i]] : [];
    }
  }
  if (run.length >= least) runs.push(run);
  return runs;
}

/** address-burst: every range with `burst.entries` pre-registrations or more within `burst.minutes`. */
export function scanAddressBursts(exec: Executor): Finding[] {
  const busy = exec.all<{ range: string }>(
    sql`select range from entry_addresses group by range having count(*) >= ${RULES.burst.entries}`,
  );
  const out: Finding[] = [];
  for (const { range } of busy) {
    const rows = exec
      .select({ ...ENTRY_COLUMNS, address: A.address })
      .from(A)
      .innerJoin(P, eq(P.id, A.preregistration_id))
      .where(eq(A.range, range))
      .orderBy(A.created_at)
      .all();
    for (const run of denseRuns(rows, (r) => ms(r.created_at), RULES.burst.minutes, RULES.burst.entries)) {
      const found = addressBurst(range, run);
      if (found) out.push(found);
    }
  }
  return out;
}

/**
 * phone-run: the entries in phone order cut where two neighbours differ by more than `phoneRun.step`;
 * each cut of `phoneRun.entries` or more is then cut by time (made within `phoneRun.minutes`), and cut
 * again by phone, until what is left is a run both ways.
 */
export function scanPhoneRuns(exec: Executor): Finding[] {
  const { entries: least, step, minutes } = RULES.phoneRun;
  type Slim = { id: number; phone: string; at: number };
  const byPhone = (list: Slim[]) => {
    const out: Slim[][] = [];
    let run: Slim[] = [];
    for (const r of list) {
      if (run.length && Number(r.phone) - Number(run[run.length - 1].phone) > step) {
        if (run.length >= least) out.push(run);
        run = [];
      }
      run.push(r);
    }
    if (run.length >= least) out.push(run);
    return out;
  };
  const byTime = (list: Slim[]) => {
    const sorted = [...list].sort((a, b) => a.at - b.at);
    const out: Slim[][] = [];
    let run: Slim[] = [];
    for (const r of sorted) {
      if (run.length && r.at - run[0].at > minutes * MINUTE) {
        if (run.length >= least) out.push(run);
        run = [];
      }
      run.push(r);
    }
    if (run.length >= least) out.push(run);
    return out;
  };
  const runs: Slim[][] = [];
  const settle = (candidate: Slim[]) => {
    let pending = [candidate];
    for (let round = 0; pending.length && round < 4; round++) {
      const next: Slim[][] = [];
      for (const run of pending)
        for (const timed of byTime(run)) {
          const phoned = byPhone([...timed].sort((a, b) => Number(a.phone) - Number(b.phone)));
          if (phoned.length === 1 && phoned[0].length === timed.length) runs.push(timed);
          else next.push(...phoned);
        }
      pending = next;
    }
  };
  // Streamed in phone order (every phone is ten digits: text order is number order), one run kept at a time.
  let run: Slim[] = [];
  const rows = db.$client.prepare("select id, phone, created_at from preregistrations order by phone").raw().iterate();
  for (const [id, phone, created] of rows as Iterable<[number, string, string]>) {
    if (run.length && Number(phone) - Number(run[run.length - 1].phone) > step) {
      if (run.length >= least) settle(run);
      run = [];
    }
    run.push({ id, phone, at: ms(created) });
  }
  if (run.length >= least) settle(run);
  return runs.flatMap((r) => {
    const full = exec
      .select(ENTRY_COLUMNS)
      .from(P)
      .where(
        inArray(
          P.id,
          r.map((x) => x.id),
        ),
      )
      .all();
    return phoneRun(full) ?? [];
  });
}

/**
 * shared-screenshot: entries' screenshots by their 256-bit hashes, compared within the buckets of
 * their sixteen 16-bit rows (two copies share a row: image-hash.server.ts); a bucket so common it
 * says nothing (a blank band) is left out. Screenshots within the rule's bits are one group.
 */
export function scanSharedScreenshots(exec: Executor): Finding[] {
  const rows = exec
    .select({ ...ENTRY_COLUMNS, dhash: F.dhash, dhash256: F.dhash256 })
    .from(P)
    .innerJoin(F, eq(F.id, P.screenshot_id))
    .where(isNotNull(F.dhash256))
    .all();
  const words = rows.map((r) => hashWords(r.dhash256!));
  const parent = rows.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  const buckets = new Map<number, number[]>();
  rows.forEach((r, i) =>
    hashBands(r.dhash256!).forEach((band, b) => {
      const key = b * 65_536 + band;
      const list = buckets.get(key);
      if (list) list.push(i);
      else buckets.set(key, [i]);
    }),
  );
  const COMMON = 200;
  for (const list of buckets.values()) {
    if (list.length < 2 || list.length > COMMON) continue;
    for (let x = 0; x < list.length; x++)
      for (let y = x + 1; y < list.length; y++) {
        const [i, j] = [list[x], list[y]];
        if (find(i) !== find(j) && hammingWords(words[i], words[j]) <= RULES.screenshotBits) parent[find(j)] = find(i);
      }
  }
  const groups = new Map<number, number[]>();
  rows.forEach((_, i) => {
    if (parent[i] === i) return;
    const root = find(i);
    const group = groups.get(root);
    if (group) group.push(i);
    else groups.set(root, [root, i]);
  });
  const out: Finding[] = [];
  for (const all of groups.values()) {
    const first = all.reduce((a, b) => (rows[b].id < rows[a].id ? b : a));
    const found = sharedScreenshot(
      all.map((i) => ({ ...rows[i], dhash: rows[i].dhash ?? "", bits: hammingWords(words[i], words[first]) })),
    );
    if (found) out.push(found);
  }
  return out;
}

/** off-hours: every registration made outside the showrooms' hours, and every staff user's quick runs of them. */
export function scanOffHours(exec: Executor): Finding[] {
  const hours = showroomHours();
  const rows = exec.select(REGISTRATION_COLUMNS).from(R).orderBy(R.created_by, R.created_at).all();
  const out: Finding[] = [];
  for (const r of rows) {
    const at = kathmanduTime(r.created_at);
    if (outside(at, hours)) out.push(outsideHours(r, at, hours));
  }
  const byUser = new Map<number, RegistrationRow[]>();
  for (const r of rows) {
    if (r.created_by === null) continue;
    const list = byUser.get(r.created_by);
    if (list) list.push(r);
    else byUser.set(r.created_by, [r]);
  }
  const staff = new Map(
    exec
      .select({ id: U.id, slug: U.slug, name: U.name })
      .from(U)
      .all()
      .map((u) => [u.id, u]),
  );
  for (const [userId, list] of byUser) {
    const user = staff.get(userId);
    if (!user) continue;
    for (const run of denseRuns(list, (r) => ms(r.created_at), RULES.rapid.minutes, RULES.rapid.registrations)) {
      const found = rapidRegistrations(user, run);
      if (found) out.push(found);
    }
  }
  return out;
}

export function* chunks<T>(items: T[], size: number): Generator<T[]> {
  for (let at = 0; at < items.length; at += size) yield items.slice(at, at + size);
}
