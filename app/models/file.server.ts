/**
 * Uploaded images: JPEG, PNG or WebP only (checked by decoding, not by name),
 * at most 10 MB and 40 megapixels in, scaled to fit 720 x 1280 at quality 80
 * out, stored outside the public folder and served by /files/{key} (an
 * unguessable key, never the sequential id).
 */
import { and, desc, eq, inArray, notInArray } from "drizzle-orm";
import fs from "node:fs";
import path from "node:path";
import type { Metadata, OutputInfo } from "sharp";
import { imageHashes, type ImageHashes } from "~/utils/image-hash.server";
import { db, schema, type Executor } from "@db/index";
import { uploadsDir } from "~/utils/config.server";
import { randomToken } from "~/utils/crypto.server";
import { can, type Permission, type PermissionHolder } from "~/utils/permissions";
import { audit, diff } from "./audit.server";
import { fail, FailureError, type Failure, type Result } from "~/utils/failure";
import type { ScopedActor } from "./scope.server";
import { transact } from "./transaction.server";
import { IMAGE_BOUND, IMAGE_TOO_LARGE, IMAGE_WRONG_TYPE, MAX_UPLOAD_BYTES } from "~/schemas/image";

export const MAX_PIXELS = 40_000_000;
export const UPLOAD_FAILED = "Something went wrong! Please check the file and try again.";

/**
 * An image refused by the image rules: a FailureError whose Failure is too
 * large (over 10 MB) or invalid (type, size in pixels, unreadable) under
 * `file`; each caller puts the message under its own field.
 */
export class UploadError extends FailureError {
  constructor(message: string, tooLarge = false) {
    super(tooLarge ? fail.tooLarge(message, "file") : fail.field("file", message));
    this.name = "UploadError";
  }
}

const TOO_LARGE = IMAGE_TOO_LARGE;

/** File types that hold personal data: served to signed-in staff only. */
export const PRIVATE_FILE_TYPES = ["screenshot"];

const ACCEPTED = new Set(["jpeg", "png", "webp"]);

export type StoredFile = typeof schema.files.$inferSelect;

/** An image decoded, checked and bounded, not yet stored. */
export type PreparedImage = { data: Buffer; width: number; height: number; filename: string };

/**
 * Decodes, checks and bounds an image without storing anything: JPEG, PNG or
 * WebP by content, at most 10 MB and 40 megapixels in; rotated upright, fit in
 * 720 x 1280, metadata dropped, WebP at quality 80 out. Throws UploadError.
 */
export async function prepareImage(input: Buffer, filename: string): Promise<PreparedImage> {
  if (input.length === 0) throw new UploadError(UPLOAD_FAILED);
  if (input.length > MAX_UPLOAD_BYTES) throw new UploadError(TOO_LARGE, true);
  // Loaded on the first image, not at start: libvips is about 19 MB a server that takes no image never needs.
  const { default: sharp } = await import("sharp");
  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: MAX_PIXELS }).metadata();
  } catch (e) {
    // A header declaring more pixels than sharp will open is an image too large, not a wrong type.
    if (e instanceof Error && /pixel limit/i.test(e.message))
      throw new UploadError("The image may not exceed 40 megapixels.");
    throw new UploadError(IMAGE_WRONG_TYPE);
  }
  if (!meta.format || !ACCEPTED.has(meta.format)) throw new UploadError(IMAGE_WRONG_TYPE);
  if ((meta.width ?? 0) * (meta.height ?? 0) > MAX_PIXELS)
    throw new UploadError("The image may not exceed 40 megapixels.");
  let out: { data: Buffer; info: OutputInfo };
  try {
    out = await sharp(input, { limitInputPixels: MAX_PIXELS })
      .rotate()
      .resize({ width: IMAGE_BOUND.width, height: IMAGE_BOUND.height, fit: "inside", withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw new UploadError(UPLOAD_FAILED);
  }
  return { data: out.data, width: out.info.width, height: out.info.height, filename };
}

/** Writes a prepared image under the uploads folder; returns its storage path (relative). */
function writeImage(type: string, image: PreparedImage): string {
  const key = path.join(type.replace(/[^a-z0-9-]/gi, ""), `${randomToken(12)}.webp`);
  const full = path.join(uploadsDir(), key);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, image.data);
  return key;
}

