// The SMS broadcast and referrer calls: POST /api/v1/sms (401, 403, 422 per field, the preview, 201 accepted at
// once), the history, one broadcast, its recipients and its retry, the customer search; GET /api/v1/referrer
// (401, 403, 422, the report's figures) and its download.
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { prepareBroadcast } from "~/models/broadcast.server";
import { sendQueued } from "~/models/sms-delivery.server";
import { loader as referrerLoader } from "~/routes/api.v1.referrer";
import { loader as referrerDownload } from "~/routes/api.v1.referrer.download";
import { action as smsAction, loader as smsList } from "~/routes/api.v1.sms";
import { loader as smsOne } from "~/routes/api.v1.sms.$id";
import { loader as smsRecipients } from "~/routes/api.v1.sms.$id.recipients";
import { action as smsRetry } from "~/routes/api.v1.sms.$id.retry";
import { loader as smsRegistrants } from "~/routes/api.v1.sms.registrants";
import { issueToken } from "~/http/api.server";
import { makeBranch, makeUser } from "../fixtures";
import { makeRegistration, makeTestRide } from "../referral-fixtures";
import { context, req, responseOf } from "../route-helpers";

const post = (body: unknown, token?: string, query = "") =>
  responseOf(smsAction({ request: req("POST", `/api/v1/sms${query}`, { token, json: body }), context, params: {} }));
const get = (fn: typeof smsList, url: string, token?: string, params: Record<string, string> = {}) =>
  responseOf(fn({ request: req("GET", url, { token }), context, params }));

let admin: string;
/** Branch staff hold read-registration but not send-sms. */
let noSms: string;
let branchId: number;

beforeAll(async () => {
  branchId = makeBranch().id;
  admin = issueToken((await makeUser("super-admin", null)).id, false).token;
  noSms = issueToken((await makeUser("branch-staff", branchId)).id, false).token;
});

