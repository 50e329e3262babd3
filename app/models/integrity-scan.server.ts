/**
 * The integrity desk's full recompute of the rules that read the whole campaign (decision 21): every
 * reason's findings made again from the rows, set-wise, read outside any write so the public write
 * never waits on it. The write path (integrity-write.server.ts) raises the same findings for one row
 * as it is written; the statistical reasons (improbable-wins, poaching) are integrity-stats.server.ts.
 * Raising is idempotent (integrity-flags.server.ts): a finding already flagged is not flagged twice.
 */
import { and, eq, gte, inArray, lte, sql } from "drizzle-orm";
import { db, schema, type Executor } from "@db/index";
import { hammingWords, hashWords } from "~/utils/image-hash.server";
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

/**
 * shared-citizenship: every citizenship number behind two phones or more, entries and registrations
 * together: a number whose entries' phones differ (read from its index alone), whose registrations'
 * phones differ, or a registration's phone its entries do not have.
 */
export function scanSharedCitizenship(exec: Executor): Finding[] {
  const numbers = exec.all<{ no: string }>(sql`
    select citizenship_no as no from preregistrations group by citizenship_no having min(phone) <> max(phone)
    union
    select citizenship_no from registrations group by citizenship_no having min(phone) <> max(phone)
    union
    select r.citizenship_no from registrations r
    where exists (select 1 from preregistrations p where p.citizenship_no = r.citizenship_no and p.phone <> r.phone)`);
  const out: Finding[] = [];
  for (const { no } of numbers) {
    const group = citizenshipGroup(exec, no);
    const found = sharedCitizenship(no, group.entries, group.registrations);
    if (found) out.push(found);
  }
  return out;
}

/**
 * shared-vehicle: every engine, chassis, vehicle or branch bill number in two registrations, deleted
 * ones counted. A live registration's numbers are unique among the live ones, so every such group
 * holds a deleted registration: the groups are read from the deleted rows' indexes and the live
 * rows' unique ones, never from the whole table.
 */
export function scanSharedVehicles(exec: Executor): Finding[] {
  const latest = new Set<number>();
  for (const key of ["engine_no", "chasis_no", "registration_no"]) {
    const rows = exec.all<{ id: number }>(
      sql.raw(`select max(id) as id from (
        select ${key} as k, id from registrations where deleted_at is not null
        union
        select d.${key}, r.id from registrations d join registrations r on r.${key} = d.${key} and r.deleted_at is null
        where d.deleted_at is not null
      ) group by k having count(*) > 1`),
    );
    for (const r of rows) latest.add(r.id);
  }
  const bills = exec.all<{ id: number }>(sql`select max(id) as id from (
      select branch_id as b, bill_no as k, id from registrations where deleted_at is not null
      union
      select d.branch_id, d.bill_no, r.id from registrations d
        join registrations r on r.branch_id = d.branch_id and r.bill_no = d.bill_no and r.deleted_at is null
      where d.deleted_at is not null
    ) group by b, k having count(*) > 1`);
  for (const r of bills) latest.add(r.id);
  const out: Finding[] = [];
  for (const chunk of chunks(
    [...latest].sort((a, b) => a - b),
    500,
  )) {
    for (const r of exec.select(REGISTRATION_COLUMNS).from(R).where(inArray(R.id, chunk)).all()) {
      // The latest of a group is its subject; an older one sharing another number with a newer one is its twin there.
      const twins = vehicleTwins(exec, r).filter((t) => t.id < r.id);
      const found = twins.length ? sharedVehicle(r, twins) : null;
      if (found) out.push(found);
    }
  }
  return out;
}

/** Entries by id, with the columns the rules read. */
function entriesById(exec: Executor, ids: number[]): Map<number, EntryRow> {
  const out = new Map<number, EntryRow>();
  for (const chunk of chunks([...new Set(ids)], 500))
    for (const e of exec.select(ENTRY_COLUMNS).from(P).where(inArray(P.id, chunk)).all()) out.set(e.id, e);
  return out;
}

/**
 * remade-entry: every entry made after a deleted one of the same phone or citizenship number, found in
 * one join from the deleted entries (their index) to their numbers' entries (each number on its own index).
 */
