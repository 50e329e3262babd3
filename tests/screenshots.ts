/**
 * Pictures for the screenshot tests and the campaign generator: a share screenshot as a phone shows a
 * social post (status bar, the sharer's name and picture, the post's text, the campaign's picture,
 * reactions, comments, the app's bar), drawn in SVG and made a PNG by sharp; a photo of shapes; and the
 * ways a screenshot is copied before it is uploaded again (re-encoded, resized, sent through a chat app).
 * Every picture follows from its seed, so each run draws the same ones.
 */
import crypto from "node:crypto";
import sharp from "sharp";

function random(seed: string) {
  let k = 0;
  return () => crypto.createHash("sha256").update(`${seed}:${k++}`).digest().readUInt32BE(0) / 2 ** 32;
}

const NAMES = ["Ram Thapa", "Sita Shrestha", "Hari Koirala", "Gita Poudel", "Bishnu Rai", "Laxmi Tamang", "Asmita KC"];

/** The campaign's own post (the same picture in everyone's screenshot), or `ownPost: false` another post. */
export function screenshotSvg(seed: string, { ownPost = true } = {}): string {
  const r = random(seed);
  const W = 720;
  const H = 1560;
  const hue = Math.floor(r() * 360);
  const name = `${NAMES[Math.floor(r() * NAMES.length)]} ${Math.floor(r() * 100)}`;
  const at = Math.floor(r() * 500) - 250; // where the feed is scrolled to
  const dark = r() < 0.2;
  const bg = dark ? "#18191a" : "#ffffff";
  const fg = dark ? "#e4e6eb" : "#050505";
  const lines = Array.from(
    { length: 3 + Math.floor(r() * 4) },
    (_, i) =>
      `<rect x="40" y="${260 + at + i * 34}" width="${300 + Math.floor(r() * 340)}" height="18" rx="6" fill="${fg}" opacity="0.7"/>`,
  ).join("");
  const picture = ownPost
    ? `<rect x="0" y="${420 + at}" width="720" height="560" fill="#c8102e"/><circle cx="200" cy="${760 + at}" r="70" fill="#1d1d1f"/>` +
      `<circle cx="520" cy="${760 + at}" r="70" fill="#1d1d1f"/><rect x="230" y="${620 + at}" width="260" height="90" rx="20" fill="#fff"/>` +
      `<text x="360" y="${520 + at}" font-size="54" font-family="sans-serif" font-weight="700" fill="#fff" text-anchor="middle">Share It. Win It.</text>`
    : `<rect x="0" y="${420 + at}" width="720" height="560" fill="hsl(${(hue + 120) % 360},60%,45%)"/>` +
      Array.from(
        { length: 8 },
        () =>
          `<circle cx="${Math.floor(r() * 720)}" cy="${420 + at + Math.floor(r() * 560)}" r="${20 + Math.floor(r() * 120)}" fill="hsl(${Math.floor(r() * 360)},70%,${30 + Math.floor(r() * 50)}%)"/>`,
      ).join("");
  const comments = Array.from(
    { length: 6 },
    (_, i) =>
      `<circle cx="60" cy="${1120 + at + i * 90}" r="26" fill="hsl(${Math.floor(r() * 360)},50%,60%)"/>` +
      `<rect x="100" y="${1100 + at + i * 90}" width="${200 + Math.floor(r() * 380)}" height="44" rx="18" fill="${dark ? "#3a3b3c" : "#f0f2f5"}"/>`,
  ).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
<rect width="${W}" height="${H}" fill="${bg}"/>
<rect width="${W}" height="48" fill="${dark ? "#000" : "#f2f2f2"}"/><text x="24" y="34" font-size="24" font-family="sans-serif" fill="${fg}">${10 + Math.floor(r() * 12)}:${10 + Math.floor(r() * 49)}</text>
<circle cx="70" cy="${180 + at}" r="38" fill="hsl(${hue},60%,55%)"/><text x="124" y="${175 + at}" font-size="28" font-family="sans-serif" font-weight="700" fill="${fg}">${name}</text>
${lines}${picture}
<rect x="0" y="${1000 + at}" width="720" height="60" fill="${bg}"/><text x="40" y="${1040 + at}" font-size="26" font-family="sans-serif" fill="${fg}">Like ${Math.floor(r() * 900)}   ${Math.floor(r() * 90)} comments   ${Math.floor(r() * 40)} shares</text>
${comments}
<rect y="${H - 110}" width="${W}" height="110" fill="${dark ? "#242526" : "#ffffff"}" stroke="#ccc"/>
</svg>`;
}

/** A photo: overlapping shapes of every colour on a coloured ground. */
export function photoSvg(seed: string): string {
  const r = random(seed);
  const shapes = Array.from(
    { length: 30 },
    () =>
      `<ellipse cx="${Math.floor(r() * 1200)}" cy="${Math.floor(r() * 900)}" rx="${20 + Math.floor(r() * 300)}" ry="${20 + Math.floor(r() * 200)}" ` +
      `fill="hsl(${Math.floor(r() * 360)},${Math.floor(r() * 80)}%,${Math.floor(r() * 90)}%)" opacity="${(0.3 + r() * 0.7).toFixed(2)}"/>`,
  ).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="900"><rect width="1200" height="900" fill="hsl(${Math.floor(r() * 360)},40%,${30 + Math.floor(r() * 40)}%)"/>${shapes}</svg>`;
}

export const png = (svg: string) => sharp(Buffer.from(svg)).png().toBuffer();

/** The ways a picture is copied before it comes back: each a name and the copy. */
export async function copiesOf(image: Buffer): Promise<[string, Buffer][]> {
  const { width = 0 } = await sharp(image).metadata();
  return [
    ["JPEG at quality 85", await sharp(image).jpeg({ quality: 85 }).toBuffer()],
    ["JPEG at quality 50", await sharp(image).jpeg({ quality: 50 }).toBuffer()],
    ["WebP at quality 70", await sharp(image).webp({ quality: 70 }).toBuffer()],
    [
      "three quarters of the size",
      await sharp(image)
        .resize(Math.round(width * 0.75))
        .jpeg({ quality: 80 })
        .toBuffer(),
    ],
    [
      "one and a half times the size",
      await sharp(image)
        .resize(Math.round(width * 1.5))
        .jpeg({ quality: 85 })
        .toBuffer(),
    ],
    ["sent through a chat app", await sharp(image).resize(540).jpeg({ quality: 70 }).toBuffer()],
  ];
}

/** Copies that change a screenshot more than the rule allows: a smaller size, a chat app twice. */
export async function heavyCopiesOf(image: Buffer): Promise<[string, Buffer][]> {
  const { width = 0 } = await sharp(image).metadata();
  return [
    [
      "half the size",
      await sharp(image)
        .resize(Math.round(width / 2))
        .jpeg({ quality: 80 })
        .toBuffer(),
    ],
    [
      "sent through a chat app twice",
      await sharp(await sharp(image).resize(540).jpeg({ quality: 60 }).toBuffer())
        .resize(720)
        .webp({ quality: 70 })
        .toBuffer(),
    ],
  ];
}