/** Removes written images again (a transaction that was to record them failed). */
function removeImages(paths: string[]) {
  for (const p of paths) fs.rmSync(path.join(uploadsDir(), p), { force: true });
}

/** The files row of a written image, inserted through `exec` (the database or an open transaction). */
function insertFileRow(
  exec: Executor,
  {
    type,
    image,
    storedAt,
    uploadedBy,
    hashes,
  }: { type: string; image: PreparedImage; storedAt: string; uploadedBy: number | null; hashes?: ImageHashes | null },
): StoredFile {
  return exec
    .insert(schema.files)
    .values({
      key: randomToken(18),
      type,
      filename: image.filename.slice(0, 200) || "image",
      path: storedAt,
      mime: "image/webp",
      width: image.width,
      height: image.height,
      size: image.data.length,
      uploaded_by: uploadedBy,
      dhash: hashes?.dhash ?? null,
      dhash256: hashes?.dhash256 ?? null,
    })
    .returning()
    .get();
}

/** Decodes, bounds and stores an image; returns its files row. */
export async function storeImage(
  input: Buffer,
  { type, filename, uploadedBy }: { type: string; filename: string; uploadedBy?: number | null },
): Promise<StoredFile> {
  const image = await prepareImage(input, filename);
  // A proof screenshot keeps its perceptual hashes, taken from the stored image (decision 21).
  const hashes = type === "screenshot" ? await imageHashes(image.data) : null;
  const storedAt = writeImage(type, image);
  return insertFileRow(db, { type, image, storedAt, uploadedBy: uploadedBy ?? null, hashes });
}

