/**
 * Every update call changes only what it names (decision 9, docs/api.md): for any subset of a
 * record's fields sent to its update call (PATCH or the spec's POST), each field sent is stored and
 * every other column of the row is as it was; `null` clears an optional field; a required field
 * sent empty is refused with its message under it and nothing is saved. Property tests (fast-check)
 * through the real routes on the real database.
 */
import fc from "fast-check";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { storeImage } from "~/models/file.server";
import { createUser, roleBySlug } from "~/models/user.server";
import { action as branchAction } from "~/routes/api.v1.branch.$slug";
import { action as modelAction } from "~/routes/api.v1.bike-model.$slug";
import { action as videoAction } from "~/routes/api.v1.video.$slug";
import { action as userAction } from "~/routes/api.v1.user.$id";
import { action as registrationAction } from "~/routes/api.v1.registration.$slug";
import { action as allocationAction } from "~/routes/api.v1.allocation.$id";
import { action as preregistrationAction } from "~/routes/api.v1.preregistration.$id";
import { action as settingAction } from "~/routes/api.v1.setting";
import { readSettings } from "~/models/settings.server";
import { SOURCE_OPTIONS } from "~/schemas/preregistration";
import { PERMISSIONS } from "~/utils/permissions";
import { VIDEO_AMOUNTS } from "~/schemas/video";
import { makeAllocation, makeBikeModel, makeBranch, makePreregistration } from "../fixtures";
import { makeRegistration } from "../referral-fixtures";
import { call, req, staffWith } from "../route-helpers";

let token = "";
let thumbnail = 0;
let n = 0;
const uniq = () => `${++n}${Math.random().toString(36).slice(2, 6)}`;
const RUNS = { numRuns: 25 };

beforeAll(async () => {
  token = (await staffWith([...PERMISSIONS])).token;
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#08c" } })
    .png()
    .toBuffer();
  thumbnail = (await storeImage(png, { type: "bike-model", filename: "t.png" })).id;
});

type Row = Record<string, unknown>;

/**
 * Sends `sent` to the update call and checks the row after it: every column not named by a sent field
 * as before, each sent field as `expected` says.
 */
async function checkUpdate(
  send: (body: Row) => Promise<Response>,
  read: () => Row,
  sent: Row,
  derived: Record<string, string[]> = {},
) {
  const before = read();
  const res = await send(sent);
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(200);
  const after = read();
  // A column made from sent fields (a user's name from first and last name) may change with them.
  const touched = new Set(Object.keys(sent));
  for (const [column, from] of Object.entries(derived)) if (from.some((f) => f in sent)) touched.add(column);
  for (const [column, value] of Object.entries(before)) {
    if (column === "updated_at" || touched.has(column)) continue;
    expect(after[column], `${column} was not sent`).toEqual(value);
  }
  for (const [field, value] of Object.entries(sent)) expect(after[field]).toEqual(value);
}

/** A random non-empty subset of the fields' generators. */
const subsetOf = (fields: Record<string, fc.Arbitrary<unknown>>) =>
  fc.record(fields, { requiredKeys: [] }).filter((r) => Object.keys(r).length > 0);

const word = fc.stringMatching(/^[A-Z][a-z]{2,9}$/);
const mobile = fc.integer({ min: 10_000_000, max: 99_999_999 }).map((d) => `98${d}`);

