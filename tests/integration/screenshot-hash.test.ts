// The screenshot hashes (app/utils/image-hash.server.ts) on real re-encodings and resizes, and on
// different images: a copy of a screenshot is found as the same one, two different screenshots are
// never taken for one, though they show the same social post (the hard case: everyone shares the
// campaign's post). Every image goes through the upload's own pipeline first, as a stored file does.
import { beforeAll, describe, expect, it } from "vitest";
import { prepareImage } from "~/models/file.server";
import {
  hamming,
  hashBands,
  imageHashes,
  SAME_SCREENSHOT_BITS,
  sameScreenshot,
  type ImageHashes,
} from "~/utils/image-hash.server";
import { copiesOf, heavyCopiesOf, photoSvg, png, screenshotSvg } from "../screenshots";

const stored = async (image: Buffer) => imageHashes((await prepareImage(image, "shot.png")).data);

type Picture = { name: string; hashes: ImageHashes; copies: [string, ImageHashes][]; heavy: [string, ImageHashes][] };
const pictures: Picture[] = [];

beforeAll(async () => {
  const sources: [string, string][] = [
    ...Array.from({ length: 14 }, (_, i): [string, string] => [
      `screenshot of the campaign's post ${i}`,
      screenshotSvg(`own-${i}`),
    ]),
    ...Array.from({ length: 3 }, (_, i): [string, string] => [
      `screenshot of another post ${i}`,
      screenshotSvg(`other-${i}`, { ownPost: false }),
    ]),
    ...Array.from({ length: 3 }, (_, i): [string, string] => [`photo ${i}`, photoSvg(`photo-${i}`)]),
  ];
  for (const [name, svg] of sources) {
    const image = await png(svg);
    const copies: [string, ImageHashes][] = [];
    for (const [how, copy] of await copiesOf(image)) copies.push([how, await stored(copy)]);
    const heavy: [string, ImageHashes][] = [];
    for (const [how, copy] of await heavyCopiesOf(image)) heavy.push([how, await stored(copy)]);
    pictures.push({ name, hashes: await stored(image), copies, heavy });
  }
}, 600_000);

describe("a screenshot copied before it is uploaded again", () => {
  it("is the same screenshot, and its hash shares a row with the original's (the search finds it)", () => {
    const missed: string[] = [];
    let widest = 0;
    for (const p of pictures) {
      for (const [how, copy] of p.copies) {
        const bits = hamming(p.hashes.dhash256, copy.dhash256);
        widest = Math.max(widest, bits);
        const banded = hashBands(p.hashes.dhash256).some((b, i) => b === hashBands(copy.dhash256)[i]);
        if (!sameScreenshot(p.hashes, copy) || !banded)
          missed.push(`${p.name}, ${how}: ${bits} bits, band shared ${banded}`);
      }
    }
    console.info(`copies: at most ${widest} of 256 bits differ (the rule allows ${SAME_SCREENSHOT_BITS})`);
    expect(missed).toEqual([]);
  });

  it("a heavier copy (half the size, a chat app twice) may differ by more than the rule allows: it is not caught", () => {
    // The limit written in decision 21, measured: these copies are beyond the rule, and still far from different pictures.
    const bits = pictures.flatMap((p) => p.heavy.map(([, c]) => hamming(p.hashes.dhash256, c.dhash256)));
    console.info(`heavier copies: ${Math.min(...bits)} to ${Math.max(...bits)} of 256 bits`);
    expect(Math.max(...bits)).toBeGreaterThan(SAME_SCREENSHOT_BITS);
    expect(Math.max(...bits)).toBeLessThan(32);
  });

  it("the same bytes give the same hashes", async () => {
    const image = await png(screenshotSvg("own-0"));
    expect(await stored(image)).toEqual(pictures[0].hashes);
  });
});

describe("different pictures", () => {
  it("are never taken for one, though most show the same post", () => {
    const taken: string[] = [];
    let closest = 256;
    for (let i = 0; i < pictures.length; i++) {
      for (let j = i + 1; j < pictures.length; j++) {
        const bits = hamming(pictures[i].hashes.dhash256, pictures[j].hashes.dhash256);
        closest = Math.min(closest, bits);
        if (sameScreenshot(pictures[i].hashes, pictures[j].hashes))
          taken.push(`${pictures[i].name} / ${pictures[j].name}: ${bits} bits`);
      }
    }
    console.info(`different pictures: at least ${closest} of 256 bits differ`);
    expect(taken).toEqual([]);
  });

  it("64 bits alone would take two people's screenshots of one post for one", () => {
    // Why the comparison uses 256 bits: the smallest 64-bit distance between different screenshots of
    // the campaign's post is within what a re-encoded copy of one screenshot differs by.
    const own = pictures.filter((p) => p.name.startsWith("screenshot of the campaign's post"));
    let closest = 64;
    for (let i = 0; i < own.length; i++)
      for (let j = i + 1; j < own.length; j++)
        closest = Math.min(closest, hamming(own[i].hashes.dhash, own[j].hashes.dhash));
    const widestCopy = Math.max(...pictures.flatMap((p) => p.copies.map(([, c]) => hamming(p.hashes.dhash, c.dhash))));
    console.info(`64 bits: different screenshots of one post as close as ${closest}; copies as far as ${widestCopy}`);
    expect(closest).toBeLessThanOrEqual(widestCopy);
  });
});
