/**
 * Perceptual hashes of a proof screenshot, so one screenshot behind several entries is found though
 * it was re-encoded or resized on its way (decision 21, "Shared screenshots"). A difference hash: the
 * image shrunk by sharp to a grid of grey cells one column wider than tall, each bit telling whether
 * a cell is darker than its right-hand neighbour. Two sizes are kept, as hex:
 * - `dhash`, 64 bits (a 9 x 8 grid), the screenshot's short fingerprint in the evidence. It cannot be
 *   the test: screenshots of one social post share its layout, and two people's screenshots of the
 *   campaign's post are as close in 64 bits as one screenshot and its re-encoded copy;
 * - `dhash256`, 256 bits (17 x 16): the test. Copies differ in at most SAME_SCREENSHOT_BITS bits, two
 *   different screenshots in more (tests/integration/screenshot-hash.test.ts measures both). Its 16
 *   rows of 16 bits are the search's buckets: two hashes within 15 bits share a row by pigeonhole, and
 *   the copies measured within 19 bits did too.
 * Images with transparency are read on white.
 */
export type ImageHashes = { dhash: string; dhash256: string };

/** Two screenshots are one when their 256-bit hashes differ in at most this many bits. */
export const SAME_SCREENSHOT_BITS = 19;

/** The difference bits of a w x h grey grid (w - 1 comparisons a row), as hex. */
function differenceHex(grid: Buffer, w: number, h: number): string {
  let hex = "";
  let nibble = 0;
  let n = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w - 1; x++) {
      nibble = (nibble << 1) | (grid[y * w + x] < grid[y * w + x + 1] ? 1 : 0);
      if (++n === 4) {
        hex += nibble.toString(16);
        nibble = 0;
        n = 0;
      }
    }
  }
  return hex;
}

/** The two hashes of an image (any format sharp reads). */
export async function imageHashes(input: Buffer): Promise<ImageHashes> {
  // Loaded on the first image, as the upload does (app/models/file.server.ts).
  const { default: sharp } = await import("sharp");
  const grid = async (w: number, h: number) => {
    const { data, info } = await sharp(input)
      .flatten({ background: "#ffffff" })
      .resize(w, h, { fit: "fill" })
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 1) throw new Error(`a grey grid has one channel, not ${info.channels}`);
    return data;
  };
  const [small, large] = await Promise.all([grid(9, 8), grid(17, 16)]);
  return { dhash: differenceHex(small, 9, 8), dhash256: differenceHex(large, 17, 16) };
}

/** A hash as 32-bit words, for counting differing bits quickly. */
export function hashWords(hex: string): Uint32Array {
  const words = new Uint32Array(hex.length / 8);
  for (let i = 0; i < words.length; i++) words[i] = Number.parseInt(hex.slice(i * 8, i * 8 + 8), 16);
  return words;
}

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** How many bits two hashes of one size differ in. */
export function hammingWords(a: Uint32Array, b: Uint32Array): number {
  let n = 0;
  for (let i = 0; i < a.length; i++) n += popcount32(a[i] ^ b[i]);
  return n;
}

export const hamming = (a: string, b: string) => hammingWords(hashWords(a), hashWords(b));

/** Whether two screenshots are one image (re-encoded or resized) by their hashes. */
export const sameScreenshot = (a: ImageHashes, b: ImageHashes) =>
  hamming(a.dhash256, b.dhash256) <= SAME_SCREENSHOT_BITS;

/** The 256-bit hash's sixteen rows of 16 bits, the search's buckets. */
export function hashBands(dhash256: string): number[] {
  return Array.from({ length: dhash256.length / 4 }, (_, i) => Number.parseInt(dhash256.slice(i * 4, i * 4 + 4), 16));
}