describe("PATCH /api/v1/branch/{slug}", () => {
  it("changes only the fields sent", async () => {
    const branch = makeBranch({
      location: "Main road",
      email: "b@example.test",
      phone: "01-4411223",
      mobile: "9851012345",
    });
    const read = () => db.select().from(schema.branches).where(eq(schema.branches.id, branch.id)).get() as Row;
    const send = (json: Row) =>
      call(branchAction as never, req("PATCH", `/api/v1/branch/${branch.slug}`, { token, json }), {
        slug: branch.slug,
      });
    await fc.assert(
      fc.asyncProperty(
        subsetOf({
          title: word.map((w) => `${w} ${uniq()}`),
          location: word,
          email: word.map((w) => `${w.toLowerCase()}@example.test`),
          mobile,
          one_lakh_allocation_count: fc.integer({ min: 0, max: 1000 }),
        }),
        (sent) => checkUpdate(send, read, sent),
      ),
      RUNS,
    );
    // The review's case: four fields sent, the others kept.
    await send({ title: `Kept ${uniq()}`, state: branch.state, district: branch.district, city: branch.city });
    expect(read()).toMatchObject({ email: expect.any(String), phone: expect.any(String), mobile: expect.any(String) });
  });

  it("null clears an optional field; a required one sent empty is refused under it, nothing saved", async () => {
    const branch = makeBranch({ location: "Main road", email: "c@example.test" });
    const read = () => db.select().from(schema.branches).where(eq(schema.branches.id, branch.id)).get()!;
    const send = (json: Row) =>
      call(branchAction as never, req("PATCH", `/api/v1/branch/${branch.slug}`, { token, json }), {
        slug: branch.slug,
      });
    expect((await send({ location: null, email: "" })).status).toBe(200);
    expect(read()).toMatchObject({ location: null, email: null, title: branch.title });
    const refused = await send({ title: "", location: "Back again" });
    expect(refused.status).toBe(422);
    expect(Object.keys((await refused.json()).errors)).toEqual(["title"]);
    expect(read().location).toBeNull();
  });
});

describe("PATCH /api/v1/bike-model/{slug}", () => {
  it("changes only the fields sent: a new title keeps the thumbnail", async () => {
    const model = makeBikeModel(`Model ${uniq()}`);
    db.update(schema.bikeModels).set({ thumbnail_id: thumbnail }).where(eq(schema.bikeModels.id, model.id)).run();
    const read = () => db.select().from(schema.bikeModels).where(eq(schema.bikeModels.id, model.id)).get() as Row;
    const send = (json: Row) =>
      call(modelAction as never, req("PATCH", `/api/v1/bike-model/${model.slug}`, { token, json }), {
        slug: model.slug,
      });
    await fc.assert(
      fc.asyncProperty(subsetOf({ title: word.map((w) => `${w} ${uniq()}`) }), (sent) => checkUpdate(send, read, sent)),
      RUNS,
    );
    expect(read().thumbnail_id).toBe(thumbnail);
  });
});

describe("PATCH /api/v1/video/{slug}", () => {
  it("changes only the fields sent", async () => {
    const video = db
      .insert(schema.videos)
      .values({
        slug: `v${uniq()}`,
        title: "Winner",
        url: "https://example.test/v/1",
        amount: VIDEO_AMOUNTS[0].amount,
        citizenship_no: "12-34",
        phone: "9851000000",
        thumbnail_id: thumbnail,
      })
      .returning()
      .get();
    const read = () => db.select().from(schema.videos).where(eq(schema.videos.id, video.id)).get() as Row;
    const send = (json: Row) =>
      call(videoAction as never, req("PATCH", `/api/v1/video/${video.slug}`, { token, json }), { slug: video.slug });
    await fc.assert(
      fc.asyncProperty(
        subsetOf({
          title: word,
          url: word.map((w) => `https://example.test/${w}`),
          amount: fc.constantFrom(...VIDEO_AMOUNTS.map((a) => a.amount)),
          citizenship_no: fc.stringMatching(/^[0-9]{2,8}$/),
          phone: mobile,
        }),
        (sent) => checkUpdate(send, read, sent),
      ),
      RUNS,
    );
    expect(read().thumbnail_id).toBe(thumbnail);
  });
});

describe("PATCH /api/v1/user/{id}", () => {
  it("changes only the fields sent: the address stays", async () => {
    const user = await createUser({
      first_name: "Partial",
      last_name: "Person",
      email: `partial-${uniq()}@example.test`,
      phone: "9841234567",
      address: "Baneshwor",
      role_id: roleBySlug("branch-staff")!.id,
      branch_id: makeBranch().id,
      password: "Secret-pass-9",
    });
    const read = () => {
      const { password_hash: _h, ...row } = db.select().from(schema.users).where(eq(schema.users.id, user.id)).get()!;
      return row as Row;
    };
    const send = (json: Row) =>
      call(userAction as never, req("PATCH", `/api/v1/user/${user.slug}`, { token, json }), { id: user.slug });
    await fc.assert(
      fc.asyncProperty(
        subsetOf({
          first_name: word,
          last_name: word,
          address: word,
          phone: mobile,
          sex: fc.constantFrom("MALE", "FEMALE"),
        }),
        (sent) => checkUpdate(send, read, sent, { name: ["first_name", "last_name"] }),
      ),
      RUNS,
    );
  });
});

