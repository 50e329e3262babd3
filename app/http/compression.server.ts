/**
 * How answers are compressed. A page or a JSON answer is complete before it is
 * sent (no route defers data), so server.js gathers it and compresses it here
 * in one call, with its size told to the encoder, and sends it with its length
 * (`compressWhole`). Streamed through the compression middleware instead, each
 * flush was a round trip to a zlib thread and each answer a new encoder set up
 * for an unknown size: on two cores that cost a back-office list page more
 * time than its render (docs/decisions/0018-request-cost.md). Anything larger
 * or of another type (a download) still streams through the middleware.
 */
import zlib from "node:zlib";

/**
 * Brotli as the answers use it: quality 4, the middleware's own default, and a 256 KB window (18 bits)
 * instead of 4 MB (22 bits). A page is far smaller than either, so it compresses the same, and each
 * encoder sets up a sixteenth of the memory.
 */
export const BROTLI_PARAMS = { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_LGWIN]: 18 };

/** Answers smaller than this go as they are (the compression middleware's own threshold). */
export const COMPRESS_MIN_BYTES = 1024;

/** The largest answer gathered whole; a larger one streams. */
export const WHOLE_MAX_BYTES = 256 * 1024;

export type Encoding = "br" | "gzip" | "identity";

/** The best encoding this client accepts. */
export function pickEncoding(acceptEncoding: string | undefined): Encoding {
  const accept = (acceptEncoding ?? "").toLowerCase();
  if (/\bbr\b/.test(accept)) return "br";
  if (/\bgzip\b/.test(accept)) return "gzip";
  return "identity";
}

/** Whether an answer of this type is gathered and compressed whole: HTML pages and JSON. */
export function isWholeAnswer(contentType: string | null): boolean {
  return /^(text\/html|application\/json)\b/i.test(contentType ?? "");
}

/** A whole body in `encoding`; brotli is told its size, which spares it setting up for a larger one. */
export function compressWhole(body: Buffer, encoding: Encoding): Buffer {
  if (encoding === "br") {
    return zlib.brotliCompressSync(body, {
      params: { ...BROTLI_PARAMS, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    });
  }
  return encoding === "gzip" ? zlib.gzipSync(body) : body;
}
