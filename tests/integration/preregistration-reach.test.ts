/**
 * Who reaches a public pre-registration and its proof screenshot (issue 16):
 * a branch by the rule its lists use (named as nearest showroom, or found at
 * the counter by the full phone number, which is recorded), by slug only;
 * never by a sequential number, through pages, the API and /files alike.
 */
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { createPreregistration } from "~/models/preregistration.server";
import { getSessionUser } from "~/models/user.server";
import { loader as prePage } from "~/routes/admin.preregistration.$slug._index";
import { loader as preListPage } from "~/routes/admin.preregistration._index";
import { loader as preVerifyPage } from "~/routes/admin.preregistration.$slug.verify";
import { loader as preList } from "~/routes/api.v1.preregistration";
import { loader as regList } from "~/routes/api.v1.registration";
import { loader as regListPage } from "~/routes/admin.registration._index";
import { action as preWrite, loader as preOne } from "~/routes/api.v1.preregistration.$id";
import { action as preVerify } from "~/routes/api.v1.preregistration.$id.verify";
import { action as preResend } from "~/routes/api.v1.preregistration.$id.resend";
import { loader as fileLoader } from "~/routes/files.$key";
import { publicPreregistrationSchema } from "~/schemas/preregistration";
import { issueToken } from "~/http/api.server";
import { createUserSession } from "~/http/auth.server";
import { makeBranch, makeUser, nextPhone } from "../fixtures";
import { responseOf } from "../route-helpers";

const ctx = { clientAddress: "10.8.0.1" };
const args = (request: Request, params: Record<string, string> = {}) => ({ request, context: ctx, params });
const api = (path: string, token: string, init: { method?: string; json?: unknown } = {}) =>
  new Request(`http://localhost${path}`, {
    method: init.method ?? (init.json !== undefined ? "POST" : "GET"),
    headers: {
      Authorization: `Bearer ${token}`,
      ...(init.json !== undefined ? { "Content-Type": "application/json" } : {}),
    },
    body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
  });
const page = (path: string, cookie: string) => new Request(`http://localhost${path}`, { headers: { Cookie: cookie } });

async function login(role: "super-admin" | "branch-staff", branchId: number | null) {
  const user = await makeUser(role, branchId);
  const session = await createUserSession(page("/login", ""), getSessionUser(user.id)!, false, "/admin");
  return { token: issueToken(user.id, false).token, cookie: session.headers.get("Set-Cookie")!.split(";")[0] };
}

let a: ReturnType<typeof makeBranch>;
let b: ReturnType<typeof makeBranch>;
let staffA: Awaited<ReturnType<typeof login>>;
let staffB: Awaited<ReturnType<typeof login>>;
let head: Awaited<ReturnType<typeof login>>;
let online: { id: number; slug: string; phone: string; screenshotKey: string };

beforeAll(async () => {
  a = makeBranch({ title: "Reach A" });
  b = makeBranch({ title: "Reach B" });
  staffA = await login("branch-staff", a.id);
  staffB = await login("branch-staff", b.id);
  head = await login("super-admin", null);
  const image = await sharp({ create: { width: 40, height: 40, channels: 3, background: "#0a0" } })
    .png()
    .toBuffer();
  const value = publicPreregistrationSchema.parse({
    name: "Online Visitor",
    address: "Pokhara",
    phone: nextPhone(),
    citizenship_no: "99001122",
    nearest_branch_id: b.id,
    shared: "on",
  });
  const created = await createPreregistration({ channel: "public", address: null }, value, {
    file: new File([new Uint8Array(image)], "share.png", { type: "image/png" }),
  });
  if (!created.ok) throw new Error(created.message);
  const pre = created.preregistration;
  const detail = await (
    await responseOf(preOne(args(api(`/api/v1/preregistration/${pre.slug}`, head.token), { id: pre.slug })))
  ).json();
  online = {
    id: pre.id,
    slug: pre.slug,
    phone: pre.phone,
    screenshotKey: String(detail.data.screenshot_url).replace("/files/", ""),
  };
});

const status = async (p: unknown) => (await responseOf(p)).status;
const file = (cookie: string) =>
  responseOf(fileLoader(args(page(`/files/${online.screenshotKey}`, cookie), { key: online.screenshotKey })));