describe("POST /api/v1/registration/{slug}", () => {
  it("changes only the fields sent", async () => {
    // Stored as the form stores them (vehicle numbers in capitals).
    const tag = uniq().toUpperCase();
    const branchId = makeBranch().id;
    const reg = makeRegistration(branchId, {
      pan: "PAN1",
      email: "r@example.test",
      note: "First note",
      engine_no: `EN-${tag}`,
      chasis_no: `CH-${tag}`,
      registration_no: `RN-${tag}`,
      bill_no: `B${branchId}-${tag}`, // with its branch's prefix, as stored
      coupon_code: `TH-${tag}`,
    });
    const read = () => db.select().from(schema.registrations).where(eq(schema.registrations.id, reg.id)).get() as Row;
    const send = (json: Row) =>
      call(registrationAction as never, req("POST", `/api/v1/registration/${reg.slug}`, { token, json }), {
        slug: reg.slug,
      });
    await fc.assert(
      fc.asyncProperty(
        subsetOf({
          name: word.map((w) => `${w} Customer`),
          address: word,
          note: word,
          pan: fc.stringMatching(/^[A-Z0-9]{3,9}$/),
          payment_mode: fc.constantFrom("CASH", "FINANCE"),
        }),
        (sent) => checkUpdate(send, read, sent),
      ),
      RUNS,
    );
  });
});

describe("PATCH /api/v1/allocation/{id}", () => {
  it("changes the count alone", async () => {
    const pool = makeAllocation({
      type: "preregistration_public",
      date: "2030-01-01",
      amount: 5000,
      count: 1,
      probability: 10,
    });
    const read = () => db.select().from(schema.allocations).where(eq(schema.allocations.id, pool.id)).get() as Row;
    const send = (json: Row) =>
      call(allocationAction as never, req("PATCH", `/api/v1/allocation/${pool.id}`, { token, json }), {
        id: String(pool.id),
      });
    await fc.assert(
      fc.asyncProperty(subsetOf({ count: fc.integer({ min: 1, max: 5 }) }), (sent) => checkUpdate(send, read, sent)),
      RUNS,
    );
  });
});

describe("POST /api/v1/preregistration/{id}", () => {
  it("changes only the fields sent; null clears an optional one", async () => {
    const pre = makePreregistration({ email: "p@example.test", note: "Walk-in", source: "NEWSPAPER" });
    const read = () =>
      db.select().from(schema.preregistrations).where(eq(schema.preregistrations.id, pre.id)).get() as Row;
    const send = (json: Row) =>
      call(preregistrationAction as never, req("POST", `/api/v1/preregistration/${pre.slug}`, { token, json }), {
        id: pre.slug,
      });
    await fc.assert(
      fc.asyncProperty(
        subsetOf({
          name: word.map((w) => `${w} Visitor`),
          address: word,
          email: word.map((w) => `${w.toLowerCase()}@example.test`),
          note: word,
          citizenship_no: fc.stringMatching(/^[1-9][0-9]{5,9}$/),
          source: fc.constantFrom(...SOURCE_OPTIONS),
        }),
        (sent) => checkUpdate(send, read, sent),
      ),
      RUNS,
    );
    expect((await send({ note: null, email: "" })).status).toBe(200);
    expect(read()).toMatchObject({ note: null, email: null, name: expect.any(String) });
    const refused = await send({ name: "" });
    expect(refused.status).toBe(422);
    expect(Object.keys((await refused.json()).errors)).toEqual(["name"]);
  });
});

describe("PATCH /api/v1/setting", () => {
  it("changes only the settings sent", async () => {
    const read = () => ({ ...readSettings() }) as Row;
    const send = (json: Row) => call(settingAction as never, req("PATCH", "/api/v1/setting", { token, json }));
    await fc.assert(
      fc.asyncProperty(
        subsetOf({
          video: word.map((w) => `https://example.test/${w}`),
          registration_open: fc.boolean(),
          closed_message: word.map((w) => `Closed for ${w}`),
          closed_message_ne: word.map((w) => `बन्द ${w}`),
        }),
        (sent) => checkUpdate(send, read, sent),
      ),
      RUNS,
    );
  });
});
