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
import { REGISTRATION_FIELD_LABELS } from "~/schemas/registration";
import { SETTING_LABELS } from "~/schemas/settings";
import { likeContains, likePrefix, runTable, type TableParams, type TableResult } from "~/utils/datatable.server";
import {
  auditActionLabel,
  auditRecordLabel,
  fieldLabel,
  humanize,
  type AuditAction,
  type AuditRecord,
} from "~/utils/labels";
import { permissionLabel } from "~/utils/permissions";
import { auditRecordRefs, auditValueNames, recordRefOf } from "./audit-records.server";
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
  /** One of the labelled actions (app/utils/labels.ts `AUDIT_ACTION`). */
  action: AuditAction;
  entityType: AuditRecord;
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

/** The record types and the actions in the trail, for the filter selects: each value with its label. */
export function auditFacets(): {
  entityTypes: { value: string; label: string }[];
  actions: { value: string; label: string }[];
} {
  const entityTypes = db
    .selectDistinct({ v: A.entity_type })
    .from(A)
    .all()
    .map((r) => ({ value: r.v, label: auditRecordLabel(r.v) }));
  const actions = db
    .selectDistinct({ v: A.action })
    .from(A)
    .all()
    .map((r) => ({ value: r.v, label: auditActionLabel(r.v) }));
  const byLabel = (a: { label: string }, b: { label: string }) => a.label.localeCompare(b.label, "en");
  return { entityTypes: entityTypes.sort(byLabel), actions: actions.sort(byLabel) };
}

/** A row of the trail as staff read it: its record by name (and where it opens), its changes in words. */
export type ReadableAuditEntry = AuditEntry & {
  action_label: string;
  record: string;
  record_href: string | null;
  /** The changes in words, one line per field; `summary` joins them (the download's cell). */
  changes_list: string[];
  summary: string;
};

/** The rows of a page (or a download's page) as staff read them: one lookup per kind of record named. */
export function readableAudit(rows: AuditEntry[]): ReadableAuditEntry[] {
  const refs = auditRecordRefs(rows);
  const names = auditValueNames(rows);
  return rows.map((r) => {
    const ref = recordRefOf(refs, r);
    const lines = changeLines(r.changes, r.entity_type, names);
    return {
      ...r,
      action_label: auditActionLabel(r.action),
      record: ref ? `${auditRecordLabel(r.entity_type)}: ${ref.name}` : auditRecordText(r),
      record_href: ref?.href ?? null,
      changes_list: lines,
      summary: lines.join("; "),
    };
  });
}

/** Columns of AuditTrail.xls: the screen's labels, never the stored codes. */
export const AUDIT_COLUMNS = [
  { header: "Time", value: (r: ReadableAuditEntry) => displayDateTime(r.at) },
  { header: "User", value: (r: ReadableAuditEntry) => r.user_email ?? "" },
  { header: "Address", value: (r: ReadableAuditEntry) => r.address ?? "" },
  { header: "Action", value: (r: ReadableAuditEntry) => r.action_label },
  { header: "Record", value: (r: ReadableAuditEntry) => r.record },
  { header: "Changes", value: (r: ReadableAuditEntry) => r.summary },
];

/** "Branch kathmandu-central": the record's kind by its label, then its id or slug (a setting by its label). */
export function auditRecordText(r: Pick<AuditEntry, "entity_type" | "entity_id">): string {
  const id =
    r.entity_type === "setting" && r.entity_id && Object.hasOwn(SETTING_LABELS, r.entity_id)
      ? SETTING_LABELS[r.entity_id as keyof typeof SETTING_LABELS]
      : (r.entity_id ?? "");
  return `${auditRecordLabel(r.entity_type)} ${id}`.trim();
}

/** Fields most records share, by the label their forms give them. */
const COMMON_FIELDS: Record<string, string> = {
  id: "ID",
  slug: "Reference",
  name: "Name",
  title: "Title",
  email: "Email",
  phone: "Phone",
  address: "Address",
  note: "Note",
  status: "Status",
  type: "Type",
  amount: "Amount",
  date: "Date",
  branch_id: "Branch",
  bike_model_id: "Bike Model",
  thumbnail_id: "Thumbnail",
  citizenship_no: "Citizenship No",
  state: "State",
  district: "District",
  city: "City",
  first_name: "First name",
  last_name: "Last name",
  referrer_id: "Referred by",
  utm_source: "Campaign source",
  campaign: "Campaign",
  form_token: "Form submission",
  created_by: "Created by",
  created_at: "Created",
  deleted_at: "Deleted",
  password: "Password",
};

