/** Bike model lookups: the full list with thumbnail addresses, and the DataTables list of GET /api/v1/bike-model. */
import { and, asc, count, eq, isNull } from "drizzle-orm";
import { db, schema } from "@db/index";
import { runTable, type TableParams, type TableResult } from "~/utils/datatable.server";
import { fileUrl } from "./file.server";

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

const withUrl = (r: Omit<BikeModelItem, "thumbnail_url">): BikeModelItem => ({
  ...r,
  thumbnail_url: fileUrl(r.thumbnail_id),
});

/** Every active model, oldest first (so the spec's default bike_model_id 1 leads). */
export function listBikeModels(): BikeModelItem[] {
  return db
    .select(columns)
    .from(bikeModels)
    .where(isNull(bikeModels.deleted_at))
    .orderBy(asc(bikeModels.id))
    .all()
    .map(withUrl);
}

export function findActiveBikeModel(id: number): BikeModelItem | null {
  const row = db
    .select(columns)
    .from(bikeModels)
    .where(and(eq(bikeModels.id, id), isNull(bikeModels.deleted_at)))
    .get();
  return row ? withUrl(row) : null;
}

/** The paged, searchable list (search by title). */
export function listBikeModelsTable(params: TableParams): TableResult<BikeModelItem> {
  return runTable(params, {
    orderable: { id: bikeModels.id, title: bikeModels.title, created_at: bikeModels.created_at },
    defaultOrder: { column: "title", dir: "asc" },
    base: [isNull(bikeModels.deleted_at)],
    search: [bikeModels.title],
    count: (where) => db.select({ n: count() }).from(bikeModels).where(where).get()?.n ?? 0,
    rows: (where, orderBy, limit, offset) =>
      db
        .select(columns)
        .from(bikeModels)
        .where(where)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset)
        .all()
        .map(withUrl),
  });
}
