/**
 * The integrity bench's database (bench/integrity.ts), made by the planted-cheats campaign
 * (tests/integrity-campaign.ts) as a bulk load: into `<file>.part`, renamed when whole (a stopped run
 * leaves nothing a later one would take for made), with the rollback journal and no syncs, and
 * without the indexes of the tables it fills and the full-text triggers: each index is made again
 * once, from its own definition, over the loaded rows, and the full-text indexes rebuilt from theirs.
 * Kept as they were, some thirty B-trees (most of random keys: slugs, phones, references) took every
 * row, and the full-text tables were merged as they grew: x1 took 270 s, x10 more than an hour; made
 * once after, x1 takes about half a minute and x10 some six minutes of CPU. The schema made again is
 * checked against the migrations' before the file is kept.
 *
 * What the campaign planted is kept beside the database (`<file>.campaign.json`), so a run that reuses
 * the database judges the desk's flags against it too.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { db, openDatabase } from "../db/index";
import { plantCampaign, type Campaign, type Truth } from "../tests/integrity-campaign";

/** The tables the campaign fills in bulk. */
const BULK_TABLES = [
  "preregistrations",
  "registrations",
  "draws",
  "entry_addresses",
  "files",
  "preregistration_grants",
];
/** Kept through the load: the draws' no-replace trigger looks each new draw up in it. */
const KEPT_INDEXES = new Set(["draws_entry_unique"]);
/** The triggers that copy each new row into a full-text index (content tables: rebuilt from them after). */
const FTS = [
  { trigger: "preregistrations_fts_ai", index: "preregistrations_fts" },
  { trigger: "registrations_fts_ai", index: "registrations_fts" },
];

type SchemaRow = { type: string; name: string; tbl_name: string; sql: string | null };
const schemaOf = (c: ReturnType<typeof openDatabase>["$client"]) =>
  (
    c
      .prepare("select type, name, tbl_name, sql from sqlite_master where name not like 'sqlite_stat%'")
      .all() as SchemaRow[]
  )
    .map((r) => JSON.stringify([r.type, r.name, r.tbl_name, r.sql]))
    .sort();

/** The schema's differences from a database made by the migrations alone (none when it ends as they make it). */
function schemaDiff(c: ReturnType<typeof openDatabase>["$client"]): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "integrity-schema-"));
  const fresh = openDatabase(path.join(dir, "fresh.sqlite"));
  try {
    const want = schemaOf(fresh.$client);
    const have = schemaOf(c);
    return [
      ...want.filter((r) => !have.includes(r)).map((r) => `missing ${r}`),
      ...have.filter((r) => !want.includes(r)).map((r) => `extra ${r}`),
    ];
  } finally {
    fresh.$client.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

type Phases = { load: number; indexes: number; fullText: number };

/** Makes the bench's database at `file` with the campaign of `options`; returns what it planted and the phases' times. */
export async function seedIntegrityBench(
  file: string,
  options: Parameters<typeof plantCampaign>[0],
): Promise<{ campaign: Campaign; ms: Phases }> {
  const part = `${file}.part`;
  for (const f of [part, `${part}-wal`, `${part}-shm`, `${part}-journal`]) fs.rmSync(f, { force: true });
  process.env.DATABASE_URL = `file:${part}`;
  const c = db.$client;
  c.pragma("journal_mode = DELETE");
  c.pragma("synchronous = OFF");
  c.pragma("cache_size = -262144");

  const indexes = c
    .prepare(
      `select name, sql from sqlite_master where type = 'index' and sql is not null
        and tbl_name in (${BULK_TABLES.map(() => "?").join(", ")}) order by rowid`,
    )
    .all(...BULK_TABLES) as { name: string; sql: string }[];
  const dropped = indexes.filter((i) => !KEPT_INDEXES.has(i.name));
  const triggers = FTS.map(({ trigger, index }) => ({
    index,
    name: trigger,
    sql: (
      c.prepare("select sql from sqlite_master where type = 'trigger' and name = ?").get(trigger) as { sql: string }
    ).sql,
  }));
  c.transaction(() => {
    for (const i of dropped) c.exec(`drop index "${i.name}"`);
    for (const t of triggers) c.exec(`drop trigger "${t.name}"`);
  })();

  let t = performance.now();
  const campaign = await plantCampaign(options);
  const load = performance.now() - t;
  t = performance.now();
  for (const i of dropped) c.exec(i.sql);
  const made = performance.now() - t;
  t = performance.now();
  for (const tr of triggers) {
    c.exec(`insert into "${tr.index}"("${tr.index}") values ('rebuild')`);
    c.exec(tr.sql);
  }
  const fullText = performance.now() - t;

  const diff = schemaDiff(c);
  if (diff.length) throw new Error(`the bench's schema is not the migrations':\n${diff.join("\n")}`);
  c.close();
  fs.renameSync(part, file);
  fs.writeFileSync(campaignFile(file), JSON.stringify(toJson(campaign)));
  // The next use of the connection opens the kept file (in WAL, as the app opens it).
  process.env.DATABASE_URL = `file:${file}`;
  return { campaign, ms: { load, indexes: made, fullText } };
}

const campaignFile = (file: string) => `${file}.campaign.json`;

/** What the campaign at `file` planted, as kept beside it (null when the database was made without it). */
export function readCampaign(file: string): Truth | null {
  if (!fs.existsSync(campaignFile(file))) return null;
  const j = JSON.parse(fs.readFileSync(campaignFile(file), "utf8")) as ReturnType<typeof toJson>;
  return {
    planted: j.planted,
    honestEntries: new Set(fromRuns(j.honestEntries)),
    honestStaff: new Set(j.honestStaff),
    honestBranches: new Set(j.honestBranches),
  };
}

function toJson(c: Truth) {
  return {
    planted: c.planted,
    // Millions of ids, nearly all consecutive: kept as runs.
    honestEntries: toRuns([...c.honestEntries]),
    honestStaff: [...c.honestStaff],
    honestBranches: [...c.honestBranches],
  };
}

/** Ids as [first, last] runs of consecutive ones. */
function toRuns(ids: number[]): [number, number][] {
  const runs: [number, number][] = [];
  for (const id of ids.sort((a, b) => a - b)) {
    const last = runs[runs.length - 1];
    if (last && id === last[1] + 1) last[1] = id;
    else if (!last || id > last[1]) runs.push([id, id]);
  }
  return runs;
}

function* fromRuns(runs: [number, number][]) {
  for (const [a, b] of runs) for (let id = a; id <= b; id++) yield id;
}