/** Each record's fields as its form (or its screen) labels them, where they differ from the common ones. */
const RECORD_FIELDS: Partial<Record<AuditRecord, Record<string, string>>> = {
  user: { sex: "Sex", role_id: "Role" },
  role: { permissions: "Permissions", added: "Permissions given", removed: "Permissions taken away" },
  branch: {
    title: "Name",
    location: "Location",
    mobile: "Mobile",
    one_lakh_allocation_count: "One Lakh Allocation",
    ten_lakhs_allocation_count: "Ten Lakhs Allocation",
    closed_at: "Closed",
  },
  bike_model: { retired_at: "Retired" },
  video: { url: "Url", citizenship_no: "Registration ID" },
  file: { type: "Category", filename: "File name", width: "Width", height: "Height" },
  preregistration: {
    name: "Full Name",
    phone: "Phone Number",
    citizenship_no: "Citizenship No/PAN",
    source: "Source of information",
    screenshot_id: "Screenshot",
    verified_at: "Verified",
    prize: "Prize",
    nearest_branch_id: "Nearest Showroom",
  },
  registration: {
    ...REGISTRATION_FIELD_LABELS,
    phone: "Phone Number",
    pan: "PAN",
    purchase_date: "Date of Purchase",
    preregistration_id: "Pre-registration",
    registration_id: "Referred by",
    referred_by: "Referred by",
    confirmed_at: "Confirmed",
    coupon_amount: "Coupon amount",
    coupon_code: "Coupon code",
    share_code: "Share link",
    sms: "SMS",
  },
  test_ride: { type: "Type" },
  allocation: { count: "Count", probability: "Probability (in 100)", paid: "Paid" },
  setting: SETTING_LABELS,
  sms_broadcast: {
    type: "Send to",
    text: "Message",
    branches: "Branches",
    registrants: "Customers",
    mobiles: "Mobiles",
    recipients: "Recipients",
    duplicates: "Duplicates",
    skipped: "Skipped",
    parts: "SMS parts",
    failed: "Failed",
    requeued: "Queued again",
  },
  sms_message: {
    attempts: "Attempts",
    error: "Error",
    provider: "Provider",
    provider_reply: "Provider reply",
  },
};

/** A recorded field's label on a record: its form's label, else the common one, else its name in words. */
export function auditFieldLabel(entityType: string, field: string): string {
  const own = RECORD_FIELDS[entityType as AuditRecord];
  if (own && Object.hasOwn(own, field)) return own[field];
  if (Object.hasOwn(COMMON_FIELDS, field)) return COMMON_FIELDS[field];
  return humanize(field);
}

/** The fields whose values are permission names. */
const PERMISSION_FIELDS = new Set(["permissions", "added", "removed"]);

/** Fields a change carries that say nothing to staff: the record's own id and address (the Record column names it), a form's token, times the row has. */
const UNSHOWN = new Set(["id", "slug", "key", "form_token", "created_at", "updated_at"]);

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** Names for ids in a change (a branch's id → its name): app/models/audit-records.server.ts. */
export type ValueNames = (field: string, v: unknown) => string | undefined;

const empty = (v: unknown) => v === null || v === undefined || v === "";

/** A recorded value as staff read it: names for ids, enumerated values by their labels, permissions by theirs, times, yes/no. */
function showValue(entityType: string, field: string, v: unknown, names?: ValueNames): string {
  if (empty(v)) return "—";
  const named = names?.(field, v);
  if (named) return named;
  if (entityType === "role" && PERMISSION_FIELDS.has(field) && Array.isArray(v))
    return v.length ? v.map((p) => permissionLabel(String(p))).join(", ") : "none";
  if (entityType === "setting" && field === "registration_open" && typeof v === "boolean") return v ? "Open" : "Closed";
  if (typeof v === "boolean") return v ? "Yes" : "No";
  if (Array.isArray(v)) return v.length ? v.map(String).join(", ") : "none";
  if (typeof v === "object") return JSON.stringify(v);
  if (typeof v === "string" && ISO_TIME.test(v)) return displayDateTime(v);
  return fieldLabel(field, v) ?? String(v);
}

/**
 * "Field: before → after; ..." from the stored JSON, as staff read it: each
 * field by the label its form gives it on that kind of record, enumerated
 * values by their labels (app/utils/labels.ts), ids by the names given. A
 * record's first values (nothing before any of them) read "Field: value".
 */
export function describeChanges(json: string, entityType = "", names?: ValueNames): string {
  return changeLines(json, entityType, names).join("; ");
}

/** The changes of a row, one line per field ("Name: Old → New"), as the trail's expandable cell lists them. */
export function changeLines(json: string, entityType = "", names?: ValueNames): string[] {
  let changes: Changes;
  try {
    changes = JSON.parse(json) as Changes;
  } catch {
    return [];
  }
  const shown = Object.entries(changes).filter(([k]) => !UNSHOWN.has(k));
  const first = shown.every(([, c]) => empty(c.before));
  const show = (k: string, v: unknown) => showValue(entityType, k, v, names);
  return shown.map(([k, c]) =>
    first
      ? `${auditFieldLabel(entityType, k)}: ${show(k, c.after)}`
      : `${auditFieldLabel(entityType, k)}: ${show(k, c.before)} → ${show(k, c.after)}`,
  );
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
export function* exportAudit(filters: AuditFilters = {}): Generator<ReadableAuditEntry> {
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
    yield* readableAudit(page);
    lastId = page[page.length - 1].id;
  }
}
