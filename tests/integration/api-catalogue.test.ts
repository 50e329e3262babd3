// The catalogue's calls (spec 001 §7): branch, branches, branch export, bike-model, bike-models, video,
// videos, file and upload. Each: 401 without a token, 403 without the permission, 422 with field errors,
// 404 for an unknown slug, and the success shape; a branch or model in use is 409 on DELETE.
import XLSX from "sheetjs-style";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { storeImage } from "~/models/file.server";
import { action as bikeModelAction, loader as bikeModelList } from "~/routes/api.v1.bike-model";
import { action as bikeModelOneAction, loader as bikeModelOne } from "~/routes/api.v1.bike-model.$slug";
import { action as restoreModel } from "~/routes/api.v1.bike-model.$slug.restore";
import { action as retireModel } from "~/routes/api.v1.bike-model.$slug.retire";
import { loader as bikeModels } from "~/routes/api.v1.bike-models";
import { action as branchAction, loader as branchList } from "~/routes/api.v1.branch";
import { action as branchOneAction, loader as branchOne } from "~/routes/api.v1.branch.$slug";
import { action as closeBranch } from "~/routes/api.v1.branch.$slug.close";
import { action as reopenBranch } from "~/routes/api.v1.branch.$slug.reopen";
import { loader as branchExport } from "~/routes/api.v1.branch.export";
import { loader as branches } from "~/routes/api.v1.branches";
import { loader as fileList } from "~/routes/api.v1.file";
import { action as upload } from "~/routes/api.v1.upload";
import { action as videoAction, loader as videoList } from "~/routes/api.v1.video";
import { action as videoOneAction, loader as videoOne } from "~/routes/api.v1.video.$slug";
import { loader as videos } from "~/routes/api.v1.videos";
import { makeBikeModel, makeBranch, makePreregistration } from "../fixtures";
import { call, req, staffWith } from "../route-helpers";
import { smallPng } from "./images";

type Tokens = Record<string, string>;
const t: Tokens = {};
let picture: number;
let screenshot: number;
let ownBranch: { id: number; slug: string };

const json = async (res: Response) => ({ status: res.status, body: await res.json() });

beforeAll(async () => {
  t.admin = (await staffWith(["read-branch", "create-branch", "update-branch", "read-bike-model", "create-bike-model", "update-bike-model", "read-video", "create-video", "update-video"])).token; // prettier-ignore
  t.none = (await staffWith([])).token;
  t.readBranch = (await staffWith(["read-branch"])).token;
  t.createBranch = (await staffWith(["create-branch"])).token;
  t.readModel = (await staffWith(["read-bike-model"])).token;
  t.createModel = (await staffWith(["create-bike-model"])).token;
  t.readVideo = (await staffWith(["read-video"])).token;
  t.createVideo = (await staffWith(["create-video"])).token;
  ownBranch = makeBranch({ title: "Own Branch Motors" });
  t.branchUser = (await staffWith(["read-branch", "create-branch", "update-branch"], ownBranch.id)).token;
  picture = (await storeImage(await smallPng(), { type: "bike-model", filename: "side.png" })).id;
  screenshot = (await storeImage(await smallPng(), { type: "screenshot", filename: "proof.png" })).id;
});

const BRANCH = {
  title: "Api Test Motors",
  state: "Gandaki",
  district: "Kaski",
  city: "Pokhara",
  location: "Lakeside road",
  email: "api-test@example.test",
  phone: "061-456789 / 9856012345",
  mobile: "+9779856012345",
  one_lakh_allocation_count: 2,
  ten_lakhs_allocation_count: 1,
};

