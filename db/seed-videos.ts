/**
 * Demo winner videos (development and tests): two per prize group
 * (ten_lakhs 1000000, one_lakh 100000, fifty_thousand 50000), each with a
 * generated thumbnail stored like an upload. Call once from the demo seed.
 */
import sharp from "sharp";
import { getDb, schema } from "./index";
import { storeImage } from "~/models/file.server";
import { randomSlug } from "~/utils/crypto.server";

const DEMO_VIDEOS = [
  { title: "Ram wins Ten Lakhs", amount: 1_000_000, color: "#c8102e" },
  { title: "Sita wins Ten Lakhs", amount: 1_000_000, color: "#8f0b20" },
  { title: "Hari wins One Lakh", amount: 100_000, color: "#1f6feb" },
  { title: "Gita wins One Lakh", amount: 100_000, color: "#174ea6" },
  { title: "Krishna wins Fifty Thousand", amount: 50_000, color: "#2e7d32" },
  { title: "Laxmi wins Fifty Thousand", amount: 50_000, color: "#1b5e20" },
];

const escapeXml = (s: string) =>
  s.replace(/[<>&"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;" })[c]!);

async function thumbnail(title: string, color: string) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400"><rect width="640" height="400" fill="${color}"/><text x="320" y="330" font-family="sans-serif" font-size="34" fill="#fff" text-anchor="middle">${escapeXml(title)}</text></svg>`;
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  return storeImage(png, { type: "video", filename: `${title}.png` });
}

export async function seedVideos() {
  const db = getDb();
  let n = 0;
  for (const v of DEMO_VIDEOS) {
    const thumb = await thumbnail(v.title, v.color);
    n += 1;
    db.insert(schema.videos)
      .values({
        slug: randomSlug(),
        title: v.title,
        url: `https://www.example.com/winners/video-${n}`,
        amount: v.amount,
        citizenship_no: `2701${String(1000 + n)}`,
        thumbnail_id: thumb.id,
      })
      .run();
  }
}
