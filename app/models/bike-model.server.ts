/**
 * Bike models.
 *
 * Lookups for the public forms and every new-record select: the list of models
 * on sale (not retired, not deleted) with their thumbnail addresses. A retired
 * model leaves them on the next request, while the records that name it keep
 * its title (their joins read the row whatever its state).
 *
 * The back office's bike model area (spec 001 §2.5): the paged list (retired
 * ones marked), the detail, and the writes (create, update, retire, restore,
 * delete). Every write takes the actor, returns a Result and writes its audit
 * row in its own transaction. A model that any record names is never deleted:
 * it is retired instead (docs/decisions/0012).
 */
import { and, asc, count, eq, isNull, or, sql, type SQL } from "drizzle-orm";
import { cachedPublic } from "./public-cache.server";
import { db, schema, type Tx } from "@db/index";
import type { BikeModel } from "@db/schema";
import { BIKE_MODEL_MESSAGES, type BikeModelInput } from "~/schemas/bike-model";
import { randomSlug } from "~/utils/crypto.server";
import { likeContains, runTable, type TableParams, type TableResult } from "~/utils/datatable.server";
import { nowIso } from "~/utils/time";
import { audit, diff } from "./audit.server";
import { describeUsage } from "./branch.server";
import { fail, FailureError, type Result } from "~/utils/failure";
import { fileUrl, findPickerFile, FILE_ERRORS } from "./file.server";
import type { ScopedActor } from "./scope.server";
import { transact } from "./transaction.server";

const { bikeModels } = schema;

export type BikeModelItem = {
  id: number;
  slug: string;
  title: string;
  thumbnail_id: number | null;
  thumbnail_url: string | null;
};

const columns = {
  id: bikeModels.id,
  slug: bikeModels.slug,
  title: bikeModels.title,
  thumbnail_id: bikeModels.thumbnail_id,
};

const withUrl = <R extends { thumbnail_id: number | null }>(r: R): R & { thumbnail_url: string | null } => ({
  ...r,
  thumbnail_url: fileUrl(r.thumbnail_id),
});

/** On sale: not deleted and not retired. The one condition of the public forms and new-record selects. */
const onSale = and(isNull(bikeModels.deleted_at), isNull(bikeModels.retired_at));

/**
 * Every model on sale, oldest first (so the spec's default bike_model_id 1 leads). An edit form may `keep`
 * the record's own model in its select when that model has been retired since.
 */
export function listBikeModels({
  keep,
  includeRetired = false,
}: { keep?: number | null; includeRetired?: boolean } = {}): BikeModelItem[] {
  if (includeRetired) {
    // A list filter over past records: every model they may name (the same for everyone, kept until a model changes).
    return cachedPublic("bike-models:with-retired", () =>
      db
        .select(columns)
        .from(bikeModels)
        .where(isNull(bikeModels.deleted_at))
        .orderBy(asc(bikeModels.id))
        .all()
        .map(withUrl),
    );
  }
  if (!keep) {
    return cachedPublic("bike-models", () =>
      db.select(columns).from(bikeModels).where(onSale).orderBy(asc(bikeModels.id)).all().map(withUrl),
    );
  }
  const where = or(onSale, and(eq(bikeModels.id, keep), isNull(bikeModels.deleted_at)));
  return db.select(columns).from(bikeModels).where(where).orderBy(asc(bikeModels.id)).all().map(withUrl);
}

/** A model on sale by id, or null. */
export function findActiveBikeModel(id: number): BikeModelItem | null {
  const row = db
    .select(columns)
    .from(bikeModels)
    .where(and(eq(bikeModels.id, id), onSale))
    .get();
  return row ? withUrl(row) : null;
}

// ---------------------------------------------------------------- back office: reading

export const BIKE_MODEL_ERRORS = {
  notFound: "Bike model not found.",
  alreadyRetired: "This bike model is already retired.",
  notRetired: "This bike model is on sale.",
  inUse: (what: string) =>
    `This bike model cannot be deleted: it has ${what}. Retire it instead: a retired model leaves the public forms at once, and its records keep its name.`,
} as const;