describe("a public pre-registration and its screenshot", () => {
  it("are never reached by a sequential number, by anyone", async () => {
    const id = String(online.id);
    for (const who of [staffA, staffB, head]) {
      expect(await status(preOne(args(api(`/api/v1/preregistration/${id}`, who.token), { id })))).toBe(404);
      expect(
        await status(preWrite(args(api(`/api/v1/preregistration/${id}`, who.token, { json: { note: "x" } }), { id }))),
      ).toBe(404);
      expect(
        await status(
          preVerify(args(api(`/api/v1/preregistration/${id}/verify`, who.token, { json: { code: "1" } }), { id })),
        ),
      ).toBe(404);
      const pageAnswer = await responseOf(
        prePage(args(page(`/admin/preregistration/${id}`, who.cookie), { slug: id })),
      );
      expect(pageAnswer.headers.get("Location")).toBe("/admin");
    }
  });

  it("reach the showroom it named, by slug, with the screenshot", async () => {
    const slug = online.slug;
    expect(await status(preOne(args(api(`/api/v1/preregistration/${slug}`, staffB.token), { id: slug })))).toBe(200);
    expect(await status(prePage(args(page(`/admin/preregistration/${slug}`, staffB.cookie), { slug })))).toBe(200);
    expect((await file(staffB.cookie)).status).toBe(200);
    expect((await file(head.cookie)).status).toBe(200);
    expect((await file("")).status).toBe(404);
  });

  it("stay out of another branch's reach by slug, page, API and /files, until found at its counter", async () => {
    const slug = online.slug;
    expect(await status(preOne(args(api(`/api/v1/preregistration/${slug}`, staffA.token), { id: slug })))).toBe(404);
    expect(
      await status(
        preWrite(args(api(`/api/v1/preregistration/${slug}`, staffA.token, { json: { note: "x" } }), { id: slug })),
      ),
    ).toBe(404);
    expect(
      await status(
        preResend(args(api(`/api/v1/preregistration/${slug}/resend`, staffA.token, { method: "POST" }), { id: slug })),
      ),
    ).toBe(404);
    const pageAnswer = await responseOf(prePage(args(page(`/admin/preregistration/${slug}`, staffA.cookie), { slug })));
    expect(pageAnswer.headers.get("Location")).toBe("/admin");
    const verifyAnswer = await responseOf(
      preVerifyPage(args(page(`/admin/preregistration/${slug}/verify`, staffA.cookie), { slug })),
    );
    expect(verifyAnswer.headers.get("Location")).toBe("/admin");
    expect((await file(staffA.cookie)).status).toBe(404);
    // Part of the number is not finding the customer.
    await responseOf(preList(args(api(`/api/v1/preregistration?phone=${online.phone.slice(0, 7)}`, staffA.token))));
    expect(await status(preOne(args(api(`/api/v1/preregistration/${slug}`, staffA.token), { id: slug })))).toBe(404);

    // The customer at branch A's counter: staff type the full phone number into the list.
    const listed = (await preListPage(args(page(`/admin/preregistration?search=${online.phone}`, staffA.cookie)))) as {
      table: { data: { slug: string }[] };
    };
    expect(listed.table.data.map((r) => r.slug)).toEqual([slug]);
    // Recorded: later loads by slug work, in pages, API and /files.
    expect(await status(preOne(args(api(`/api/v1/preregistration/${slug}`, staffA.token), { id: slug })))).toBe(200);
    expect(await status(prePage(args(page(`/admin/preregistration/${slug}`, staffA.cookie), { slug })))).toBe(200);
    expect((await file(staffA.cookie)).status).toBe(200);
    // Never by number.
    const id = String(online.id);
    expect(await status(preOne(args(api(`/api/v1/preregistration/${id}`, staffA.token), { id })))).toBe(404);
  });

  it("a filter that is not one of its choices answers 422 in the API and a message at the filter on the page", async () => {
    const res = await responseOf(preList(args(api("/api/v1/preregistration?from=abc&bike_model=x", staffA.token))));
    expect(res.status).toBe(422);
    expect((await res.json()).errors).toEqual({
      from: ["Enter the date as yyyy/MM/dd (or yyyy/MM/dd HH:mm)."],
      bike_model: ["Choose a bike model from the list."],
    });
    const shown = (await preListPage(args(page("/admin/preregistration?from=abc", staffA.cookie)))) as {
      filterErrors: Record<string, string[]>;
      table: { recordsFiltered: number };
    };
    expect(shown.filterErrors).toEqual({ from: ["Enter the date as yyyy/MM/dd (or yyyy/MM/dd HH:mm)."] });
    expect(shown.table.recordsFiltered).toBeGreaterThanOrEqual(0);
  });

  it("a search with no word of 3 characters is refused at the search field, in the API and on the pages", async () => {
    const short = ["Type at least 3 letters or digits to search."];
    for (const q of ["phone=ab", "search=ab", "search%5Bvalue%5D=9", "phone=ab%20cd"]) {
      const res = await responseOf(preList(args(api(`/api/v1/preregistration?${q}`, staffA.token))));
      expect(res.status, q).toBe(422);
      expect((await res.json()).errors, q).toEqual({ phone: short });
    }
    const reg = await responseOf(regList(args(api("/api/v1/registration?search=ab", staffA.token))));
    expect(reg.status).toBe(422);
    expect((await reg.json()).errors).toEqual({ search: short });

    // The pre-registration page lists without it; the registration page shows no rows (as for any refused filter).
    const pre = (await preListPage(args(page("/admin/preregistration?search=ab", staffA.cookie)))) as {
      filterErrors: Record<string, string[]>;
    };
    expect(pre.filterErrors).toEqual({ phone: short });
    const regPage = await responseOf(regListPage(args(page("/admin/registration?search=ab", staffA.cookie))));
    expect(regPage.status).toBe(422);
    expect((await regPage.json()).filterErrors).toEqual({ search: short });

    // Three characters (a name's part, digits) are a search.
    expect((await responseOf(preList(args(api("/api/v1/preregistration?phone=abc", staffA.token))))).status).toBe(200);
    expect((await responseOf(regList(args(api("/api/v1/registration?search=980", staffA.token))))).status).toBe(200);
  });
});
