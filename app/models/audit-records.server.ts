/**
 * The audit trail's records and ids by name: "Sita Shrestha" linked to her registration instead of
 * "Registration 0hl3le7ajd1iGU2u", "Kathmandu Central" instead of a branch id in a change. Read for a
 * page of rows at once (one query per kind of record on the page); a record deleted for good keeps
 * its id.
 */
import { inArray } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { db, schema } from "@db/index";
import type { AuditEntry } from "@db/schema";
import { label, type AuditRecord } from "~/utils/labels";
import { displayDay } from "~/utils/time";

/** A record as the trail names it: its name, and where it opens (none for records without a page). */
export type RecordRef = { name: string; href: string | null };

type Lookup = {
  table: SQLiteTable;
  /** The column the trail stores as the record's id. */
  key: SQLiteColumn;
  /** The stored id's form: a number (an id) or text (a slug or key). */
  numeric: boolean;
  columns: Record<string, SQLiteColumn>;
  ref: (row: Record<string, unknown>) => RecordRef;
};

const S = schema;
const str = (v: unknown) => (v === null || v === undefined ? "" : String(v));

const LOOKUPS: Partial<Record<AuditRecord, Lookup>> = {
  user: {
    table: S.users,
    key: S.users.slug,
    numeric: false,
    columns: { id: S.users.slug, name: S.users.name, email: S.users.email },
    ref: (r) => ({ name: `${str(r.name)} (${str(r.email)})`, href: `/admin/user/${str(r.id)}` }),
  },
  role: {
    table: S.roles,
    key: S.roles.slug,
    numeric: false,
    columns: { id: S.roles.slug, name: S.roles.title },
    ref: (r) => ({ name: str(r.name), href: "/admin/role" }),
  },
  branch: {
    table: S.branches,
    key: S.branches.id,
    numeric: true,
    columns: { id: S.branches.id, slug: S.branches.slug, name: S.branches.title },
    ref: (r) => ({ name: str(r.name), href: `/admin/branch/${str(r.slug)}` }),
  },
  bike_model: {
    table: S.bikeModels,
    key: S.bikeModels.id,
    numeric: true,
    columns: { id: S.bikeModels.id, slug: S.bikeModels.slug, name: S.bikeModels.title },
    ref: (r) => ({ name: str(r.name), href: `/admin/bike-model/${str(r.slug)}` }),
  },
  video: {
    table: S.videos,
    key: S.videos.id,
    numeric: true,
    columns: { id: S.videos.id, slug: S.videos.slug, name: S.videos.title },
    ref: (r) => ({ name: str(r.name), href: `/admin/video/${str(r.slug)}` }),
  },
  file: {
    table: S.files,
    key: S.files.id,
    numeric: true,
    columns: { id: S.files.id, name: S.files.filename },
    ref: (r) => ({ name: str(r.name), href: null }),
  },
  preregistration: {
    table: S.preregistrations,
    key: S.preregistrations.slug,
    numeric: false,
    columns: { id: S.preregistrations.slug, name: S.preregistrations.name },
    ref: (r) => ({ name: str(r.name), href: `/admin/preregistration/${str(r.id)}` }),
  },
  registration: {
    table: S.registrations,
    key: S.registrations.slug,
    numeric: false,
    columns: { id: S.registrations.slug, name: S.registrations.name, bill: S.registrations.bill_no },
    ref: (r) => ({ name: `${str(r.name)} · ${str(r.bill)}`, href: `/admin/registration/${str(r.id)}` }),
  },
  test_ride: {
    table: S.testRides,
    key: S.testRides.slug,
    numeric: false,
    columns: { id: S.testRides.slug, name: S.testRides.name },
    ref: (r) => ({ name: str(r.name), href: `/admin/test-ride/${str(r.id)}` }),
  },
  allocation: {
    table: S.allocations,
    key: S.allocations.id,
    numeric: true,
    columns: { id: S.allocations.id, type: S.allocations.type, date: S.allocations.date },
    ref: (r) => ({
      name: `${label("allocation_type", str(r.type))} · ${displayDay(str(r.date))}`,
      href: `/admin/scheme/${str(r.id)}`,
    }),
  },
  sms_broadcast: {
    table: S.smsBroadcasts,
    key: S.smsBroadcasts.id,
    numeric: true,
    columns: { id: S.smsBroadcasts.id },
    ref: (r) => ({ name: `#${str(r.id)}`, href: `/admin/sms/${str(r.id)}` }),
  },
};

