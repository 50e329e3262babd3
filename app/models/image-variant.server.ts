/**
 * Smaller copies of public catalogue images for phones: /files/{key}?w=240 or
 * ?w=480 answers the stored image (already WebP, at most 720 wide) scaled to
 * that width at quality 70. Each copy is made once, on its first request, and
 * kept beside the original; the originals are never changed. Only the widths
 * listed are made, so a request cannot fill the disk.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { uploadsDir } from "~/utils/config.server";
import type { StoredFile } from "./file.server";

export const VARIANT_WIDTHS = [240, 480] as const;

export const isVariantWidth = (w: number): w is (typeof VARIANT_WIDTHS)[number] =>
  (VARIANT_WIDTHS as readonly number[]).includes(w);

/** The bytes of `file` at `width` (made now if missing); null when the original is gone or cannot be read. */
export async function variantBytes(file: StoredFile, width: number): Promise<Buffer | null> {
  const original = path.join(uploadsDir(), file.path);
  const copy = `${original}.w${width}.webp`;
  if (fs.existsSync(copy)) return fs.readFileSync(copy);
  if (!fs.existsSync(original)) return null;
  try {
    const data = await sharp(original).resize({ width, withoutEnlargement: true }).webp({ quality: 70 }).toBuffer();
    const temp = `${copy}.${process.pid}.tmp`;
    fs.writeFileSync(temp, data);
    fs.renameSync(temp, copy);
    return data;
  } catch {
    return null;
  }
}