describe("branch calls", () => {
  let slug: string;

  it("POST /api/v1/branch: 401, 403, 422 with field errors, 201 with the row", async () => {
    const post = (token: string | undefined, body: unknown) =>
      call(branchAction, req("POST", "/api/v1/branch", { token, json: body }));
    expect((await post(undefined, BRANCH)).status).toBe(401);
    expect((await post(t.readBranch, BRANCH)).status).toBe(403);
    const invalid = await json(
      await post(t.admin, { title: "", state: "", district: " ", email: "not-an-email", phone: "12", mobile: "123" }),
    );
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors).toEqual({
      title: ["Enter the branch name."],
      state: ["Choose the state (zone)."],
      district: ["Choose the district."],
      city: ["Enter the city."],
      email: ["Enter a valid email address."],
      phone: ['Enter phone numbers of 6 to 15 digits, separated by "/" (for example 01-4411223/9851012345).'],
      mobile: ['Enter 10-digit mobile numbers starting with 9, separated by "/".'],
    });
    const created = await json(await post(t.admin, BRANCH));
    expect(created.status).toBe(201);
    expect(created.body.message).toBe("Branch created.");
    expect(created.body.data).toMatchObject({
      title: "Api Test Motors",
      state: "Gandaki",
      district: "Kaski",
      city: "Pokhara",
      phone: "061-456789/9856012345",
      mobile: "9856012345",
      one_lakh_allocation_count: 2,
      ten_lakhs_allocation_count: 1,
      registrations_count: 0,
      closed: false,
      closed_at: null,
    });
    expect(created.body.data.slug).toMatch(/^[A-Za-z0-9_-]{16}$/);
    slug = created.body.data.slug;

    const taken = await json(await post(t.admin, { ...BRANCH, title: "api TEST motors" }));
    expect(taken).toEqual({
      status: 422,
      body: {
        message: "A branch with this name already exists.",
        errors: { title: ["A branch with this name already exists."] },
      },
    });
    // Head office creates branches; a branch user holding create-branch is refused.
    const fromBranch = await json(await post(t.branchUser, { ...BRANCH, title: "Branch-made Motors" }));
    expect(fromBranch.status).toBe(403);
    expect(fromBranch.body.message).toBe("Only head office can create, close, reopen or delete branches.");
    // createBranch alone suffices for POST.
    expect((await post(t.createBranch, { ...BRANCH, title: "Second Api Motors", state: "gandaki " })).status).toBe(201);
    const second = db.select().from(schema.branches).where(eq(schema.branches.title, "Second Api Motors")).get()!;
    expect(second.state).toBe("Gandaki"); // the province as the list spells it
  });

  it("GET /api/v1/branch: DataTables list with Total Sales, search; 401, 403; a branch user sees its own", async () => {
    expect((await call(branchList, req("GET", "/api/v1/branch"))).status).toBe(401);
    expect((await call(branchList, req("GET", "/api/v1/branch", { token: t.createBranch }))).status).toBe(403);
    const res = await json(
      await call(
        branchList,
        req("GET", "/api/v1/branch?draw=3&start=0&length=10&search[value]=Api%20Test", { token: t.readBranch }),
      ),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ draw: 3, recordsFiltered: 1 });
    expect(res.body.recordsTotal).toBeGreaterThanOrEqual(3);
    expect(res.body.input).toMatchObject({ draw: "3" });
    expect(res.body.data[0]).toMatchObject({ slug, title: "Api Test Motors", registrations_count: 0, closed: false });
    const own = await json(await call(branchList, req("GET", "/api/v1/branch", { token: t.branchUser })));
    expect(own.body.data.map((b: { slug: string }) => b.slug)).toEqual([ownBranch.slug]);
  });

  it("Total Sales counts the branch's live registrations only", async () => {
    const sold = makeBranch({ title: "Selling Branch" });
    const model = makeBikeModel("Sold Model");
    for (const deleted of [null, null, "2030-01-01T00:00:00.000Z"]) {
      const pre = makePreregistration({ branch_id: sold.id });
      db.insert(schema.registrations)
        .values({
          slug: `r-${pre.slug}`,
          bill_no: `B-${pre.id}`,
          name: "Buyer",
          address: "Town",
          citizenship_no: pre.citizenship_no,
          phone: pre.phone,
          bike_model_id: model.id,
          engine_no: `E${pre.id}`,
          chasis_no: `C${pre.id}`,
          registration_no: `R${pre.id}`,
          branch_id: sold.id,
          preregistration_id: pre.id,
          purchase_date: "2030-01-01",
          coupon_code: `K${pre.id}`,
          deleted_at: deleted,
        })
        .run();
    }
    const res = await json(
      await call(branchList, req("GET", "/api/v1/branch?search=Selling%20Branch", { token: t.readBranch })),
    );
    expect(res.body.data).toEqual([expect.objectContaining({ title: "Selling Branch", registrations_count: 2 })]);
    const others = await json(await call(branchList, req("GET", "/api/v1/branch?length=100", { token: t.readBranch })));
    for (const b of others.body.data.filter((x: { id: number }) => x.id !== sold.id))
      expect(b.registrations_count, b.title).toBe(0);
    const one = await json(
      await call(branchOne, req("GET", `/api/v1/branch/${sold.slug}`, { token: t.readBranch }), { slug: sold.slug }),
    );
    expect(one.body.data).toMatchObject({ registrations_count: 2, usage: { registrations: 3 }, deletable: false });
  });

  it("GET /api/v1/branch/{slug}: the branch with usage; 401, 403, 404, and 404 out of a branch user's reach", async () => {
    const get = (s: string, token?: string) =>
      call(branchOne, req("GET", `/api/v1/branch/${s}`, { token }), { slug: s });
    expect((await get(slug)).status).toBe(401);
    expect((await get(slug, t.none)).status).toBe(403);
    expect(await json(await get("no-such-branch", t.readBranch))).toEqual({
      status: 404,
      body: { message: "Branch not found." },
    });
    expect((await get(slug, t.branchUser)).status).toBe(404);
    const ok = await json(await get(slug, t.readBranch));
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({
      slug,
      usage: { users: 0, preregistrations: 0, registrations: 0, test_rides: 0, allocations: 0 },
      deletable: true,
    });
  });

  it("POST /api/v1/branch/{slug}: update; 401, 403, 404, 422", async () => {
    const post = (s: string, token: string | undefined, body: unknown) =>
      call(branchOneAction, req("POST", `/api/v1/branch/${s}`, { token, json: body }), { slug: s });
    expect((await post(slug, undefined, BRANCH)).status).toBe(401);
    expect((await post(slug, t.readBranch, BRANCH)).status).toBe(403);
    expect((await post("no-such-branch", t.admin, BRANCH)).status).toBe(404);
    const bad = await json(await post(slug, t.admin, { ...BRANCH, title: "Second Api Motors" }));
    expect(bad.status).toBe(422);
    expect(bad.body.errors.title).toEqual(["A branch with this name already exists."]);
    const ok = await json(await post(slug, t.admin, { ...BRANCH, location: "New road", phone: "" }));
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe("Branch updated.");
    expect(ok.body.data).toMatchObject({ slug, location: "New road", phone: null });
    // A branch user may edit its own branch.
    const mine = await post(ownBranch.slug, t.branchUser, { ...BRANCH, title: "Own Branch Motors", location: "Mine" });
    expect(mine.status).toBe(200);
  });

  it("DELETE /api/v1/branch/{slug}: 409 while records name it, saying why and what to do; 200 otherwise", async () => {
    const del = (s: string, token?: string) =>
      call(branchOneAction, req("DELETE", `/api/v1/branch/${s}`, { token }), { slug: s });
    const used = makeBranch({ title: "Used Branch" });
    makePreregistration({ nearest_branch_id: used.id });
    makePreregistration({ branch_id: used.id });
    expect((await del(used.slug)).status).toBe(401);
    expect((await del(used.slug, t.readBranch)).status).toBe(403);
    expect((await del("no-such-branch", t.admin)).status).toBe(404);
    expect((await del(ownBranch.slug, t.branchUser)).status).toBe(403);
    const refused = await json(await del(used.slug, t.admin));
    expect(refused).toEqual({
      status: 409,
      body: {
        message:
          "This branch cannot be deleted: it has 2 pre-registrations. Close it instead: a closed branch leaves the public site and the forms at once, and its records keep its name.",
      },
    });
    expect(db.select().from(schema.branches).where(eq(schema.branches.id, used.id)).get()).toBeDefined();
    const ok = await json(await del(slug, t.admin));
    expect(ok).toEqual({ status: 200, body: { data: null, message: "Branch deleted." } });
    expect(db.select().from(schema.branches).where(eq(schema.branches.slug, slug)).get()).toBeUndefined();
    expect((await del(slug, t.admin)).status).toBe(404);
  });

  it("POST /api/v1/branch/{slug}/close and /reopen: out of GET /api/v1/branches and back; 409 twice; 401, 403, 404", async () => {
    const branch = makeBranch({ title: "Closing Branch" });
    const act = (fn: typeof closeBranch, s: string, token?: string) =>
      call(fn, req("POST", `/api/v1/branch/${s}/x`, { token }), { slug: s });
    const listed = async () =>
      ((await (await call(branches, req("GET", "/api/v1/branches"))).json()).data as { id: number }[]).some(
        (b) => b.id === branch.id,
      );
    expect(await listed()).toBe(true);
    expect((await act(closeBranch, branch.slug)).status).toBe(401);
    expect((await act(closeBranch, branch.slug, t.readBranch)).status).toBe(403);
    expect((await act(closeBranch, "no-such-branch", t.admin)).status).toBe(404);
    expect((await act(closeBranch, ownBranch.slug, t.branchUser)).status).toBe(403);
    const closed = await json(await act(closeBranch, branch.slug, t.admin));
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ message: "Branch closed.", data: { closed: true } });
    expect(await listed()).toBe(false);
    expect((await act(closeBranch, branch.slug, t.admin)).status).toBe(409);
    expect((await act(reopenBranch, branch.slug, t.admin)).status).toBe(200);
    expect(await listed()).toBe(true);
    expect((await act(reopenBranch, branch.slug, t.admin)).status).toBe(409);
  });

  it("GET /api/v1/branch/export: Branches.xls with the list's search; JSON 401/403 for token callers", async () => {
    const get = (q: string, token?: string) => call(branchExport, req("GET", `/api/v1/branch/export${q}`, { token }));
    expect((await get("", "not-a-token")).status).toBe(401);
    expect((await get("", t.none)).status).toBe(403);
    const res = await get("?search=Second%20Api", t.readBranch);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/vnd.ms-excel");
    expect(res.headers.get("Content-Disposition")).toBe('attachment; filename="Branches.xls"');
    const wb = XLSX.read(Buffer.from(await res.arrayBuffer()), { type: "buffer" });
    const rows = XLSX.utils.sheet_to_json<string[]>(wb.Sheets.Branches, { header: 1 });
    expect(rows[0]).toEqual([
      "Title",
      "State",
      "District",
      "City",
      "Location",
      "Phone",
      "Mobile",
      "Email",
      "Total Sales",
      "One Lakh Allocation",
      "Ten Lakhs Allocation",
      "Status",
    ]);
    expect(rows.slice(1).map((r) => r[0])).toEqual(["Second Api Motors"]);
    const all = XLSX.read(Buffer.from(await (await get("", t.readBranch)).arrayBuffer()), { type: "buffer" });
    expect(XLSX.utils.sheet_to_json(all.Sheets.Branches).length).toBe(db.select().from(schema.branches).all().length);
  });
});

