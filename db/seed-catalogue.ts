/**
 * Demo catalogue (development and tests): more branches in states the other
 * demo data does not use (so the public cascade of the first branches stays
 * as it was), one of them closed; more bike models with thumbnails, one
 * retired; more winner videos with thumbnails; so that every catalogue list
 * has more than one page. Made through the application's own model functions,
 * as head office would. Call once from the demo seed, after the rest.
 */
import sharp from "sharp";
import { closeBranch, createBranch } from "~/models/branch.server";
import { createBikeModel, retireBikeModel } from "~/models/bike-model.server";
import type { Result } from "~/utils/failure";
import { uploadImages } from "~/models/file.server";
import { SYSTEM_ACTOR } from "~/models/scope.server";
import { createVideo } from "~/models/video.server";
import { branchSchema } from "~/schemas/branch";
import { bikeModelSchema } from "~/schemas/bike-model";
import { videoSchema } from "~/schemas/video";
import { escapeXml, motorbikeSvg } from "./seed-art";

const BRANCHES = [
  { title: "Dharan Bikes", state: "Koshi", district: "Sunsari", city: "Dharan", phone: "025-520520/9842520520" },
  { title: "Damak Motors", state: "Koshi", district: "Jhapa", city: "Damak", phone: "023-580580" },
  { title: "Birtamod Riders", state: "Koshi", district: "Jhapa", city: "Birtamod", phone: "023-540540/9852540540" },
  { title: "Janakpur Wheels", state: "Madhesh", district: "Dhanusha", city: "Janakpur", phone: "041-520520" },
  { title: "Nepalgunj Auto", state: "Lumbini", district: "Banke", city: "Nepalgunj", phone: "081-520520/9858020520" },
  { title: "Surkhet Motors", state: "Karnali", district: "Surkhet", city: "Birendranagar", phone: "083-520520" },
  { title: "Dhangadhi Bikes", state: "Sudurpashchim", district: "Kailali", city: "Dhangadhi", phone: "091-520520" },
  {
    title: "Mahendranagar Riders",
    state: "Sudurpashchim",
    district: "Kanchanpur",
    city: "Bhimdatta",
    phone: "099-520520",
  },
  { title: "Hetauda Motors (closed)", state: "Bagmati", district: "Makwanpur", city: "Hetauda", phone: "057-520520" },
] as const;

const MODELS = [
  ["Cruiser 220", "#6a1b9a"],
  ["Sprint 160", "#00838f"],
  ["Urban 100", "#ef6c00"],
  ["Classic 350", "#37474f"],
  ["Volt E-Scooter", "#2e7d32"],
  ["Trail 250", "#4e342e"],
  ["Racer 200 (2019)", "#795548"],
] as const;

const VIDEOS = [
  { title: "Bikash wins Ten Lakhs", amount: 1_000_000, color: "#b71c1c" },
  { title: "Sunita wins One Lakh", amount: 100_000, color: "#0d47a1" },
  { title: "Manoj wins One Lakh", amount: 100_000, color: "#1565c0" },
  { title: "Rekha wins Fifty Thousand", amount: 50_000, color: "#1b5e20" },
  { title: "Arjun wins Fifty Thousand", amount: 50_000, color: "#33691e" },
  { title: "Sabina wins Fifty Thousand", amount: 50_000, color: "#558b2f" },
] as const;

async function image(type: "bike-model" | "video", title: string, color: string): Promise<number> {
  // A video's picture is its title alone: the winner page draws the play icon itself.
  const svg =
    type === "bike-model"
      ? motorbikeSvg(title, color)
      : `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400"><rect width="640" height="400" fill="${color}"/><text x="320" y="330" font-family="sans-serif" font-size="36" fill="#fff" text-anchor="middle">${escapeXml(title)}</text></svg>`;
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  const result = await uploadImages(SYSTEM_ACTOR, { type, files: [{ filename: `${title}.png`, bytes: png }] });
  if (!result.ok) throw new Error(`seed: ${result.message}`);
  return result.files[0].id;
}

function ok<T extends object>(result: Result<T>): T {
  if (!result.ok) throw new Error(`seed: ${result.message}`);
  return result;
}

export async function seedCatalogue() {
  for (const [i, b] of BRANCHES.entries()) {
    const { branch } = ok(
      createBranch(
        SYSTEM_ACTOR,
        branchSchema.parse({
          ...b,
          title: b.title.replace(" (closed)", ""),
          location: `${b.city} main road`,
          email: `dealer${i + 9}@demo.test`,
          mobile: b.phone.includes("/") ? b.phone.split("/")[1] : undefined,
          one_lakh_allocation_count: i % 3,
          ten_lakhs_allocation_count: i % 2,
        }),
      ),
    );
    if (b.title.endsWith("(closed)")) ok(closeBranch(SYSTEM_ACTOR, branch.slug));
  }
  for (const [title, color] of MODELS) {
    const thumbnail = await image("bike-model", title, color);
    const { bikeModel } = ok(createBikeModel(SYSTEM_ACTOR, bikeModelSchema.parse({ title, thumbnail })));
    if (title.includes("(2019)")) ok(retireBikeModel(SYSTEM_ACTOR, bikeModel.slug));
  }
  for (const [i, v] of VIDEOS.entries()) {
    const thumbnail = await image("video", v.title, v.color);
    ok(
      createVideo(
        SYSTEM_ACTOR,
        videoSchema.parse({
          title: v.title,
          url: `https://www.example.com/winners/story-${i + 1}`,
          amount: v.amount,
          citizenship_no: `2702${1000 + i}`,
          phone: `98510000${10 + i}`,
          thumbnail,
        }),
      ),
    );
  }
}
