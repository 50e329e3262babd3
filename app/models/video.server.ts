/**
 * Winner videos for the public gallery (/winner-list, GET /api/v1/videos),
 * grouped by prize: ten_lakhs (1000000), one_lakh (100000), fifty_thousand
 * (50000). Winners' personal data (citizenship number, phone) stays out.
 *
 * The back office's video area (spec 001 §2.7): the paged list with the prize
 * filter, the detail and the writes (create, update, delete), each taking the
 * actor, returning a Result and writing its audit row in its own transaction.
 */
import { and, asc, count, desc, eq, inArray, isNull, or } from "drizzle-orm";
import { cachedPublic } from "./public-cache.server";
import { db, schema, type Tx } from "@db/index";
import type { Video } from "@db/schema";
import type { VideoInput } from "~/schemas/video";
import { randomSlug } from "~/utils/crypto.server";
import { likeContains, likePrefix, runTable, type TableParams, type TableResult } from "~/utils/datatable.server";
import { nowIso } from "~/utils/time";
import { audit, diff } from "./audit.server";
import { fail, FailureError, type Result } from "~/utils/failure";
import { fileUrl, FILE_ERRORS, findPickerFile } from "./file.server";
import type { ScopedActor } from "./scope.server";
import { transact } from "./transaction.server";

const { videos } = schema;

export const VIDEO_GROUPS = {
  ten_lakhs: 1_000_000,
  one_lakh: 100_000,
  fifty_thousand: 50_000,
} as const;

export type VideoGroup = keyof typeof VIDEO_GROUPS;
export const VIDEO_GROUP_ORDER: VideoGroup[] = ["ten_lakhs", "one_lakh", "fifty_thousand"];

export type PublicVideo = {
  id: number;
  slug: string;
  title: string;
  url: string;
  amount: number;
  thumbnail_url: string | null;
};

/** Only http(s) addresses are ever linked. */
export const isSafeVideoUrl = (url: string) => /^https?:\/\/[^\s]+$/i.test(url.trim());

export function groupedVideos(): Record<VideoGroup, PublicVideo[]> {
  return cachedPublic("videos", readGroupedVideos);
}

function readGroupedVideos(): Record<VideoGroup, PublicVideo[]> {
  const rows = db
    .select({
      id: videos.id,
      slug: videos.slug,
      title: videos.title,
      url: videos.url,
      amount: videos.amount,
      thumbnail_id: videos.thumbnail_id,
    })
    .from(videos)
    .where(and(isNull(videos.deleted_at), inArray(videos.amount, Object.values(VIDEO_GROUPS))))
    .orderBy(desc(videos.created_at), asc(videos.id))
    .all();
  const out: Record<VideoGroup, PublicVideo[]> = { ten_lakhs: [], one_lakh: [], fifty_thousand: [] };
  for (const { thumbnail_id, ...row } of rows) {
    if (!isSafeVideoUrl(row.url)) continue;
    const group = VIDEO_GROUP_ORDER.find((g) => VIDEO_GROUPS[g] === row.amount);
    if (group) out[group].push({ ...row, url: row.url.trim(), thumbnail_url: fileUrl(thumbnail_id) });
  }
  return out;
}

// ---------------------------------------------------------------- back office

export const VIDEO_ERRORS = { notFound: "Video not found." } as const;

/** A video row of the back office: every field of spec 001 §3 with the thumbnail's address. */
export type VideoRow = Omit<Video, "deleted_at"> & { thumbnail_url: string | null };

const rowColumns = {
  id: videos.id,
  slug: videos.slug,
  title: videos.title,
  citizenship_no: videos.citizenship_no,
  url: videos.url,
  amount: videos.amount,
  thumbnail_id: videos.thumbnail_id,
  phone: videos.phone,
  created_at: videos.created_at,
  updated_at: videos.updated_at,
};

const withUrl = <R extends { thumbnail_id: number | null }>(r: R) => ({ ...r, thumbnail_url: fileUrl(r.thumbnail_id) });

export type VideoFilters = { amount?: number | null };

