/**
 * The spec's last fields (decision 9): a registration's `thumbnail` is its bike model's picture, in the
 * record and in the list rows; a broadcast's `send_to` says who it goes to, in words, for each category.
 */
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { fileUrl, storeImage } from "~/models/file.server";
import { loader as registrationLoader } from "~/routes/api.v1.registration.$slug";
import { loader as registrationList } from "~/routes/api.v1.registration";
import { loader as smsLoader } from "~/routes/api.v1.sms.$id";
import { PERMISSIONS } from "~/utils/permissions";
import { makeBikeModel, makeBranch } from "../fixtures";
import { makeRegistration } from "../referral-fixtures";
import { call, req, staffWith } from "../route-helpers";

let token = "";
let branch: ReturnType<typeof makeBranch>;
beforeAll(async () => {
  token = (await staffWith([...PERMISSIONS])).token;
  branch = makeBranch({ title: "Pokhara Lakeside" });
});

describe("registration.thumbnail", () => {
  it("is the bike model's picture, in the record and the list rows; null for a model without one", async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#c00" } })
      .png()
      .toBuffer();
    const file = await storeImage(png, { type: "bike-model", filename: "m.png" });
    const model = makeBikeModel(`Thumb ${Date.now()}`);
    db.update(schema.bikeModels).set({ thumbnail_id: file.id }).where(eq(schema.bikeModels.id, model.id)).run();
    const reg = makeRegistration(branch.id, { bike_model_id: model.id });
    const one = await call(registrationLoader as never, req("GET", `/api/v1/registration/${reg.slug}`, { token }), {
      slug: reg.slug,
    });
    expect((await one.json()).data.thumbnail).toBe(fileUrl(file.id));
    const list = await call(registrationList as never, req("GET", `/api/v1/registration?length=100`, { token }));
    const rows = (await list.json()).data as { slug: string; thumbnail: string | null }[];
    expect(rows.find((r) => r.slug === reg.slug)?.thumbnail).toBe(fileUrl(file.id));
    const bare = makeRegistration(branch.id, { bike_model_id: makeBikeModel(`Bare ${Date.now()}`).id });
    const plain = await call(registrationLoader as never, req("GET", `/api/v1/registration/${bare.slug}`, { token }), {
      slug: bare.slug,
    });
    expect((await plain.json()).data.thumbnail).toBeNull();
  });
});

describe("sms.send_to", () => {
  const broadcast = (values: Partial<typeof schema.smsBroadcasts.$inferInsert>) =>
    db
      .insert(schema.smsBroadcasts)
      .values({ text: "Offer", prepared_at: new Date().toISOString(), ...values })
      .returning()
      .get().id;
  const sendTo = async (id: number) =>
    (await (await call(smsLoader as never, req("GET", `/api/v1/sms/${id}`, { token }), { id: String(id) })).json()).data
      .send_to;

  it("says who a broadcast goes to, for each category", async () => {
    expect(await sendTo(broadcast({ type: "ALL" }))).toBe("All customers");
    expect(await sendTo(broadcast({ type: "ALL", scope_branch_id: branch.id }))).toBe(
      "All customers of Pokhara Lakeside",
    );
    expect(await sendTo(broadcast({ type: "BRANCH", branches: JSON.stringify([branch.id]) }))).toBe(
      "Customers of Pokhara Lakeside",
    );
    expect(await sendTo(broadcast({ type: "REGISTRANTS", registrants: JSON.stringify([1, 2, 3]) }))).toBe(
      "3 chosen customers",
    );
    const typed = broadcast({ type: "MOBILE" });
    db.insert(schema.smsBroadcastMobiles)
      .values({ broadcast_id: typed, mobiles: JSON.stringify(["9851000000"]), count: 1 })
      .run();
    expect(await sendTo(typed)).toBe("1 typed number");
  });
});
