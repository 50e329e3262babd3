/**
 * The demo data passes its own rules: every seeded branch, bike model, user and video, read through
 * its API and saved back unchanged by head office, is accepted (200) and stays as it was, both as a
 * partial update of one field (PATCH with its own title or name) and as the whole record (POST with
 * every field its form sends). A seeded value the form refuses would make any later change to that
 * record fail on a field nobody touched.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { DEMO_USERS } from "@db/seed";
import { loader as branchOne, action as branchSave } from "~/routes/api.v1.branch.$slug";
import { loader as modelOne, action as modelSave } from "~/routes/api.v1.bike-model.$slug";
import { loader as userOne, action as userSave } from "~/routes/api.v1.user.$id";
import { loader as videoOne, action as videoSave } from "~/routes/api.v1.video.$slug";
import { issueToken } from "~/http/api.server";
import { call, req } from "../route-helpers";

type Loader = Parameters<typeof call>[0];
type Record = { [key: string]: unknown };

let token = "";
beforeAll(async () => {
  const { seed } = await import("@db/seed");
  await seed();
  const admin = db
    .select()
    .from(schema.users)
    .all()
    .find((u) => u.email === DEMO_USERS.admin)!;
  token = issueToken(admin.id, false).token;
}, 120_000);

/** A record as its API gives it. */
async function read(loader: Loader, param: string, key: string): Promise<Record> {
  const res = await call(loader, req("GET", `/api/v1/x/${key}`, { token }), { [param]: key });
  expect(res.status, key).toBe(200);
  return ((await res.json()) as { data: Record }).data;
}

/** Saves `body` to the record and reads it back; the answer must be 200. */
async function save(action: Loader, method: string, param: string, key: string, body: Record) {
  const res = await call(action, req(method, `/api/v1/x/${key}`, { token, json: body }), { [param]: key });
  const answer = (await res.json()) as { message?: string; errors?: unknown };
  expect(res.status, `${method} ${key}: ${JSON.stringify(answer)}`).toBe(200);
}

const pick = (record: Record, fields: string[]) => Object.fromEntries(fields.map((f) => [f, record[f] ?? null]));
const idOf = (value: unknown) => (value && typeof value === "object" ? (value as { id?: unknown }).id : value);

type Area = {
  name: string;
  keys: () => string[];
  param: string;
  loader: Loader;
  action: Loader;
  /** One field sent alone, and every field the form sends (ids for the chosen records). */
  one: string;
  whole: (r: Record) => Record;
};

const AREAS: Area[] = [
  {
    name: "branch",
    keys: () =>
      db
        .select()
        .from(schema.branches)
        .all()
        .map((b) => b.slug),
    param: "slug",
    loader: branchOne as Loader,
    action: branchSave as Loader,
    one: "title",
    whole: (r) => pick(r, ["title", "state", "district", "city", "location", "email", "phone", "mobile"]),
  },
  {
    name: "bike model",
    keys: () =>
      db
        .select()
        .from(schema.bikeModels)
        .all()
        .map((m) => m.slug),
    param: "slug",
    loader: modelOne as Loader,
    action: modelSave as Loader,
    one: "title",
    whole: (r) => ({ title: r.title, thumbnail: idOf(r.thumbnail_id ?? r.thumbnail) }),
  },
  {
    name: "user",
    keys: () =>
      db
        .select()
        .from(schema.users)
        .all()
        .filter((u) => !u.deleted_at)
        .map((u) => u.slug),
    param: "id",
    loader: userOne as Loader,
    action: userSave as Loader,
    one: "first_name",
    whole: (r) => ({
      ...pick(r, ["first_name", "last_name", "email", "phone", "sex", "address"]),
      branch_id: r.branch_id ?? null,
      role_id: r.role_id,
    }),
  },
  {
    name: "video",
    keys: () =>
      db
        .select()
        .from(schema.videos)
        .all()
        .map((v) => v.slug),
    param: "slug",
    loader: videoOne as Loader,
    action: videoSave as Loader,
    one: "title",
    whole: (r) => ({
      ...pick(r, ["title", "url", "amount", "citizenship_no"]),
      thumbnail: idOf(r.thumbnail_id ?? r.thumbnail),
    }),
  },
];

describe("every seeded record saves unchanged through its API", () => {
  for (const area of AREAS) {
    it(`every ${area.name}: its own ${area.one} alone (PATCH), and the whole record (POST)`, async () => {
      const keys = area.keys();
      expect(keys.length, area.name).toBeGreaterThan(2);
      for (const key of keys) {
        const before = await read(area.loader, area.param, key);
        await save(area.action, "PATCH", area.param, key, { [area.one]: before[area.one] });
        await save(area.action, "POST", area.param, key, area.whole(before));
        const after = await read(area.loader, area.param, key);
        const { updated_at: _a, ...was } = before;
        const { updated_at: _b, ...is } = after;
        expect(is, `${area.name} ${key}`).toEqual(was);
      }
    });
  }
});