describe("bike-model calls", () => {
  let slug: string;

  it("POST /api/v1/bike-model: 401, 403, 422 (title, an unknown or private image), 201", async () => {
    const post = (token: string | undefined, body: unknown) =>
      call(bikeModelAction, req("POST", "/api/v1/bike-model", { token, json: body }));
    expect((await post(undefined, { title: "X" })).status).toBe(401);
    expect((await post(t.readModel, { title: "X" })).status).toBe(403);
    const invalid = await json(await post(t.createModel, { title: " ", thumbnail: "abc" }));
    expect(invalid).toEqual({
      status: 422,
      body: {
        message: "Enter the model name.",
        errors: { title: ["Enter the model name."], thumbnail: ["Choose an image from the picker or upload one."] },
      },
    });
    for (const thumbnail of [999999, screenshot]) {
      const res = await json(await post(t.createModel, { title: "Image Test", thumbnail }));
      expect(res.status).toBe(422);
      expect(res.body.errors.thumbnail).toEqual(["Choose an image from the picker or upload one."]);
    }
    const created = await json(await post(t.createModel, { title: "Api Racer 160", thumbnail: picture }));
    expect(created.status).toBe(201);
    expect(created.body.message).toBe("Bike model created.");
    expect(created.body.data).toMatchObject({
      title: "Api Racer 160",
      thumbnail: picture,
      thumbnail_id: picture,
      retired: false,
    });
    expect(created.body.data.thumbnail_url).toMatch(/^\/files\/[A-Za-z0-9_-]+$/);
    slug = created.body.data.slug;
    const taken = await json(await post(t.createModel, { title: "API RACER 160" }));
    expect(taken.body.errors).toEqual({ title: ["A bike model with this name already exists."] });
  });

  it("GET /api/v1/bike-model?all and /bike-models are public; paging needs read-bike-model", async () => {
    const all = await json(await call(bikeModelList, req("GET", "/api/v1/bike-model?all")));
    expect(all.status).toBe(200);
    expect(all.body.data.some((m: { slug: string }) => m.slug === slug)).toBe(true);
    expect((await json(await call(bikeModels, req("GET", "/api/v1/bike-models")))).body.data.length).toBe(
      all.body.data.length,
    );
    expect((await call(bikeModelList, req("GET", "/api/v1/bike-model?draw=1"))).status).toBe(401);
    expect((await call(bikeModelList, req("GET", "/api/v1/bike-model?draw=1", { token: t.none }))).status).toBe(403);
    const paged = await json(
      await call(bikeModelList, req("GET", "/api/v1/bike-model?draw=2&search=Api%20Racer", { token: t.readModel })),
    );
    expect(paged.body).toMatchObject({ draw: 2, recordsFiltered: 1, data: [{ slug, title: "Api Racer 160" }] });
  });

  it("GET, POST /api/v1/bike-model/{slug}: 401, 403, 404, 422, 200", async () => {
    const get = (s: string, token?: string) =>
      call(bikeModelOne, req("GET", `/api/v1/bike-model/${s}`, { token }), { slug: s });
    const post = (s: string, token: string | undefined, body: unknown) =>
      call(bikeModelOneAction, req("POST", `/api/v1/bike-model/${s}`, { token, json: body }), { slug: s });
    expect((await get(slug)).status).toBe(401);
    expect((await get(slug, t.createModel)).status).toBe(403);
    expect(await json(await get("nope", t.readModel))).toEqual({
      status: 404,
      body: { message: "Bike model not found." },
    });
    const read = (await json(await get(slug, t.readModel))).body.data;
    expect(read).toMatchObject({
      slug,
      usage: { preregistrations: 0, registrations: 0, test_rides: 0 },
      deletable: true,
    });
    expect((await post(slug, undefined, { title: "Y" })).status).toBe(401);
    expect((await post(slug, t.createModel, { title: "Y" })).status).toBe(403);
    expect((await post("nope", t.admin, { title: "Y" })).status).toBe(404);
    expect((await post(slug, t.admin, { title: "" })).status).toBe(422);
    const ok = await json(await post(slug, t.admin, { title: "Api Racer 165" }));
    expect(ok.status).toBe(200);
    // An update changes only what it names: the thumbnail stays.
    expect(ok.body.data).toMatchObject({ title: "Api Racer 165", thumbnail: read.thumbnail });
  });

  it("DELETE: 409 for a model in use (retire it instead); retire/restore; 200 for an unused one", async () => {
    const del = (s: string, token?: string) =>
      call(bikeModelOneAction, req("DELETE", `/api/v1/bike-model/${s}`, { token }), { slug: s });
    const used = makeBikeModel("Used Model 110");
    makePreregistration({ bike_model_id: used.id });
    expect((await del(used.slug)).status).toBe(401);
    expect((await del(used.slug, t.readModel)).status).toBe(403);
    expect((await del("nope", t.admin)).status).toBe(404);
    expect(await json(await del(used.slug, t.admin))).toEqual({
      status: 409,
      body: {
        message:
          "This bike model cannot be deleted: it has 1 pre-registration. Retire it instead: a retired model leaves the public forms at once, and its records keep its name.",
      },
    });
    const act = (fn: typeof retireModel, s: string, token?: string) =>
      call(fn, req("POST", `/api/v1/bike-model/${s}/x`, { token }), { slug: s });
    expect((await act(retireModel, used.slug)).status).toBe(401);
    expect((await act(retireModel, used.slug, t.readModel)).status).toBe(403);
    expect((await act(retireModel, "nope", t.admin)).status).toBe(404);
    const retired = await json(await act(retireModel, used.slug, t.admin));
    expect(retired.body).toMatchObject({ message: "Bike model retired.", data: { retired: true } });
    const onSale = async () =>
      ((await (await call(bikeModels, req("GET", "/api/v1/bike-models"))).json()).data as { id: number }[]).some(
        (m) => m.id === used.id,
      );
    expect(await onSale()).toBe(false);
    expect((await act(retireModel, used.slug, t.admin)).status).toBe(409);
    expect((await act(restoreModel, used.slug, t.admin)).status).toBe(200);
    expect(await onSale()).toBe(true);
    expect(await json(await del(slug, t.admin))).toEqual({
      status: 200,
      body: { data: null, message: "Bike model deleted." },
    });
  });
});

