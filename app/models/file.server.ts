/**
 * Uploaded images: JPEG, PNG or WebP only (checked by decoding, not by name),
 * at most 10 MB and 40 megapixels in, scaled to fit 720 x 1280 at quality 80
 * out, stored outside the public folder and served by /files/{key} (an
 * unguessable key, never the sequential id).
 */
import { desc, eq } from "drizzle-orm";
import fs from "node:fs";
import path from "node:path";
import sharp, { type Metadata, type OutputInfo } from "sharp";
import { db, schema } from "@db/index";
import { uploadsDir } from "~/utils/config.server";
import { randomToken } from "~/utils/crypto.server";

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const MAX_PIXELS = 40_000_000;
export const BOUND = { width: 720, height: 1280 };
export const UPLOAD_FAILED = "Something went wrong! Please check the file and try again.";

export class UploadError extends Error {}

/** File types that hold personal data: served to signed-in staff only. */
export const PRIVATE_FILE_TYPES = ["screenshot"];

const ACCEPTED = new Set(["jpeg", "png", "webp"]);

export type StoredFile = typeof schema.files.$inferSelect;

/** Decodes, bounds and stores an image; returns its files row. */
export async function storeImage(
  input: Buffer,
  { type, filename, uploadedBy }: { type: string; filename: string; uploadedBy?: number | null },
): Promise<StoredFile> {
  if (input.length === 0) throw new UploadError(UPLOAD_FAILED);
  if (input.length > MAX_UPLOAD_BYTES) throw new UploadError("The image may not be larger than 10 MB.");
  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: MAX_PIXELS }).metadata();
  } catch {
    throw new UploadError("Only JPEG, PNG or WebP images are accepted.");
  }
  if (!meta.format || !ACCEPTED.has(meta.format)) throw new UploadError("Only JPEG, PNG or WebP images are accepted.");
  if ((meta.width ?? 0) * (meta.height ?? 0) > MAX_PIXELS)
    throw new UploadError("The image may not exceed 40 megapixels.");
  let out: { data: Buffer; info: OutputInfo };
  try {
    out = await sharp(input, { limitInputPixels: MAX_PIXELS })
      .rotate()
      .resize({ width: BOUND.width, height: BOUND.height, fit: "inside", withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw new UploadError(UPLOAD_FAILED);
  }
  const key = path.join(type.replace(/[^a-z0-9-]/gi, ""), `${randomToken(12)}.webp`);
  const full = path.join(uploadsDir(), key);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, out.data);
  return db
    .insert(schema.files)
    .values({
      key: randomToken(18),
      type,
      filename: filename.slice(0, 200) || "image",
      path: key,
      mime: "image/webp",
      width: out.info.width,
      height: out.info.height,
      size: out.data.length,
      uploaded_by: uploadedBy ?? null,
    })
    .returning()
    .get();
}

/** Reads an uploaded File (multipart) and stores it. */
export async function storeUpload(file: File, type: string, uploadedBy?: number | null) {
  if (file.size > MAX_UPLOAD_BYTES) throw new UploadError("The image may not be larger than 10 MB.");
  return storeImage(Buffer.from(await file.arrayBuffer()), { type, filename: file.name, uploadedBy });
}

export function getFile(id: number): StoredFile | undefined {
  return db.select().from(schema.files).where(eq(schema.files.id, id)).get();
}

/** A file by the unguessable key of its address. */
export function getFileByKey(key: string): StoredFile | undefined {
  if (!/^[A-Za-z0-9_-]{16,40}$/.test(key)) return undefined;
  return db.select().from(schema.files).where(eq(schema.files.key, key)).get();
}

export function readFileBytes(file: StoredFile): Buffer | null {
  const full = path.join(uploadsDir(), file.path);
  return fs.existsSync(full) ? fs.readFileSync(full) : null;
}

export function listFiles(type?: string | null) {
  const q = db.select().from(schema.files);
  return (type ? q.where(eq(schema.files.type, type)) : q).orderBy(desc(schema.files.id)).limit(200).all();
}

/** Keys never change once written, so this process remembers them. */
const keys = new Map<number, string>();

/** The address of a stored file: /files/{key}, never its sequential id. */
export function fileUrl(id: number | null | undefined): string | null {
  if (!id) return null;
  let key = keys.get(id);
  if (!key) {
    key = db.select({ key: schema.files.key }).from(schema.files).where(eq(schema.files.id, id)).get()?.key;
    if (!key) return null;
    keys.set(id, key);
  }
  return `/files/${key}`;
}