const refKey = (type: string, id: string) => `${type}:${id}`;

/** The named records of these rows, by `${entity_type}:${entity_id}`. */
export function auditRecordRefs(rows: Pick<AuditEntry, "entity_type" | "entity_id">[]): Map<string, RecordRef> {
  const ids = new Map<AuditRecord, Set<string>>();
  for (const r of rows) {
    if (!r.entity_id || !Object.hasOwn(LOOKUPS, r.entity_type)) continue;
    const type = r.entity_type as AuditRecord;
    if (!ids.has(type)) ids.set(type, new Set());
    ids.get(type)!.add(r.entity_id);
  }
  const out = new Map<string, RecordRef>();
  for (const [type, wanted] of ids) {
    const lookup = LOOKUPS[type]!;
    const keys: unknown[] = lookup.numeric ? [...wanted].filter((id) => /^\d+$/.test(id)).map(Number) : [...wanted];
    if (!keys.length) continue;
    const found = db.select(lookup.columns).from(lookup.table).where(inArray(lookup.key, keys)).all();
    for (const row of found) out.set(refKey(type, str(row.id)), lookup.ref(row));
  }
  return out;
}

/** One row's record from the refs, if it was found. */
export const recordRefOf = (refs: Map<string, RecordRef>, r: Pick<AuditEntry, "entity_type" | "entity_id">) =>
  r.entity_id ? refs.get(refKey(r.entity_type, r.entity_id)) : undefined;

/** The ids a change may carry, by the field that holds them, and the names they stand for. */
const NAMED_FIELDS: Record<string, { table: SQLiteTable; id: SQLiteColumn; name: SQLiteColumn }> = {
  branch_id: { table: S.branches, id: S.branches.id, name: S.branches.title },
  nearest_branch_id: { table: S.branches, id: S.branches.id, name: S.branches.title },
  bike_model_id: { table: S.bikeModels, id: S.bikeModels.id, name: S.bikeModels.title },
  role_id: { table: S.roles, id: S.roles.id, name: S.roles.title },
  thumbnail_id: { table: S.files, id: S.files.id, name: S.files.filename },
  screenshot_id: { table: S.files, id: S.files.id, name: S.files.filename },
};

/** Names for the ids in these rows' changes: (field, id) → name. */
export function auditValueNames(
  rows: Pick<AuditEntry, "changes">[],
): (field: string, v: unknown) => string | undefined {
  const wanted = new Map<string, Set<number>>();
  for (const r of rows) {
    let changes: Record<string, { before: unknown; after: unknown }>;
    try {
      changes = JSON.parse(r.changes) as typeof changes;
    } catch {
      continue;
    }
    for (const [field, c] of Object.entries(changes)) {
      if (!Object.hasOwn(NAMED_FIELDS, field)) continue;
      for (const v of [c.before, c.after]) {
        if (typeof v !== "number") continue;
        if (!wanted.has(field)) wanted.set(field, new Set());
        wanted.get(field)!.add(v);
      }
    }
  }
  const names = new Map<string, string>();
  for (const [field, ids] of wanted) {
    const f = NAMED_FIELDS[field];
    const found = db
      .select({ id: f.id, name: f.name })
      .from(f.table)
      .where(inArray(f.id, [...ids]))
      .all();
    for (const row of found) names.set(`${field}:${str(row.id)}`, str(row.name));
  }
  return (field, v) => names.get(`${field}:${str(v)}`);
}