describe("POST /api/v1/sms", () => {
  it("401 without a token, 403 without send-sms", async () => {
    expect((await post({ type: "ALL", text: "x" })).status).toBe(401);
    const refused = await post({ type: "ALL", text: "x" }, noSms);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ message: "This action is unauthorized." });
  });

  it("422 with the errors per field: type, text, branches, registrants, and a bad mobile by its position", async () => {
    const type = await post({ type: "EVERYONE", text: "x" }, admin);
    expect(type.status).toBe(422);
    expect((await type.json()).errors.type).toEqual([
      "Please choose who receives the message: All, Branch, Customer or Mobile.",
    ]);
    const text = await post({ type: "ALL", text: "  " }, admin);
    expect((await text.json()).errors).toEqual({ text: ["Please enter the message."] });
    const branches = await post({ type: "BRANCH", text: "x", branches: [] }, admin);
    expect((await branches.json()).errors).toEqual({ branches: ["Please choose at least one branch."] });
    const unknown = await post({ type: "BRANCH", text: "x", branches: [987654] }, admin);
    expect((await unknown.json()).errors).toEqual({ branches: ["Please choose branches from the list."] });
    const registrants = await post({ type: "REGISTRANTS", text: "x", registrants: ["abc"] }, admin);
    expect((await registrants.json()).errors).toEqual({ registrants: ["Please choose customers from the list."] });

    const mobiles = await post({ type: "MOBILE", text: "x", mobiles: ["9841000001", "9841000002", "12345"] }, admin);
    expect(mobiles.status).toBe(422);
    const body = await mobiles.json();
    const message = "Mobile numbers are 10 digits starting with 9. Mobile number 3 is invalid";
    expect(body).toEqual({ message, errors: { mobiles: [message], phone: [message] } });
    // The comma-separated text reads the same way.
    const typed = await post({ type: "MOBILE", text: "x", mobiles: "9841000001,,98410" }, admin);
    expect((await typed.json()).errors.mobiles).toEqual([
      "Mobile numbers are 10 digits starting with 9. Mobile number 3 is invalid",
    ]);
  });

  it("a long typed list, read off the event loop a slice at a time, keeps each number and each bad entry's place", async () => {
    // 30,100 entries (about 390 KB of JSON): parsed by the worker, received and read in slices.
    const numbers = Array.from({ length: 30_000 }, (_, i) => String(9_700_000_000 + i));
    const bad = [...numbers];
    bad[7000] = "12345";
    bad[24_999] = "98-41";
    const refused = await post({ type: "MOBILE", text: "x", mobiles: bad }, admin);
    expect(refused.status).toBe(422);
    const at = (n: number) => `Mobile numbers are 10 digits starting with 9. Mobile number ${n} is invalid`;
    expect((await refused.json()).errors.mobiles).toEqual([at(7001), at(25_000)]);
    // Its preview counts them (and sends nothing, so the queue stays as the next tests expect).
    const typed = [...numbers, ...numbers.slice(0, 100), "9800000000"];
    const res = await post({ type: "MOBILE", text: "x", mobiles: typed, preview: true }, admin);
    expect(res.status).toBe(200);
    expect((await res.json()).data).toMatchObject({ type: "MOBILE", recipients: 30_001, duplicates: 100 });
  });

  it("preview=true answers what it would do and sends nothing", async () => {
    const before = db.select().from(schema.smsBroadcasts).all().length;
    const res = await post({ type: "MOBILE", text: "नमस्ते", mobiles: "9841000011, 9841000012", preview: true }, admin);
    expect(res.status).toBe(200);
    expect((await res.json()).data).toMatchObject({
      type: "MOBILE",
      recipients: 2,
      skipped: 0,
      duplicates: 0,
      sms: { encoding: "UCS-2", characters: 6, parts: 1 },
      total_parts: 2,
      credit: { provider: "outbox", known: false, value: null },
    });
    const viaQuery = await post({ type: "MOBILE", text: "x", mobiles: "9841000011" }, admin, "?preview=1");
    expect((await viaQuery.json()).data.recipients).toBe(1);
    expect(db.select().from(schema.smsBroadcasts).all().length).toBe(before);
  });

  it("201: accepted with its counts; then the history, the broadcast, its recipients and a retry", async () => {
    const res = await post(
      { type: "MOBILE", text: "Offer", mobiles: ["9841000021", "+9779841000022", "9841000021"] },
      admin,
    );
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.message).toBe("The message is on its way to 2 recipients.");
    expect(body.data).toMatchObject({ type: "MOBILE", total: 2, duplicates: 1, sent: 0, failed: 0, parts: 1 });
    const id = body.data.id as number;
    await prepareBroadcast(id);
    await sendQueued(50, {
      name: "outbox",
      send: async (to) =>
        to === "9841000022" ? { ok: false, reply: "", error: "refused", permanent: true } : { ok: true, reply: "ok" },
    });

    const one = await get(smsOne, `/api/v1/sms/${id}`, admin, { id: String(id) });
    expect((await one.json()).data).toMatchObject({ id, total: 2, sent: 1, failed: 1, queued: 0, status: "done" });
    expect((await get(smsOne, `/api/v1/sms/${id}`, noSms, { id: String(id) })).status).toBe(403);
    expect((await get(smsOne, "/api/v1/sms/99999999", admin, { id: "99999999" })).status).toBe(404);

    const history = await (await get(smsList, "/api/v1/sms?search=Offer", admin)).json();
    expect(history.data.map((b: { id: number }) => b.id)).toContain(id);
    const failed = await get(smsRecipients, `/api/v1/sms/${id}/recipients?status=failed`, admin, { id: String(id) });
    expect((await failed.json()).data.map((r: { to: string }) => r.to)).toEqual(["9841000022"]);

    const retry = await responseOf(
      smsRetry({
        request: req("POST", `/api/v1/sms/${id}/retry`, { token: admin }),
        context,
        params: { id: String(id) },
      }),
    );
    expect(retry.status).toBe(200);
    expect((await retry.json()).data).toEqual({ requeued: 1 });
    const again = await responseOf(
      smsRetry({
        request: req("POST", `/api/v1/sms/${id}/retry`, { token: admin }),
        context,
        params: { id: String(id) },
      }),
    );
    expect(again.status).toBe(409);
    const audit = db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.action, "sms.broadcast"), eq(schema.auditLog.entity_id, String(id))))
      .get();
    expect(JSON.parse(audit!.changes)).toMatchObject({ recipients: { after: 2 }, duplicates: { after: 1 } });
  });

  it("GET /api/v1/sms/registrants finds customers by name for the customer select", async () => {
    const reg = makeRegistration(branchId, { name: "Zenith Customer" });
    const res = await get(smsRegistrants, "/api/v1/sms/registrants?q=Zenith", admin);
    expect((await res.json()).data).toEqual([
      { value: reg.id, label: expect.stringMatching(/^Zenith Customer \(\d{2}X+\d{2}\)$/) },
    ]);
    expect((await get(smsRegistrants, "/api/v1/sms/registrants?q=Zenith", noSms)).status).toBe(403);
  });
});