export function scanRemadeEntries(exec: Executor): Finding[] {
  const pairs = exec.all<{ deleted: number; entry: number }>(sql`
    select d.id as deleted, e.id as entry from preregistrations d
      join preregistrations e on e.campaign = d.campaign and e.phone = d.phone and e.id <> d.id and e.created_at >= d.created_at
    where d.deleted_at is not null
    union
    select d.id, e.id from preregistrations d
      join preregistrations e on e.citizenship_no = d.citizenship_no and e.id <> d.id and e.created_at >= d.created_at
    where d.deleted_at is not null`);
  // Sorted here: an ORDER BY on the union leads SQLite to read the whole table.
  pairs.sort((a, b) => a.entry - b.entry || a.deleted - b.deleted);
  const rows = entriesById(
    exec,
    pairs.flatMap((p) => [p.deleted, p.entry]),
  );
  const byEntry = new Map<number, EntryRow[]>();
  for (const p of pairs) {
    const list = byEntry.get(p.entry);
    if (list) list.push(rows.get(p.deleted)!);
    else byEntry.set(p.entry, [rows.get(p.deleted)!]);
  }
  return [...byEntry].flatMap(([id, deleted]) => remadeEntry(rows.get(id)!, deleted) ?? []);
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

/**
 * The windows where `least` rows of one key fall within `minutes`, as SQL finds them: each row whose
 * (least - 1)th predecessor of its key is that close (`windows` selects key, start and end). Windows
 * of one key closer than `minutes` are merged, so each merged span holds whole clusters.
 */
function spans(windows: { key: string | number; start: string; end: string }[], minutes: number) {
  const out: { key: string | number; from: string; to: string }[] = [];
  for (const w of windows) {
    const last = out[out.length - 1];
    if (last && last.key === w.key && ms(w.start) - ms(last.to) <= minutes * MINUTE) {
      if (w.end > last.to) last.to = w.end;
    } else out.push({ key: w.key, from: w.start, to: w.end });
  }
  return out;
}

/**
 * address-burst: every range with `burst.entries` pre-registrations or more within `burst.minutes`:
 * SQL finds the windows on the range's index (each entry whose predecessor `burst.entries - 1` back in
 * its range is that close), and only the entries around them are read.
 */
export function scanAddressBursts(exec: Executor): Finding[] {
  const { entries: least, minutes } = RULES.burst;
  const windows = exec.all<{ key: string; start: string; end: string }>(sql`
    select key, start, end from (
      select range as key, created_at as end,
        lag(created_at, ${least - 1}) over (partition by range order by created_at) as start
      from entry_addresses)
    where start is not null and (julianday(end) - julianday(start)) * 1440 <= ${minutes + 0.001}
    order by key, end`);
  const out: Finding[] = [];
  for (const { key, from, to } of spans(windows, minutes)) {
    const rows = exec
      .select({ ...ENTRY_COLUMNS, address: A.address })
      .from(A)
      .innerJoin(P, eq(P.id, A.preregistration_id))
      .where(and(eq(A.range, String(key)), gte(A.created_at, from), lte(A.created_at, to)))
      .orderBy(A.created_at)
      .all();
    for (const run of denseRuns(rows, (r) => ms(r.created_at), minutes, least)) {
      const found = addressBurst(String(key), run);
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
  // SQL finds the stretches of phone order that can hold a run (`least` phones within `step` of each
  // other in turn span at most (least - 1) * step), on the phone index alone (every phone is ten
  // digits: text order is number order); only the entries of those stretches are read, cut by phone
  // and settled as above.
  const windows = exec.all<{ campaign: string; from: string; to: string }>(sql`
    select campaign, phone as "from", ahead as "to" from (
      select campaign, phone, lead(phone, ${least - 1}) over (partition by campaign order by phone) as ahead
      from preregistrations)
    where ahead is not null and cast(ahead as integer) - cast(phone as integer) <= ${(least - 1) * step}
    order by campaign, phone`);
  const stretches: { campaign: string; from: string; to: string }[] = [];
  for (const w of windows) {
    const last = stretches[stretches.length - 1];
    if (last && last.campaign === w.campaign && Number(w.from) - Number(last.to) <= step) {
      if (w.to > last.to) last.to = w.to;
    } else stretches.push({ ...w });
  }
  const read = db.$client
    .prepare(
      "select id, phone, created_at from preregistrations where campaign = ? and phone between ? and ? order by phone",
    )
    .raw();
  for (const { campaign, from, to } of stretches) {
    const rows = (read.all(campaign, from, to) as [number, string, string][]).map(([id, phone, created]) => ({
      id,
      phone,
      at: ms(created),
    }));
    for (const run of byPhone(rows)) settle(run);
  }
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

/** A band bucket larger than this is searched by its screenshots that also share the next row. */
const COMMON = 32;

/**
 * shared-screenshot: entries' screenshots by their 256-bit hashes, compared within the buckets of
 * their sixteen 16-bit rows (two copies within 15 bits share a row: image-hash.server.ts). A bucket
 * of more than COMMON screenshots (a row common to many, as a post's layout makes it) is not compared
 * pair by pair: it is cut by the next row, so only screenshots sharing 32 bits are compared there,
 * and a cut still that common says nothing and is skipped. Each bucket is found by sorting (a
 * counting sort on the row's value), so the search grows with the screenshots, not their pairs.
 * Screenshots within the rule's bits are one group.
 */
export function scanSharedScreenshots(exec: Executor): Finding[] {
  const read = db.$client
    .prepare(
      `select p.id, f.dhash256 from preregistrations p join files f on f.id = p.screenshot_id
      where p.screenshot_id is not null and f.dhash256 is not null`,
    )
    .raw()
    .all() as [number, string][];
  const n = read.length;
  const WORDS = 8;
  const words = new Uint32Array(n * WORDS);
  const bands = new Uint16Array(n * 16);
  read.forEach(([, hex], i) => {
    const w = hashWords(hex);
    if (w.length !== WORDS) return;
    words.set(w, i * WORDS);
    for (let k = 0; k < WORDS; k++) {
      bands[i * 16 + 2 * k] = w[k] >>> 16;
      bands[i * 16 + 2 * k + 1] = w[k] & 0xffff;
    }
  });
  const parent = new Int32Array(n).map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  const limit = RULES.screenshotBits;
  const distance = (i: number, j: number) => {
    let d = 0;
    for (let k = 0; k < WORDS && d <= limit; k++) {
      let x = words[i * WORDS + k] ^ words[j * WORDS + k];
      x -= (x >>> 1) & 0x55555555;
      x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
      d += (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
    }
    return d;
  };
  const compare = (list: ArrayLike<number>, from: number, to: number) => {
    for (let x = from; x < to; x++) {
      const i = list[x];
      for (let y = x + 1; y < to; y++) {
        const j = list[y];
        if (distance(i, j) <= limit && find(i) !== find(j)) parent[find(j)] = find(i);
      }
    }
  };
  // Each row's buckets by a counting sort on its value: the screenshots in order and each value's start.
  const counts = new Uint32Array(65_537);
  for (let band = 0; band < 16; band++) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[bands[i * 16 + band] + 1]++;
    for (let v = 1; v <= 65_536; v++) counts[v] += counts[v - 1];
    const starts = counts.slice();
    const out = new Uint32Array(n);
    for (let i = 0; i < n; i++) out[counts[bands[i * 16 + band]]++] = i;
    for (let v = 0; v < 65_536; v++) {
      const [from, to] = [starts[v], starts[v + 1]];
      if (to - from < 2) continue;
      if (to - from <= COMMON) {
        compare(out, from, to);
        continue;
      }
      // The bucket's screenshots by their next row's value (value and index packed in one number).
      const next = (band + 1) % 16;
      const keyed = new Float64Array(to - from);
      for (let x = from; x < to; x++) keyed[x - from] = bands[out[x] * 16 + next] * 2 ** 32 + out[x];
      keyed.sort();
      const cut = keyed.map((k) => k % 2 ** 32);
      for (let a = 0, b = 1; a < cut.length; a = b++) {
        while (b < cut.length && Math.floor(keyed[b] / 2 ** 32) === Math.floor(keyed[a] / 2 ** 32)) b++;
        if (b - a >= 2 && b - a <= COMMON) compare(cut, a, b);
      }
    }
  }
  const groups = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    if (parent[i] === i && !groups.has(i)) continue;
    const root = find(i);
    const group = groups.get(root);
    if (group) {
      if (i !== root) group.push(i);
    } else groups.set(root, i === root ? [root] : [root, i]);
  }
  const rows = entriesById(
    exec,
    [...groups.values()].flat().map((i) => read[i][0]),
  );
  const files = new Map(
    [...chunks([...rows.keys()], 500)].flatMap((c) =>
      exec
        .select({ id: P.id, dhash: F.dhash })
        .from(P)
        .innerJoin(F, eq(F.id, P.screenshot_id))
        .where(inArray(P.id, c))
        .all()
        .map((r) => [r.id, r.dhash ?? ""] as const),
    ),
  );
  const out: Finding[] = [];
  for (const members of groups.values()) {
    const first = members.reduce((a, b) => (read[b][0] < read[a][0] ? b : a));
    const found = sharedScreenshot(
      members.map((i) => ({
        ...rows.get(read[i][0])!,
        dhash: files.get(read[i][0]) ?? "",
        bits: hammingWords(
          words.subarray(i * WORDS, i * WORDS + WORDS),
          words.subarray(first * WORDS, first * WORDS + WORDS),
        ),
      })),
    );
    if (found) out.push(found);
  }
  return out;
}

/**
 * off-hours: every registration made outside the showrooms' hours (SQL reads its Kathmandu time,
 * UTC+05:45), and every staff user's quick runs of them: SQL finds the windows on the maker's index
 * (each registration whose predecessor `rapid.registrations - 1` back by the same user is that
 * close), and only the registrations around them are read.
 */
export function scanOffHours(exec: Executor): Finding[] {
  const hours = showroomHours();
  const local = sql`strftime('%H:%M', ${R.created_at}, '+345 minutes')`;
  // The same rule as `outside` (opening and closing at the same minute: open all day), so SQL reads only those.
  const isOutside =
    hours.opens === hours.closes
      ? sql`0`
      : hours.opens < hours.closes
        ? sql`(${local} < ${hours.opens} or ${local} >= ${hours.closes})`
        : sql`(${local} < ${hours.opens} and ${local} >= ${hours.closes})`;
  const out: Finding[] = [];
  for (const r of exec.select(REGISTRATION_COLUMNS).from(R).where(isOutside).orderBy(R.id).all()) {
    const at = kathmanduTime(r.created_at);
    if (outside(at, hours)) out.push(outsideHours(r, at, hours));
  }
  const { registrations: least, minutes } = RULES.rapid;
  const windows = exec.all<{ key: number; start: string; end: string }>(sql`
    select key, start, end from (
      select created_by as key, created_at as end,
        lag(created_at, ${least - 1}) over (partition by created_by order by created_at) as start
      from registrations where created_by is not null)
    where start is not null and (julianday(end) - julianday(start)) * 1440 <= ${minutes + 0.001}
    order by key, end`);
  const staff = new Map<number, { id: number; slug: string; name: string }>();
  for (const { key, from, to } of spans(windows, minutes)) {
    const userId = Number(key);
    if (!staff.has(userId)) {
      const user = exec.select({ id: U.id, slug: U.slug, name: U.name }).from(U).where(eq(U.id, userId)).get();
      if (!user) continue;
      staff.set(userId, user);
    }
    const rows = exec
      .select(REGISTRATION_COLUMNS)
      .from(R)
      .where(and(eq(R.created_by, userId), gte(R.created_at, from), lte(R.created_at, to)))
      .orderBy(R.created_at)
      .all();
    for (const run of denseRuns(rows, (r) => ms(r.created_at), minutes, least)) {
      const found = rapidRegistrations(staff.get(userId)!, run);
      if (found) out.push(found);
    }
  }
  return out;
}

export function* chunks<T>(items: T[], size: number): Generator<T[]> {
  for (let at = 0; at < items.length; at += size) yield items.slice(at, at + size);
}