/** The paged list of /admin/video and GET /api/v1/video: newest first, the prize filter, search by title or Registration ID. */
export function listVideosTable(params: TableParams, filters: VideoFilters = {}): TableResult<VideoRow> {
  return runTable<VideoRow>(params, {
    orderable: {
      id: videos.id,
      title: videos.title,
      amount: videos.amount,
      citizenship_no: videos.citizenship_no,
      created_at: videos.created_at,
    },
    defaultOrder: { column: "created_at", dir: "desc" },
    base: [isNull(videos.deleted_at)],
    filters: [filters.amount ? eq(videos.amount, filters.amount) : undefined],
    search: (term) =>
      or(likeContains(videos.title, term), likePrefix(videos.citizenship_no, term), likePrefix(videos.phone, term)),
    count: (where) => db.select({ n: count() }).from(videos).where(where).get()?.n ?? 0,
    rows: (where, orderBy, limit, offset) =>
      db
        .select(rowColumns)
        .from(videos)
        .where(where)
        .orderBy(...orderBy, desc(videos.id))
        .limit(limit)
        .offset(offset)
        .all()
        .map(withUrl),
  });
}

/** One video by its slug (the {id} segment of /admin/video/{id} and /api/v1/video/{slug} takes the slug). */
export function getVideo(slug: string): VideoRow | null {
  if (!slug || slug.length > 64) return null;
  const row = db
    .select(rowColumns)
    .from(videos)
    .where(and(eq(videos.slug, slug), isNull(videos.deleted_at)))
    .get();
  return row ? withUrl(row) : null;
}

const ENTITY = "video";

function reachable(tx: Tx, slug: string): Video {
  const row = tx
    .select()
    .from(videos)
    .where(and(eq(videos.slug, slug), isNull(videos.deleted_at)))
    .get();
  if (!row) throw new FailureError(fail.notFound(VIDEO_ERRORS.notFound));
  return row;
}

function values(tx: Tx, input: VideoInput) {
  if (input.thumbnail !== undefined && !findPickerFile(tx, input.thumbnail))
    throw new FailureError(fail.field("thumbnail", FILE_ERRORS.thumbnail));
  return {
    title: input.title.replace(/\s+/g, " ").trim(),
    url: input.url,
    amount: input.amount,
    citizenship_no: input.citizenship_no ?? null,
    phone: input.phone ?? null,
    thumbnail_id: input.thumbnail ?? null,
  };
}

/** Adds a winner video; /winner-list and GET /api/v1/videos show it on the next request. */
export function createVideo(actor: ScopedActor, input: VideoInput): Result<{ video: Video }> {
  return transact((tx) => {
    const video = tx
      .insert(videos)
      .values({ ...values(tx, input), slug: randomSlug() })
      .returning()
      .get();
    audit(tx, actor, { action: "video.create", entityType: ENTITY, entityId: video.id, changes: diff(null, video) });
    return { ok: true as const, video };
  });
}

export function updateVideo(actor: ScopedActor, slug: string, input: VideoInput): Result<{ video: Video }> {
  return transact((tx) => {
    const before = reachable(tx, slug);
    const video = tx
      .update(videos)
      .set({ ...values(tx, input), updated_at: nowIso() })
      .where(eq(videos.id, before.id))
      .returning()
      .get();
    audit(tx, actor, {
      action: "video.update",
      entityType: ENTITY,
      entityId: video.id,
      changes: diff(before, video),
    });
    return { ok: true as const, video };
  });
}

/** Removes a video (nothing else names one); the audit row keeps what it was. */
export function deleteVideo(actor: ScopedActor, slug: string): Result<{ video: Video }> {
  return transact((tx) => {
    const row = reachable(tx, slug);
    tx.delete(videos).where(eq(videos.id, row.id)).run();
    audit(tx, actor, { action: "video.delete", entityType: ENTITY, entityId: row.id, changes: diff(row, null) });
    return { ok: true as const, video: row };
  });
}

/** A video as the API shows it (spec 001 §3): thumbnail (file id) with its thumbnail_url. */
export function presentVideo(row: Video | VideoRow) {
  const { deleted_at: _deleted, ...rest } = row as Video;
  return { ...rest, thumbnail: rest.thumbnail_id, thumbnail_url: fileUrl(rest.thumbnail_id) };
}