/** A model row of the back office: with its thumbnail address and whether it is retired. */
export type BikeModelRow = BikeModelItem & { retired_at: string | null; created_at: string; updated_at: string };

const rowColumns = {
  ...columns,
  retired_at: bikeModels.retired_at,
  created_at: bikeModels.created_at,
  updated_at: bikeModels.updated_at,
};

/** The paged, searchable list of /admin/bike-model and GET /api/v1/bike-model (retired ones too, marked). */
export function listBikeModelsTable(params: TableParams): TableResult<BikeModelRow> {
  return runTable(params, {
    orderable: { id: bikeModels.id, title: bikeModels.title, created_at: bikeModels.created_at },
    defaultOrder: { column: "title", dir: "asc" },
    base: [isNull(bikeModels.deleted_at)],
    search: (term) => likeContains(bikeModels.title, term),
    count: (where) => db.select({ n: count() }).from(bikeModels).where(where).get()?.n ?? 0,
    rows: (where, orderBy, limit, offset) =>
      db
        .select(rowColumns)
        .from(bikeModels)
        .where(where)
        .orderBy(...orderBy, asc(bikeModels.id))
        .limit(limit)
        .offset(offset)
        .all()
        .map(withUrl),
  });
}

export type BikeModelUsage = { preregistrations: number; registrations: number; test_rides: number };

const USAGE_WORDS: Record<keyof BikeModelUsage, [string, string]> = {
  preregistrations: ["pre-registration", "pre-registrations"],
  registrations: ["registration", "registrations"],
  test_rides: ["test ride", "test rides"],
};

/** Every record naming the model, deleted ones included. */
function modelUsage(exec: Tx | typeof db, id: number): BikeModelUsage {
  const n = (q: SQL) => exec.get<{ n: number }>(q)?.n ?? 0;
  return {
    preregistrations: n(sql`select count(*) as n from preregistrations where bike_model_id = ${id}`),
    registrations: n(sql`select count(*) as n from registrations where bike_model_id = ${id}`),
    test_rides: n(sql`select count(*) as n from test_rides where bike_model_id = ${id}`),
  };
}

/** "3 registrations and 1 test ride". */
const usageText = (usage: BikeModelUsage) => describeUsage(usage, USAGE_WORDS);

export type BikeModelDetail = BikeModelRow & {
  thumbnail_filename: string | null;
  usage: BikeModelUsage;
  deletable: boolean;
};

/** One model by slug (retired ones too), with its image and what names it. */
export function getBikeModel(slug: string): BikeModelDetail | null {
  if (!slug || slug.length > 64) return null;
  const row = db
    .select(rowColumns)
    .from(bikeModels)
    .where(and(eq(bikeModels.slug, slug), isNull(bikeModels.deleted_at)))
    .get();
  if (!row) return null;
  const usage = modelUsage(db, row.id);
  return {
    ...withUrl(row),
    thumbnail_filename: findPickerFile(db, row.thumbnail_id)?.filename ?? null,
    usage,
    deletable: Object.values(usage).every((v) => v === 0),
  };
}

// ---------------------------------------------------------------- back office: changes

const ENTITY = "bike_model";

function reachable(tx: Tx, slug: string): BikeModel {
  const row = tx
    .select()
    .from(bikeModels)
    .where(and(eq(bikeModels.slug, slug), isNull(bikeModels.deleted_at)))
    .get();
  if (!row) throw new FailureError(fail.notFound(BIKE_MODEL_ERRORS.notFound));
  return row;
}

/** The title (unique, letter case aside) and the thumbnail (an image of the picker, never a private file). */
function values(tx: Tx, input: BikeModelInput, exceptId?: number) {
  const title = input.title.replace(/\s+/g, " ").trim();
  const taken = tx
    .select({ id: bikeModels.id })
    .from(bikeModels)
    .where(
      and(
        isNull(bikeModels.deleted_at),
        sql`lower(${bikeModels.title}) = lower(${title})`,
        exceptId ? sql`${bikeModels.id} <> ${exceptId}` : undefined,
      ),
    )
    .get();
  const errors: Record<string, string[]> = {};
  if (taken) errors.title = [BIKE_MODEL_MESSAGES.titleTaken];
  if (input.thumbnail !== undefined && !findPickerFile(tx, input.thumbnail)) errors.thumbnail = [FILE_ERRORS.thumbnail];
  if (Object.keys(errors).length) throw new FailureError(fail.invalid(errors));
  return { title, thumbnail_id: input.thumbnail ?? null };
}