describe("video calls", () => {
  let slug: string;
  const VIDEO = {
    title: "Api Winner",
    url: "https://www.youtube.com/watch?v=abc",
    amount: 100000,
    citizenship_no: "27-01-75-12345",
    phone: "+977 9841234567",
  };

  it("POST /api/v1/video: 401, 403, 422 (url not http(s), amount, phone), 201", async () => {
    const post = (token: string | undefined, body: unknown) =>
      call(videoAction, req("POST", "/api/v1/video", { token, json: body }));
    expect((await post(undefined, VIDEO)).status).toBe(401);
    expect((await post(t.readVideo, VIDEO)).status).toBe(403);
    for (const url of ["javascript:alert(1)", "ftp://example.com/v", "www.example.com", "data:text/html,x"]) {
      const res = await json(await post(t.createVideo, { ...VIDEO, url }));
      expect(res.status, url).toBe(422);
      expect(res.body.errors.url).toEqual(["Enter the video address, starting with http:// or https://."]);
    }
    const invalid = await json(
      await post(t.createVideo, { title: "", url: "", amount: 5000, phone: "12345", citizenship_no: "<b>" }),
    );
    expect(invalid.body.errors).toEqual({
      title: ["Enter the video title."],
      url: ["Enter the video address, starting with http:// or https://."],
      amount: ["Choose the prize amount."],
      phone: ["Enter a 10-digit mobile number starting with 9."],
      citizenship_no: ["Enter the Registration ID (letters, digits, - and /, at most 30)."],
    });
    const created = await json(await post(t.createVideo, { ...VIDEO, thumbnail: picture }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      message: "Video created.",
      data: { ...VIDEO, phone: "9841234567", thumbnail: picture },
    });
    slug = created.body.data.slug;
    const grouped = (await (await call(videos, req("GET", "/api/v1/videos"))).json()).data;
    expect(grouped.one_lakh.find((v: { slug: string }) => v.slug === slug)).toMatchObject({ title: "Api Winner" });
    expect(grouped.one_lakh.find((v: { slug: string }) => v.slug === slug)).not.toHaveProperty("phone");
  });

  it("GET /api/v1/video?amount: the DataTables list filtered by prize; 401, 403, 422", async () => {
    expect((await call(videoList, req("GET", "/api/v1/video"))).status).toBe(401);
    expect((await call(videoList, req("GET", "/api/v1/video", { token: t.createVideo }))).status).toBe(403);
    const bad = await json(await call(videoList, req("GET", "/api/v1/video?amount=123", { token: t.readVideo })));
    expect(bad).toEqual({
      status: 422,
      body: { message: "Choose the prize amount.", errors: { amount: ["Choose the prize amount."] } },
    });
    const lakh = await json(
      await call(videoList, req("GET", "/api/v1/video?amount=100000&draw=4", { token: t.readVideo })),
    );
    expect(lakh.body).toMatchObject({
      draw: 4,
      recordsFiltered: 1,
      data: [{ slug, amount: 100000, citizenship_no: "27-01-75-12345" }],
    });
    const fifty = await json(await call(videoList, req("GET", "/api/v1/video?amount=50000", { token: t.readVideo })));
    expect(fifty.body.recordsFiltered).toBe(0);
  });

  it("GET, POST, DELETE /api/v1/video/{slug}: 401, 403, 404, 422, 200; gone from /api/v1/videos at once", async () => {
    const get = (s: string, token?: string) => call(videoOne, req("GET", `/api/v1/video/${s}`, { token }), { slug: s });
    const act = (method: string, s: string, token?: string, body?: unknown) =>
      call(videoOneAction, req(method, `/api/v1/video/${s}`, { token, json: body }), { slug: s });
    expect((await get(slug)).status).toBe(401);
    expect((await get(slug, t.none)).status).toBe(403);
    expect(await json(await get("nope", t.readVideo))).toEqual({ status: 404, body: { message: "Video not found." } });
    expect((await json(await get(slug, t.readVideo))).body.data).toMatchObject({ slug, title: "Api Winner" });
    expect((await act("POST", slug, undefined, VIDEO)).status).toBe(401);
    expect((await act("POST", slug, t.createVideo, VIDEO)).status).toBe(403);
    expect((await act("POST", "nope", t.admin, VIDEO)).status).toBe(404);
    expect((await act("POST", slug, t.admin, { ...VIDEO, amount: "x" })).status).toBe(422);
    const moved = await json(await act("POST", slug, t.admin, { ...VIDEO, amount: "1000000" }));
    expect(moved.body).toMatchObject({ message: "Video updated.", data: { amount: 1000000 } });
    const grouped = (await (await call(videos, req("GET", "/api/v1/videos"))).json()).data;
    expect(grouped.ten_lakhs.some((v: { slug: string }) => v.slug === slug)).toBe(true);
    expect((await act("DELETE", slug)).status).toBe(401);
    expect((await act("DELETE", slug, t.readVideo)).status).toBe(403);
    expect(await json(await act("DELETE", slug, t.admin))).toEqual({
      status: 200,
      body: { data: null, message: "Video deleted." },
    });
    expect((await act("DELETE", slug, t.admin)).status).toBe(404);
    const after = (await (await call(videos, req("GET", "/api/v1/videos"))).json()).data;
    expect(after.ten_lakhs.some((v: { slug: string }) => v.slug === slug)).toBe(false);
  });
});

