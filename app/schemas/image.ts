/**
 * The image rules both sides keep: the server decodes, refuses and bounds every
 * upload (app/models/file.server.ts); the browser checks the same limits the
 * moment a file is chosen and scales an image down before sending it.
 */

/** The largest upload taken: 10 MB. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Stored images fit in this box (spec 000 §5). */
export const IMAGE_BOUND = { width: 720, height: 1280 } as const;
/** The types taken, by their MIME names (plain data: the public scripts get it at build time). */
export const IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp"];

export const IMAGE_TOO_LARGE = "The image may not be larger than 10 MB.";
export const IMAGE_WRONG_TYPE = "Only JPEG, PNG or WebP images are accepted.";
