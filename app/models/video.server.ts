/**
 * Winner videos for the public gallery (/winner-list, GET /api/v1/videos),
 * grouped by prize: ten_lakhs (1000000), one_lakh (100000), fifty_thousand
 * (50000). Winners' personal data (citizenship number, phone) stays out.
 */
import { and, asc, desc, inArray, isNull } from "drizzle-orm";
import { db, schema } from "@db/index";
import { fileUrl } from "./file.server";

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
