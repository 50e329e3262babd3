/**
 * The audit trail. Every back-office change writes one row through `audit(tx,
 * actor, ...)` inside the transaction of the change itself, so a change that
 * fails leaves no row and a row that cannot be written undoes the change.
 * Rows are never changed or deleted (triggers refuse it); only users holding
 * every permission can read them (/admin/audit).
 */
import { and, count, desc, eq, gte, lt, or, type SQL } from "drizzle-orm";
import { db, schema, type Executor } from "@db/index";
import type { AuditEntry } from "@db/schema";
import { likeContains, likePrefix, runTable, type TableParams, type TableResult } from "~/utils/datatable.server";
import { displayDateTime, kathmanduBounds } from "~/utils/time";

const { auditLog: A } = schema;

/** Who made a change and from where. `id` null: a visitor or the system. */
export type Actor = { id: number | null; email?: string | null; address?: string | null };

export const SYSTEM: Actor = { id: null, email: "system", address: null };

export type Changes = Record<string, { before: unknown; after: unknown }>;

type Plain = Record<string, unknown>;

/**
 * The fields that differ between two versions of a record (created: before is
 * null; deleted: after is null). Fields named in `hide` are recorded as
 * changed without their values (password hashes, codes).
 */
export function diff(before: Plain | null, after: Plain | null, hide: readonly string[] = []): Changes {
  const out: Changes = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const key of keys) {
    if (key === "updated_at") continue;
    const b = before?.[key] ?? null;
    const a = after?.[key] ?? null;
    if (JSON.stringify(b) === JSON.stringify(a)) continue;
    out[key] = hide.includes(key)
      ? { before: b === null ? null : "•••", after: a === null ? null : "•••" }
      : { before: b, after: a };
  }
  return out;
}

export type AuditInput = {
  action: string;
  entityType: string;
  entityId?: string | number | null;
  changes?: Changes;
};

/** Writes one audit row through `exec`: call it inside the change's own transaction. */
export function audit(exec: Executor, actor: Actor, input: AuditInput): void {
  exec
    .insert(A)
    .values({
      user_id: actor.id,
      user_email: actor.email ?? null,
      address: actor.address ?? null,
      action: input.action,
      entity_type: input.entityType,
      entity_id: input.entityId === null || input.entityId === undefined ? null : String(input.entityId),
      changes: JSON.stringify(input.changes ?? {}),
      at: new Date().toISOString(),
    })
    .run();
}

// ---------------------------------------------------------------- reading

export type AuditFilters = {
  /** An action or its area prefix ("registration", "registration.create"). */
  action?: string | null;
  entity_type?: string | null;
  /** Part of the acting user's e-mail. */
  user?: string | null;
  /** Kathmandu dates or date-times (checked by the filter schema). */
  from?: string | null;
  to?: string | null;
};

function conditions(f: AuditFilters): (SQL | undefined)[] {
  const bounds = kathmanduBounds(f.from, f.to);
  return [
    f.action ? likePrefix(A.action, f.action) : undefined,
    f.entity_type ? eq(A.entity_type, f.entity_type) : undefined,
    f.user ? likeContains(A.user_email, f.user) : undefined,
    bounds.from ? gte(A.at, bounds.from) : undefined,
    bounds.to ? lt(A.at, bounds.to) : undefined,
  ];
}

/** The entity types and the action areas in the trail, for the filter selects. */
export function auditFacets(): { entityTypes: string[]; actions: string[] } {
  const entityTypes = db
    .selectDistinct({ v: A.entity_type })
    .from(A)
    .orderBy(A.entity_type)
    .all()
    .map((r) => r.v);
  const actions = db
    .selectDistinct({ v: A.action })
    .from(A)
    .orderBy(A.action)
    .all()
    .map((r) => r.v);
  return { entityTypes, actions };
}

/** Columns of AuditTrail.xls. */
export const AUDIT_COLUMNS = [
  { header: "Time", value: (r: AuditEntry) => displayDateTime(r.at) },
  { header: "User", value: (r: AuditEntry) => r.user_email ?? "" },
  { header: "Address", value: (r: AuditEntry) => r.address ?? "" },
  { header: "Action", value: (r: AuditEntry) => r.action },
  { header: "Record", value: (r: AuditEntry) => `${r.entity_type} ${r.entity_id ?? ""}`.trim() },
  { header: "Changes", value: (r: AuditEntry) => describeChanges(r.changes) },
];

/** "field: before → after; ..." from the stored JSON. */
export function describeChanges(json: string): string {
  let changes: Changes;
  try {
    changes = JSON.parse(json) as Changes;
  } catch {
    return "";
  }
  const show = (v: unknown) =>
    v === null || v === undefined ? "—" : typeof v === "object" ? JSON.stringify(v) : String(v);
  return Object.entries(changes)
    .map(([k, c]) => `${k}: ${show(c.before)} → ${show(c.after)}`)
    .join("; ");
}

export function listAudit(params: TableParams, filters: AuditFilters = {}): TableResult<AuditEntry> {
  return runTable<AuditEntry>(params, {
    orderable: { id: A.id, at: A.at },
    defaultOrder: { column: "id", dir: "desc" },
    base: [],
    filters: conditions(filters),
    search: (term) => or(likePrefix(A.entity_id, term), likeContains(A.user_email, term), likeContains(A.action, term)),
    count: (where) => db.select({ n: count() }).from(A).where(where).get()?.n ?? 0,
    rows: (where, orderBy, limit, offset) =>
      db
        .select()
        .from(A)
        .where(where)
        .orderBy(...orderBy, desc(A.id))
        .limit(limit)
        .offset(offset)
        .all(),
  });
}

/** Every row of the filters, newest first, read in pages (the download). */
export function* exportAudit(filters: AuditFilters = {}): Generator<AuditEntry> {
  const where = and(...conditions(filters));
  for (let lastId = Number.MAX_SAFE_INTEGER; ;) {
    const page = db
      .select()
      .from(A)
      .where(and(where, lt(A.id, lastId)))
      .orderBy(desc(A.id))
      .limit(2000)
      .all();
    if (!page.length) return;
    yield* page;
    lastId = page[page.length - 1].id;
  }
}