describe("GET /api/v1/referrer", () => {
  it("401, 403 without read-registration, 422 for a date that does not read", async () => {
    const url = "/api/v1/referrer";
    expect((await get(referrerLoader, url)).status).toBe(401);
    const nobody = await makeUser("branch-staff", branchId);
    const role = db
      .insert(schema.roles)
      .values({ slug: `none-${Date.now()}`, title: "None" })
      .returning()
      .get();
    db.update(schema.users).set({ role_id: role.id }).where(eq(schema.users.id, nobody.id)).run();
    const none = issueToken(nobody.id, false).token;
    expect((await get(referrerLoader, url, none)).status).toBe(403);
    const bad = await get(referrerLoader, `${url}?from=2026/02/30`, admin);
    expect(bad.status).toBe(422);
    expect(await bad.json()).toEqual({
      message: "Enter the date as yyyy/MM/dd.",
      errors: { from: ["Enter the date as yyyy/MM/dd."] },
    });
    const download = await responseOf(
      referrerDownload({
        request: req("GET", "/api/v1/referrer/download?to=yesterday", { token: admin }),
        context,
        params: {},
      }),
    );
    expect(download.status).toBe(422);
  });

  it("the report's rows with the database's figures; a branch user gets their branch; Referrers.xls", async () => {
    const other = makeBranch().id;
    const mine = makeRegistration(branchId, { name: "Mina Referrer" });
    const theirs = makeRegistration(other, { name: "Tara Referrer" });
    makeRegistration(branchId, { registration_id: mine.id });
    makeRegistration(other, { registration_id: mine.id });
    makeTestRide(other, { referrer_id: mine.id });
    makeTestRide(other, { referrer_id: theirs.id });
    const count = (sql: string, id: number) => db.$client.prepare(sql).pluck().get(id) as number;

    const res = await get(referrerLoader, "/api/v1/referrer?from=2020/01/01&draw=3", admin);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.draw).toBe(3);
    const row = body.data.find((r: { title: string }) => r.title === "Mina Referrer");
    expect(row).toMatchObject({
      referrals_count: count(
        "select count(*) from registrations where registration_id = ? and deleted_at is null",
        mine.id,
      ),
      test_rides_count: count("select count(*) from test_rides where referrer_id = ? and deleted_at is null", mine.id),
      preregistrations_count: 0,
      branch: { title: expect.any(String) },
    });
    expect(row.referrals_count).toBe(2);
    expect(row.test_rides_count).toBe(1);
    expect(Object.keys(row).sort()).toEqual(
      ["branch", "id", "preregistrations_count", "referrals_count", "slug", "test_rides_count", "title"].sort(),
    );

    const branchUser = await makeUser("branch-manager", branchId);
    const scoped = await (await get(referrerLoader, "/api/v1/referrer", issueToken(branchUser.id, false).token)).json();
    const titles = scoped.data.map((r: { title: string }) => r.title);
    expect(titles).toContain("Mina Referrer");
    expect(titles).not.toContain("Tara Referrer");

    const file = await responseOf(
      referrerDownload({ request: req("GET", "/api/v1/referrer/download", { token: admin }), context, params: {} }),
    );
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Disposition")).toBe('attachment; filename="Referrers.xls"');
    expect((await file.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });
});
