// The counter API and pages through their route modules, with bearer tokens and session cookies:
// the registration journey by API, the spec's error shape, and branch scope — a branch user
// cannot see, edit, print or download another branch's records, by page or by API.
import { eq } from "drizzle-orm";
import XLSX from "sheetjs-style";
import { beforeAll, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { currentCode } from "~/models/otp.server";
import { createRegistration } from "~/models/registration.server";
import type { RegistrationInput } from "~/schemas/registration";
import { action as loginAction } from "~/routes/login";
import { loader as printPage } from "~/routes/admin.print";
import { action as regPageAction, loader as regPage } from "~/routes/admin.registration.$slug._index";
import { loader as regEditPage } from "~/routes/admin.registration.$slug.edit";
import { loader as regListPage } from "~/routes/admin.registration._index";
import { loader as prePage } from "~/routes/admin.preregistration.$slug._index";
import { loader as preListPage } from "~/routes/admin.preregistration._index";
import { loader as dashboardPage } from "~/routes/admin._index";
import { action as regCreate, loader as regList } from "~/routes/api.v1.registration";
import { action as regWrite, loader as regOne } from "~/routes/api.v1.registration.$slug";
import { action as regVerify } from "~/routes/api.v1.registration.$slug.verify";
import { action as regReset } from "~/routes/api.v1.registration.$slug.reset";
import { action as regDraw } from "~/routes/api.v1.registration.$slug.draw";
import { action as regNotify } from "~/routes/api.v1.registration.$slug.notify";
import { action as regRestore } from "~/routes/api.v1.registration.$slug.restore";
import { loader as regDeleted } from "~/routes/api.v1.registration.deleted";
import { action as regDownloadPost, loader as regDownload } from "~/routes/api.v1.registration.download";
import { loader as regPrint } from "~/routes/api.v1.registration.print";
import { action as regSearch } from "~/routes/api.v1.registration.search";
import { action as preCreate, loader as preList } from "~/routes/api.v1.preregistration";
import { action as preWrite, loader as preOne } from "~/routes/api.v1.preregistration.$id";
import { action as preVerify } from "~/routes/api.v1.preregistration.$id.verify";
import { action as preResend } from "~/routes/api.v1.preregistration.$id.resend";
import { loader as preDownload } from "~/routes/api.v1.preregistration.download";
import { loader as dashboardApi } from "~/routes/api.v1.dashboard";
import { loader as branchStatsApi } from "~/routes/api.v1.branch-stats";
import { issueToken } from "~/http/api.server";
import { kathmanduDate } from "~/utils/time";
import { makeBikeModel, makeBranch, makePreregistration, makeUser, nextPhone, makeAllocation } from "../fixtures";
import { clearOfKathmanduMidnight } from "../clock";
import { responseOf } from "../route-helpers";

const ctx = { clientAddress: "10.9.0.1" };
const json = async (p: unknown) => {
  const res = await responseOf(p);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions read JSON bodies of many shapes field by field
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

let a: ReturnType<typeof makeBranch>;
let b: ReturnType<typeof makeBranch>;
let model: ReturnType<typeof makeBikeModel>;
const tokens = { staffA: "", managerA: "", managerB: "", admin: "", nobody: "" };
let cookieA = "";
let staffAId = 0;
let managerBId = 0;

let seq = 0;
const u = () => `${Date.now().toString(36)}${seq++}`.toUpperCase();
const regValues = (over: Record<string, unknown> = {}) => ({
  bill_no: `BL${u()}`,
  name: "Api Buyer",
  address: "Lalitpur 3",
  citizenship_no: "5566778899",
  bike_model_id: model.id,
  engine_no: `ENG${u()}`,
  chasis_no: `CHS${u()}`,
  registration_no: `REG${u()}`,
  payment_mode: "FINANCE",
  ...over,
});

const api = (path: string, token: string, init: RequestInit & { json?: unknown } = {}) => {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  let body = init.body;
  if (init.json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(init.json);
  }
  return new Request(`http://localhost${path}`, { method: init.method ?? (body ? "POST" : "GET"), headers, body });
};
const page = (path: string, init: RequestInit = {}) =>
  new Request(`http://localhost${path}`, { ...init, headers: { Cookie: cookieA, ...(init.headers ?? {}) } });
const args = (request: Request, params: Record<string, string> = {}) => ({ request, context: ctx, params });

function verifiedPre(branchId: number | null, over: Partial<typeof schema.preregistrations.$inferInsert> = {}) {
  return makePreregistration({
    branch_id: branchId,
    nearest_branch_id: branchId ?? a.id,
    is_verified: true,
    status: "verified",
    prize: 6000,
    ...over,
  });
}

async function registrationAt(branchId: number, userId: number) {
  const res = await createRegistration({ id: userId, scope: { branchId } }, verifiedPre(branchId).slug, {
    ...(regValues() as unknown as RegistrationInput),
    send_sms: false,
  });
  if (!res.ok) throw new Error(res.message);
  return res.registration;
}

let mineReg: Awaited<ReturnType<typeof registrationAt>>;
let theirReg: Awaited<ReturnType<typeof registrationAt>>;
let theirPre: ReturnType<typeof makePreregistration>;

beforeAll(async () => {
  a = makeBranch({ title: "Counter A" });
  b = makeBranch({ title: "Counter B" });
  model = makeBikeModel("Counter Model");
  const staffA = await makeUser("branch-staff", a.id);
  const managerA = await makeUser("branch-manager", a.id);
  const managerB = await makeUser("branch-manager", b.id);
  const admin = await makeUser("super-admin", null);
  staffAId = staffA.id;
  managerBId = managerB.id;
  tokens.staffA = issueToken(staffA.id, false).token;
  tokens.managerA = issueToken(managerA.id, false).token;
  tokens.managerB = issueToken(managerB.id, false).token;
  tokens.admin = issueToken(admin.id, false).token;
  const role = db
    .insert(schema.roles)
    .values({ slug: `none-${u()}`, title: "None" })
    .returning()
    .get();
  const { createUser } = await import("~/models/user.server");
  const nobody = await createUser({
    first_name: "No",
    email: `no-${u()}@example.test`,
    role_id: role.id,
    branch_id: a.id,
    password: "secret-pass-1",
  });
  tokens.nobody = issueToken(nobody.id, false).token;
  const login = (await loginAction(
    args(
      new Request("http://localhost/login", {
        method: "POST",
        body: new URLSearchParams({ email: managerA.email, password: managerA.password }),
      }),
    ),
  )) as Response;
  cookieA = (login.headers.get("Set-Cookie") ?? "").split(";")[0];
  // The pool is today's: the file's draws must not meet the next day.
  await clearOfKathmanduMidnight(50_000);
  makeAllocation({
    type: "registration_branch",
    branch_id: a.id,
    date: kathmanduDate(),
    amount: 4000,
    count: 5,
    probability: 100,
  });
  mineReg = await registrationAt(a.id, staffAId);
  theirReg = await registrationAt(b.id, managerBId);
  theirPre = makePreregistration({ branch_id: b.id, nearest_branch_id: b.id, name: "Their Prereg" });
});

describe("registration journey by API", () => {
  it("creates from a pre-registration slug, confirms with the code, draws and notifies", async () => {
    const pre = verifiedPre(a.id);
    const created = await json(
      regCreate(
        args(
          api("/api/v1/registration", tokens.staffA, {
            json: { ...regValues({ bill_no: "77" }), preregistration_id: pre.slug },
          }),
        ),
      ),
    );
    expect(created.status).toBe(201);
    const slug = created.body.data.slug as string;
    expect(created.body.data).toMatchObject({ bill_no: `B${a.id}-77`, status: "pending", phone: pre.phone });

    const wrong = await json(
      regVerify(
        args(api(`/api/v1/registration/${slug}/verify`, tokens.staffA, { json: { code: "12345x" } }), { slug }),
      ),
    );
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual({
      message: "The code must be 6 digits.",
      errors: { code: ["The code must be 6 digits."] },
    });
    const code = currentCode("registration", created.body.data.id)!.code!;
    const other = code === "000000" ? "111111" : "000000";
    const miss = await json(
      regVerify(args(api(`/api/v1/registration/${slug}/verify`, tokens.staffA, { json: { code: other } }), { slug })),
    );
    expect(miss).toEqual({
      status: 422,
      body: { message: "Incorrect Code. Please Try again", errors: { code: ["Incorrect Code. Please Try again"] } },
    });
    const reset = await json(
      regReset(args(api(`/api/v1/registration/${slug}/reset`, tokens.staffA, { method: "POST" }), { slug })),
    );
    expect(reset.status).toBe(200);
    expect(reset.body.message).toBe("Incorrect Code. Please Try again");

    const early = await json(
      regDraw(args(api(`/api/v1/registration/${slug}/draw`, tokens.staffA, { method: "POST" }), { slug })),
    );
    expect(early.status).toBe(409);

    const live = currentCode("registration", created.body.data.id)!.code!;
    const ok = await json(
      regVerify(args(api(`/api/v1/registration/${slug}/verify`, tokens.staffA, { json: { code: live } }), { slug })),
    );
    expect(ok.status).toBe(200);
    expect(ok.body.data.status).toBe("confirmed");

    const drawn = await json(
      regDraw(args(api(`/api/v1/registration/${slug}/draw`, tokens.staffA, { method: "POST" }), { slug })),
    );
    expect(drawn.status).toBe(200);
    expect(drawn.body.data).toMatchObject({
      status: "drawn",
      coupon: { amount: 4000 },
      prizes: { first: 0, second: 6000, third: 4000, total: 10000 },
    });

    const notified = await json(
      regNotify(args(api(`/api/v1/registration/${slug}/notify`, tokens.staffA, { method: "POST" }), { slug })),
    );
    expect(notified.status).toBe(200);
  });

  it("answers duplicates with the spec's error shape and keeps the first record only", async () => {
    const pre = verifiedPre(a.id);
    const res = await json(
      regCreate(
        args(
          api("/api/v1/registration", tokens.staffA, {
            json: { ...regValues({ engine_no: mineReg.engine_no }), preregistration_id: pre.slug },
          }),
        ),
      ),
    );
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: "Engine No has already been taken.",
      errors: { engine_no: ["Engine No has already been taken."] },
    });
    const missing = await json(
      regCreate(args(api("/api/v1/registration", tokens.staffA, { json: { preregistration_id: pre.slug } }))),
    );
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toMatchObject({
      bill_no: ["Bill/Chalan No is required."],
      engine_no: ["Engine No is required."],
    });
  });

  it("searches registrants for the referrer field", async () => {
    const res = await json(
      regSearch(args(api("/api/v1/registration/search", tokens.staffA, { json: { q: mineReg.engine_no } }))),
    );
    expect(res.status).toBe(200);
    expect(res.body.data[0]).toMatchObject({ value: mineReg.id, slug: mineReg.slug });
    // Another branch's customer: by full phone only, and without name, id or slug.
    const other = await json(
      regSearch(args(api("/api/v1/registration/search", tokens.staffA, { json: { q: theirReg.phone } }))),
    );
    expect(other.body.data).toEqual([
      {
        value: null,
        label: expect.stringMatching(/^Registered customer at another branch \(\d{2}X{6}\d{2}\)$/),
        slug: null,
        phone: theirReg.phone,
      },
    ]);
    expect(JSON.stringify(other.body)).not.toContain(theirReg.name);
    const byName = await json(
      regSearch(args(api("/api/v1/registration/search", tokens.staffA, { json: { q: theirReg.engine_no } }))),
    );
    expect(byName.body.data).toEqual([]);
  });

  it("deletes, lists the trash and restores (delete-registration only)", async () => {
    const reg = await registrationAt(a.id, staffAId);
    const slug = reg.slug;
    expect(
      (
        await responseOf(
          regWrite(args(api(`/api/v1/registration/${slug}`, tokens.staffA, { method: "DELETE" }), { slug })),
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await responseOf(
          regWrite(args(api(`/api/v1/registration/${slug}`, tokens.managerA, { method: "DELETE" }), { slug })),
        )
      ).status,
    ).toBe(200);
    const trash = await json(regDeleted(args(api("/api/v1/registration/deleted", tokens.managerA))));
    expect(trash.body.data.map((r: { slug: string }) => r.slug)).toContain(slug);
    const restored = await json(
      regRestore(args(api(`/api/v1/registration/${slug}/restore`, tokens.managerA, { method: "POST" }), { slug })),
    );
    expect(restored.status).toBe(200);
    expect(restored.body.data.deleted_at).toBeNull();
  });

  it("refuses callers without a token or permission", async () => {
    expect((await responseOf(regList(args(new Request("http://localhost/api/v1/registration"))))).status).toBe(401);
    expect((await responseOf(regList(args(api("/api/v1/registration", tokens.nobody))))).status).toBe(403);
    expect((await responseOf(preList(args(api("/api/v1/preregistration", tokens.nobody))))).status).toBe(403);
  });
});

describe("pre-registration API", () => {
  it("creates at the caller's branch and verifies with the code; no body only for staff who may see codes", async () => {
    const phone = nextPhone();
    const created = await json(
      preCreate(
        args(
          api("/api/v1/preregistration", tokens.staffA, {
            json: {
              name: "Counter Customer",
              address: "Patan",
              phone,
              citizenship_no: "44556677",
              bike_model_id: model.id,
            },
          }),
        ),
      ),
    );
    expect(created.status).toBe(201);
    const slug = created.body.data.slug as string;
    expect(created.body.data).toMatchObject({ branch_id: a.id, is_verified: false, code: null });

    const blank = await json(
      preVerify(args(api(`/api/v1/preregistration/${slug}/verify`, tokens.staffA, { method: "POST" }), { id: slug })),
    );
    expect(blank.status).toBe(422);
    expect(blank.body.errors.code).toEqual(["Enter the registration code the customer received"]);

    const code = currentCode("preregistration", created.body.data.id)!.code!;
    const miss = await json(
      preVerify(
        args(
          api(`/api/v1/preregistration/${slug}/verify`, tokens.staffA, {
            json: { code: code === "000000" ? "111111" : "000000" },
          }),
          { id: slug },
        ),
      ),
    );
    expect(miss.status).toBe(422);
    expect(miss.body.message).toBe("the code you have selected is incorrect. Please try again or resend the code");

    // The head office admin (read-user) may verify without sending the code, as the old client did.
    const ok = await json(
      preVerify(args(api(`/api/v1/preregistration/${slug}/verify`, tokens.admin, { method: "POST" }), { id: slug })),
    );
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ is_verified: true });
    expect(ok.body.data.prize).toBeGreaterThan(0);

    const resend = await json(
      preResend(args(api(`/api/v1/preregistration/${slug}/resend`, tokens.staffA, { method: "POST" }), { id: slug })),
    );
    expect(resend.status).toBe(409);

    // Update with only the fields sent; the rest stay.
    const updated = await json(
      preWrite(
        args(api(`/api/v1/preregistration/${slug}`, tokens.staffA, { json: { note: "Prefers evening calls" } }), {
          id: slug,
        }),
      ),
    );
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ note: "Prefers evening calls", name: "Counter Customer", phone });
    const shown = await json(preOne(args(api(`/api/v1/preregistration/${slug}`, tokens.admin), { id: slug })));
    expect(shown.body.data.code).toMatch(/^\d{6}$/);
  });
});