describe("file and upload calls", () => {
  it("GET /api/v1/file?type: the picker's images of a type, never a screenshot; 401, 403, 422", async () => {
    expect((await call(fileList, req("GET", "/api/v1/file?type=bike-model"))).status).toBe(401);
    expect((await call(fileList, req("GET", "/api/v1/file?type=bike-model", { token: t.readModel }))).status).toBe(403);
    // Holding only create-video: video and general images, not bike-model ones.
    expect((await call(fileList, req("GET", "/api/v1/file?type=bike-model", { token: t.createVideo }))).status).toBe(
      403,
    );
    const unknown = await json(await call(fileList, req("GET", "/api/v1/file?type=screenshot", { token: t.admin })));
    expect(unknown).toEqual({
      status: 422,
      body: {
        message: "Choose a file type: bike-model, video, logo, general.",
        errors: { type: ["Choose a file type: bike-model, video, logo, general."] },
      },
    });
    const ok = await json(await call(fileList, req("GET", "/api/v1/file?type=bike-model", { token: t.createModel })));
    expect(ok.status).toBe(200);
    const mine = ok.body.data.find((f: { id: number }) => f.id === picture);
    expect(mine).toMatchObject({ id: picture, filename: "side.png", type: "bike-model", width: 320, height: 200 });
    expect(mine.url).toBe(`/files/${mine.key}`);
    expect(mine.thumbnail).toBe(mine.url);
    const every = await json(await call(fileList, req("GET", "/api/v1/file", { token: t.admin })));
    expect(every.body.data.some((f: { id: number }) => f.id === screenshot)).toBe(false);
  });

  it("POST /api/v1/upload: 401, 403 (no picker form, or a type not its own), 422 (no file, unknown type), 201", async () => {
    const form = async (type: string, withFile = true) => {
      const f = new FormData();
      f.set("type", type);
      if (withFile) f.append("files[]", new File([new Uint8Array(await smallPng())], "up.png", { type: "image/png" }));
      return f;
    };
    const post = async (token: string | undefined, body: FormData) =>
      call(upload, req("POST", "/api/v1/upload", { token, form: body }));
    expect((await post(undefined, await form("video"))).status).toBe(401);
    expect((await post(t.readVideo, await form("video"))).status).toBe(403);
    expect((await post(t.createVideo, await form("bike-model"))).status).toBe(403);
    const none = await json(await post(t.createVideo, await form("video", false)));
    expect(none).toEqual({
      status: 422,
      body: {
        message: "Choose at least one image to upload.",
        errors: { files: ["Choose at least one image to upload."] },
      },
    });
    expect((await post(t.createVideo, await form("screenshot"))).status).toBe(422);
    const ok = await json(await post(t.createVideo, await form("video")));
    expect(ok.status).toBe(201);
    expect(ok.body.data[0]).toMatchObject({ filename: "up.png", type: "video", width: 320, height: 200 });
    const json415 = await call(
      upload,
      req("POST", "/api/v1/upload", { token: t.createVideo, json: { type: "video" } }),
    );
    expect(json415.status).toBe(415);
  });
});