/** Reads an uploaded File (multipart) and stores it. */
export async function storeUpload(file: File, type: string, uploadedBy?: number | null) {
  if (file.size > MAX_UPLOAD_BYTES) throw new UploadError(TOO_LARGE, true);
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

// ---------------------------------------------------------------- the file picker

/**
 * The picker's categories (GET /api/v1/file?type=) and the permissions that
 * open each: the forms that choose an image of that kind. "general" is open
 * to anyone holding one of them. Proof screenshots are never in the picker.
 */
export const PICKER_TYPES = ["bike-model", "video", "logo", "general"] as const;
export type PickerType = (typeof PICKER_TYPES)[number];
export const FILE_TYPE_MESSAGE = `Choose a file type: ${PICKER_TYPES.join(", ")}.`;

export const PICKER_PERMISSIONS: Record<Exclude<PickerType, "general">, Permission[]> = {
  "bike-model": ["create-bike-model", "update-bike-model"],
  video: ["create-video", "update-video"],
  logo: ["update-settings"],
};

export const isPickerType = (value: unknown): value is PickerType =>
  typeof value === "string" && (PICKER_TYPES as readonly string[]).includes(value);

/** The picker types a staff member may list and upload to (none: no picker at all). */
export function pickerTypesFor(user: PermissionHolder): PickerType[] {
  const types = (Object.keys(PICKER_PERMISSIONS) as Exclude<PickerType, "general">[]).filter((t) =>
    PICKER_PERMISSIONS[t].some((p) => can(user, p)),
  );
  return types.length ? [...types, "general"] : [];
}

/** A stored image as the picker and the API show it: File (spec 001 §3) id, filename, thumbnail. */
export type PickerFile = {
  id: number;
  key: string;
  url: string;
  thumbnail: string;
  filename: string;
  type: string;
  width: number | null;
  height: number | null;
  created_at: string;
};

export function presentFile(row: StoredFile): PickerFile {
  const url = `/files/${row.key}`;
  return {
    id: row.id,
    key: row.key,
    url,
    thumbnail: url,
    filename: row.filename,
    type: row.type,
    width: row.width,
    height: row.height,
    created_at: row.created_at,
  };
}

export const PICKER_PAGE = 48;

/** The newest images of the given picker types (never a private file), newest first. */
export function listPickerFiles(types: readonly PickerType[], limit = PICKER_PAGE): PickerFile[] {
  if (!types.length) return [];
  return db
    .select()
    .from(schema.files)
    .where(and(inArray(schema.files.type, [...types]), notInArray(schema.files.type, PRIVATE_FILE_TYPES)))
    .orderBy(desc(schema.files.id))
    .limit(Math.max(1, Math.min(200, limit)))
    .all()
    .map(presentFile);
}

/** An image a catalogue record may show (any type but a private one), or null. */
export function findPickerFile(exec: Executor, id: number | null | undefined): PickerFile | null {
  if (!id || !Number.isSafeInteger(id)) return null;
  const row = exec
    .select()
    .from(schema.files)
    .where(and(eq(schema.files.id, id), notInArray(schema.files.type, PRIVATE_FILE_TYPES)))
    .get();
  return row ? presentFile(row) : null;
}

/** The recent images of a type (and general), with the record's current image kept in the list. */
export function pickerChoices(type: PickerType, currentId?: number | null): PickerFile[] {
  const files = listPickerFiles([type, "general"]);
  if (currentId && !files.some((f) => f.id === currentId)) {
    const current = findPickerFile(db, currentId);
    if (current) files.unshift(current);
  }
  return files;
}

export const FILE_ERRORS = {
  thumbnail: "Choose an image from the picker or upload one.",
  none: "Choose at least one image to upload.",
  tooMany: (max: number) => `Upload at most ${max} images at a time.`,
} as const;

export const MAX_FILES_PER_UPLOAD = 10;

/** One upload as the model takes it: the bytes and the name the browser gave. */
export type UploadInput = { filename: string; bytes: Buffer };

/** The failure of an upload: the spec's message, with the reason as the field's second message. */
export function uploadFailure(field: string, reason?: string): Failure {
  const errors = reason && reason !== UPLOAD_FAILED ? [UPLOAD_FAILED, reason] : [UPLOAD_FAILED];
  return fail.invalid({ [field]: errors }, UPLOAD_FAILED);
}

/**
 * Stores images uploaded through the picker (POST /api/v1/upload, the forms'
 * upload areas): every one through the image rules first, then all rows and
 * their audit entries in one transaction. One bad image refuses them all and
 * nothing is stored.
 */
export async function uploadImages(
  actor: ScopedActor,
  { type, files, field = "files" }: { type: PickerType; files: UploadInput[]; field?: string },
): Promise<Result<{ files: PickerFile[] }>> {
  if (!files.length) return fail.invalid({ [field]: [FILE_ERRORS.none] });
  if (files.length > MAX_FILES_PER_UPLOAD)
    return fail.invalid({ [field]: [FILE_ERRORS.tooMany(MAX_FILES_PER_UPLOAD)] });
  const prepared: PreparedImage[] = [];
  for (const f of files) {
    try {
      prepared.push(await prepareImage(f.bytes, f.filename));
    } catch (e) {
      if (e instanceof UploadError) return uploadFailure(field, e.message);
      throw e;
    }
  }
  const written: string[] = [];
  try {
    for (const image of prepared) written.push(writeImage(type, image));
    const result = transact((tx) => {
      const rows = prepared.map((image, i) =>
        insertFileRow(tx, { type, image, storedAt: written[i], uploadedBy: actor.id }),
      );
      for (const row of rows) {
        audit(tx, actor, {
          action: "file.upload",
          entityType: "file",
          entityId: row.id,
          changes: diff(null, { type: row.type, filename: row.filename, width: row.width, height: row.height }),
        });
      }
      return { ok: true as const, files: rows.map(presentFile) };
    });
    if (!result.ok) removeImages(written);
    return result;
  } catch (e) {
    removeImages(written);
    throw e;
  }
}