export function createBikeModel(actor: ScopedActor, input: BikeModelInput): Result<{ bikeModel: BikeModel }> {
  return transact((tx) => {
    const bikeModel = tx
      .insert(bikeModels)
      .values({ ...values(tx, input), slug: randomSlug() })
      .returning()
      .get();
    audit(tx, actor, {
      action: "bike_model.create",
      entityType: ENTITY,
      entityId: bikeModel.id,
      changes: diff(null, bikeModel),
    });
    return { ok: true as const, bikeModel };
  });
}

export function updateBikeModel(
  actor: ScopedActor,
  slug: string,
  input: BikeModelInput,
): Result<{ bikeModel: BikeModel }> {
  return transact((tx) => {
    const before = reachable(tx, slug);
    const bikeModel = tx
      .update(bikeModels)
      .set({ ...values(tx, input, before.id), updated_at: nowIso() })
      .where(eq(bikeModels.id, before.id))
      .returning()
      .get();
    audit(tx, actor, {
      action: "bike_model.update",
      entityType: ENTITY,
      entityId: bikeModel.id,
      changes: diff(before, bikeModel),
    });
    return { ok: true as const, bikeModel };
  });
}

/** Deletes a model that no record names; otherwise a conflict saying what names it and to retire it. */
export function deleteBikeModel(actor: ScopedActor, slug: string): Result<{ bikeModel: BikeModel }> {
  return transact((tx) => {
    const row = reachable(tx, slug);
    const usage = modelUsage(tx, row.id);
    if (Object.values(usage).some((v) => v > 0))
      throw new FailureError(fail.conflict(BIKE_MODEL_ERRORS.inUse(usageText(usage))));
    tx.delete(bikeModels).where(eq(bikeModels.id, row.id)).run();
    audit(tx, actor, { action: "bike_model.delete", entityType: ENTITY, entityId: row.id, changes: diff(row, null) });
    return { ok: true as const, bikeModel: row };
  });
}

/** Retires a model: out of the public forms and every new-record select; its records keep its title. */
export function retireBikeModel(actor: ScopedActor, slug: string): Result<{ bikeModel: BikeModel }> {
  return setRetired(actor, slug, true);
}

/** Puts a retired model on sale again. */
export function restoreBikeModel(actor: ScopedActor, slug: string): Result<{ bikeModel: BikeModel }> {
  return setRetired(actor, slug, false);
}

function setRetired(actor: ScopedActor, slug: string, retired: boolean): Result<{ bikeModel: BikeModel }> {
  return transact((tx) => {
    const before = reachable(tx, slug);
    if (retired && before.retired_at) throw new FailureError(fail.conflict(BIKE_MODEL_ERRORS.alreadyRetired));
    if (!retired && !before.retired_at) throw new FailureError(fail.conflict(BIKE_MODEL_ERRORS.notRetired));
    const at = nowIso();
    const bikeModel = tx
      .update(bikeModels)
      .set({ retired_at: retired ? at : null, updated_at: at })
      .where(eq(bikeModels.id, before.id))
      .returning()
      .get();
    audit(tx, actor, {
      action: retired ? "bike_model.retire" : "bike_model.restore",
      entityType: ENTITY,
      entityId: bikeModel.id,
      changes: diff(before, bikeModel),
    });
    return { ok: true as const, bikeModel };
  });
}

/** A model as the API shows it (spec 001 §3): thumbnail (file id) with its thumbnail_url. */
export function presentBikeModel(row: BikeModel | BikeModelRow) {
  const { deleted_at: _deleted, ...rest } = row as BikeModel;
  return {
    ...rest,
    thumbnail: rest.thumbnail_id,
    thumbnail_url: fileUrl(rest.thumbnail_id),
    retired: rest.retired_at !== null,
  };
}