describe("branch scope", () => {
  it("API: another branch's registration cannot be seen, edited, deleted, printed or downloaded", async () => {
    const slug = theirReg.slug;
    expect((await responseOf(regOne(args(api(`/api/v1/registration/${slug}`, tokens.staffA), { slug })))).status).toBe(
      404,
    );
    expect(
      (
        await responseOf(
          regWrite(args(api(`/api/v1/registration/${slug}`, tokens.staffA, { json: regValues() }), { slug })),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await responseOf(
          regWrite(args(api(`/api/v1/registration/${slug}`, tokens.managerA, { method: "DELETE" }), { slug })),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await responseOf(
          regDraw(args(api(`/api/v1/registration/${slug}/draw`, tokens.staffA, { method: "POST" }), { slug })),
        )
      ).status,
    ).toBe(404);
    const list = await json(regList(args(api("/api/v1/registration?length=100", tokens.staffA))));
    const listed = list.body.data.map((r: { slug: string }) => r.slug);
    expect(listed).toContain(mineReg.slug);
    expect(listed).not.toContain(slug);
    const printed = await json(regPrint(args(api(`/api/v1/registration/print?slug=${slug}`, tokens.staffA))));
    expect(printed.body.data.data).toEqual([]);
    const own = await json(regPrint(args(api(`/api/v1/registration/print?slug=${mineReg.slug}`, tokens.staffA))));
    expect(own.body.data.data.map((r: { slug: string }) => r.slug)).toEqual([mineReg.slug]);

    const file = await responseOf(regDownload(args(api("/api/v1/registration/download", tokens.staffA))));
    expect(file.headers.get("Content-Disposition")).toContain("Registrations.xls");
    const rows = XLSX.utils.sheet_to_json<Record<string, string>>(
      XLSX.read(new Uint8Array(await file.arrayBuffer()), { type: "array" }).Sheets.Registrations,
    );
    const slugs = rows.map((r) => r.Slug);
    expect(slugs).toContain(mineReg.slug);
    expect(slugs).not.toContain(slug);
    // The POST reading of the download takes its filters from the body.
    const posted = await responseOf(
      regDownloadPost(args(api("/api/v1/registration/download", tokens.admin, { json: { branch: b.id } }))),
    );
    const postedRows = XLSX.utils.sheet_to_json<Record<string, string>>(
      XLSX.read(new Uint8Array(await posted.arrayBuffer()), { type: "array" }).Sheets.Registrations,
    );
    expect(postedRows.map((r) => r.Slug)).toEqual([slug]);
  });

  it("API: another branch's pre-registration cannot be seen, edited, deleted or downloaded", async () => {
    const id = theirPre.slug;
    expect((await responseOf(preOne(args(api(`/api/v1/preregistration/${id}`, tokens.staffA), { id })))).status).toBe(
      404,
    );
    expect(
      (
        await responseOf(
          preOne(args(api(`/api/v1/preregistration/${theirPre.id}`, tokens.staffA), { id: String(theirPre.id) })),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await responseOf(
          preWrite(args(api(`/api/v1/preregistration/${id}`, tokens.staffA, { json: { note: "x" } }), { id })),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await responseOf(
          preWrite(args(api(`/api/v1/preregistration/${id}`, tokens.managerA, { method: "DELETE" }), { id })),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await responseOf(
          preVerify(
            args(api(`/api/v1/preregistration/${id}/verify`, tokens.staffA, { json: { code: "123456" } }), { id }),
          ),
        )
      ).status,
    ).toBe(404);
    const file = await responseOf(preDownload(args(api("/api/v1/preregistration/download", tokens.staffA))));
    expect(file.headers.get("Content-Disposition")).toContain("Preregistrations.xls");
    const rows = XLSX.utils.sheet_to_json<Record<string, string>>(
      XLSX.read(new Uint8Array(await file.arrayBuffer()), { type: "array" }).Sheets.Preregistrations,
    );
    expect(rows.map((r) => r.Slug)).not.toContain(id);
    expect(
      db.select().from(schema.preregistrations).where(eq(schema.preregistrations.id, theirPre.id)).get()?.deleted_at,
    ).toBeNull();
  });

  it("pages: another branch's records are not found, cannot be deleted, and are not printed", async () => {
    const slug = theirReg.slug;
    expect(
      (await responseOf(regPage(args(page(`/admin/registration/${mineReg.slug}`), { slug: mineReg.slug })))).status,
    ).toBe(200);
    expect((await responseOf(regPage(args(page(`/admin/registration/${slug}`), { slug })))).status).toBe(404);
    expect((await responseOf(regEditPage(args(page(`/admin/registration/${slug}/edit`), { slug })))).status).toBe(404);
    const del = await responseOf(
      regPageAction(
        args(page(`/admin/registration/${slug}`, { method: "POST", body: new URLSearchParams({ intent: "delete" }) }), {
          slug,
        }),
      ),
    );
    expect(del.status).toBe(302);
    expect(
      db.select().from(schema.registrations).where(eq(schema.registrations.id, theirReg.id)).get()?.deleted_at,
    ).toBeNull();
    const pre = await responseOf(
      prePage(args(page(`/admin/preregistration/${theirPre.slug}`), { slug: theirPre.slug })),
    );
    expect(pre.status).toBe(302);
    expect(pre.headers.get("Location")).toBe("/admin");

    // The sheet prints drawn coupons and lists the others as left out (decision 17): neither shows another branch's.
    type Sheet = { coupons: { slug: string }[]; pending: { slug: string }[] };
    const printed = (await printPage(args(page(`/admin/print?slug=${slug}`)))) as Sheet;
    expect([...printed.coupons, ...printed.pending]).toEqual([]);
    const all = (await printPage(args(page(`/admin/print`)))) as Sheet;
    const onSheet = [...all.coupons, ...all.pending].map((c) => c.slug);
    expect(onSheet).toContain(mineReg.slug);
    expect(onSheet).not.toContain(slug);

    const list = (await regListPage(args(page("/admin/registration?branch=" + b.id)))) as {
      table: { data: { slug: string }[] };
    };
    expect(list.table.data.map((r) => r.slug)).not.toContain(slug);
    const preList = (await preListPage(args(page("/admin/preregistration")))) as {
      table: { data: { slug: string }[] };
    };
    expect(preList.table.data.map((r) => r.slug)).not.toContain(theirPre.slug);
  });

  it("the dashboard and branch stats count the caller's branch only", async () => {
    const mine = await json(dashboardApi(args(api("/api/v1/dashboard", tokens.staffA))));
    const head = await json(dashboardApi(args(api("/api/v1/dashboard", tokens.admin))));
    expect(mine.body.data.total).toBeLessThan(head.body.data.total);
    const stats = await json(branchStatsApi(args(api("/api/v1/branch-stats", tokens.staffA))));
    expect(stats.body.data.map((r: { id: number }) => r.id)).toEqual([a.id]);
    const pageData = (await dashboardPage(args(page("/admin")))) as { stats: { total: number } };
    expect(pageData.stats.total).toBe(mine.body.data.total);
  });
});
