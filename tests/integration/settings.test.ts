// Settings (spec 001 §2.9, §3, §7): the model (stored HTML, history in the audit trail, changes made meanwhile),
// the back-office page's action (login only to open, update-settings to save, the textarea's HTML), the calls
// PATCH /api/v1/setting (401, 403, 422, success) and GET /api/v1/settings, and the public pages reading them.
import { and, eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db, schema } from "@db/index";
import { storeImage } from "~/models/file.server";
import { SYSTEM_ACTOR } from "~/models/scope.server";
import {
  closedMessage,
  isRegistrationOpen,
  lastSettingChanges,
  publicSettings,
  readSettings,
  settingsText,
  settingVersion,
  updateSettings,
} from "~/models/settings.server";
import { action as pageAction, loader as pageLoader } from "~/routes/admin.settings";
import { action as patchSetting, loader as getSetting } from "~/routes/api.v1.setting";
import { loader as getSettings } from "~/routes/api.v1.settings";
import { loader as landing } from "~/routes/_index";
import { loader as termsPage } from "~/routes/terms";
import { DEFAULT_CLOSED_MESSAGE } from "~/schemas/settings";
import { readToast } from "~/http/toast.server";
import { call, req, staffWith } from "../route-helpers";
import { smallPng } from "./images";

type Staff = Awaited<ReturnType<typeof staffWith>>;
let editor: Staff;
let reader: Staff;
let logoId: number;
let screenshotId: number;

const json = async (res: Response) => ({ status: res.status, body: await res.json() });

function auditRows(key: string) {
  return db
    .select()
    .from(schema.auditLog)
    .where(and(eq(schema.auditLog.entity_type, "setting"), eq(schema.auditLog.entity_id, key)))
    .all();
}

function stored(key: string): unknown {
  const row = db.select().from(schema.settings).where(eq(schema.settings.key, key)).get();
  return row ? JSON.parse(row.value) : undefined;
}

beforeAll(async () => {
  editor = await staffWith(["update-settings"]);
  reader = await staffWith(["read-registration"]);
  logoId = (await storeImage(await smallPng(), { type: "logo", filename: "logo.png" })).id;
  screenshotId = (await storeImage(await smallPng(), { type: "screenshot", filename: "proof.png" })).id;
});

beforeEach(async () => {
  const reset = await updateSettings(SYSTEM_ACTOR, {
    terms: "<p>Base terms.</p>",
    terms_ne: "",
    registration_open: true,
    closed_message: "",
    closed_message_ne: "",
    video: "",
  });
  expect(reset.ok).toBe(true);
});

describe("updateSettings (the model)", () => {
  it("stores the sanitised HTML and writes one audit row per changed setting, with before and after", async () => {
    const before = auditRows("terms").length;
    const actor = { ...editor.user, scope: { branchId: null }, address: "10.0.0.9" };
    const result = await updateSettings(actor, {
      terms:
        '<p>New <b>terms</b><script>alert(1)</script><img src=x onerror="alert(1)"> <a href="javascript:alert(1)">x</a></p>',
      scheme_ne: undefined,
      video: "https://www.example.com/watch?v=1",
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.changed.sort()).toEqual(["terms", "video"]);
    expect(stored("terms")).toBe("<p>New <strong>terms</strong> x</p>");
    const rows = auditRows("terms");
    expect(rows.length).toBe(before + 1);
    const last = rows[rows.length - 1];
    expect(last).toMatchObject({ action: "setting.update", user_id: editor.user.id, address: "10.0.0.9" });
    expect(JSON.parse(last.changes)).toEqual({
      terms: { before: "<p>Base terms.</p>", after: "<p>New <strong>terms</strong> x</p>" },
    });
    expect(auditRows("video").length).toBeGreaterThan(0);
  });

  it("a setting sent unchanged writes nothing", async () => {
    const before = auditRows("terms").length;
    const result = await updateSettings(SYSTEM_ACTOR, { terms: "<p>Base   terms.</p>", registration_open: true });
    expect(result.ok && result.changed).toEqual([]);
    expect(auditRows("terms").length).toBe(before);
  });

  it("the last change of each setting: who and when", async () => {
    const actor = { ...editor.user, scope: { branchId: null }, address: "x" };
    await updateSettings(actor, { terms: "<p>Changed by the editor.</p>" });
    const changes = lastSettingChanges();
    expect(changes.terms?.by).toBe(editor.user.name);
    expect(changes.terms?.at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it("the logo must be an image of the picker (not a private file)", async () => {
    const refused = await updateSettings(SYSTEM_ACTOR, { logo: screenshotId });
    expect(refused).toMatchObject({ ok: false, code: "invalid", errors: { logo: [expect.any(String)] } });
    const ok = await updateSettings(SYSTEM_ACTOR, { logo: logoId });
    expect(ok.ok).toBe(true);
    expect(publicSettings()).toMatchObject({ logo: logoId, logo_url: expect.stringMatching(/^\/files\//) });
    await updateSettings(SYSTEM_ACTOR, { logo: null });
    expect(publicSettings()).toMatchObject({ logo: null, logo_url: null });
  });

  it("a change made by someone else meanwhile is kept, and overwriting it is refused on its field", async () => {
    const shown = readSettings();
    const seen = { terms: settingVersion(shown.terms), policy: settingVersion(shown.policy) };
    // Someone else saves the terms.
    await updateSettings({ ...reader.user, scope: { branchId: null }, address: "x" }, { terms: "<p>Theirs.</p>" });
    // This page still posts the terms it showed: left alone, the other change stays.
    const untouched = await updateSettings(SYSTEM_ACTOR, { terms: shown.terms, policy: "<p>Mine.</p>" }, seen);
    expect(untouched.ok && untouched.changed).toEqual(["policy"]);
    expect(stored("terms")).toBe("<p>Theirs.</p>");
    // This page changed the terms too: refused, with who changed them.
    const clash = await updateSettings(SYSTEM_ACTOR, { terms: "<p>Mine too.</p>" }, seen);
    expect(clash).toMatchObject({ ok: false, code: "conflict" });
    if (clash.ok) return;
    expect(clash.errors.terms[0]).toContain(`Terms and conditions was changed by ${reader.user.name} on `);
    expect(stored("terms")).toBe("<p>Theirs.</p>");
    // Saved again with the current version: it replaces theirs.
    const again = await updateSettings(
      SYSTEM_ACTOR,
      { terms: "<p>Mine too.</p>" },
      { terms: settingVersion("<p>Theirs.</p>") },
    );
    expect(again.ok).toBe(true);
    expect(stored("terms")).toBe("<p>Mine too.</p>");
  });

  it("registration open and closed, and the closed message", async () => {
    expect(isRegistrationOpen()).toBe(true);
    await updateSettings(SYSTEM_ACTOR, { registration_open: false });
    expect(isRegistrationOpen()).toBe(false);
    expect(closedMessage("en")).toBeNull(); // the spec's banner: the form shows it already
    await updateSettings(SYSTEM_ACTOR, { closed_message: "Back after Dashain.", closed_message_ne: "दशैंपछि फेरि।" });
    expect(closedMessage("en")).toBe("Back after Dashain.");
    expect(closedMessage("ne")).toBe("दशैंपछि फेरि।");
    await updateSettings(SYSTEM_ACTOR, { closed_message_ne: "" });
    expect(closedMessage("ne")).toBe("Back after Dashain.");
    expect(publicSettings().closed_message).toBe("Back after Dashain.");
    await updateSettings(SYSTEM_ACTOR, { closed_message: "" });
    expect(publicSettings().closed_message).toBe(DEFAULT_CLOSED_MESSAGE);
  });
});

describe("the public pages and GET /api/v1/settings show a saved change on the next request", () => {
  it("/terms, the landing page and the API", async () => {
    await updateSettings(SYSTEM_ACTOR, {
      terms: "<h1>Fresh</h1><p>Terms <em>now</em></p>",
      terms_ne: "<p>नयाँ सर्त</p>",
      video: "https://www.example.com/v",
      registration_open: false,
      closed_message: "Closed for the festival.",
    });
    const page = (await call(termsPage, req("GET", "/terms"))) as Response;
    expect((await page.json()).html).toBe("<h2>Fresh</h2><p>Terms <em>now</em></p>");
    expect(settingsText("terms", "ne")).toBe("<p>नयाँ सर्त</p>");
    const home = await (await call(landing, req("GET", "/"))).json();
    expect(home).toMatchObject({
      chrome: { registrationOpen: false },
      video: "https://www.example.com/v",
      closedMessage: "Closed for the festival.",
    });
    const api = await json(await call(getSettings, req("GET", "/api/v1/settings")));
    expect(api.status).toBe(200);
    expect(api.body.data).toMatchObject({
      terms: "<h2>Fresh</h2><p>Terms <em>now</em></p>",
      terms_ne: "<p>नयाँ सर्त</p>",
      video: "https://www.example.com/v",
      registration_open: false,
      closed_message: "Closed for the festival.",
    });
    expect(Object.keys(api.body.data).sort()).toEqual(
      [
        "logo",
        "logo_url",
        "scheme",
        "terms",
        "policy",
        "scheme_ne",
        "terms_ne",
        "policy_ne",
        "video",
        "registration_open",
        "closed_message",
        "closed_message_ne",
      ].sort(),
    );
  });

  it("a text written straight into the database is still sanitised when shown", async () => {
    db.update(schema.settings)
      .set({ value: JSON.stringify('<p onclick="x()">Raw<script>alert(1)</script></p>') })
      .where(eq(schema.settings.key, "terms"))
      .run();
    expect(settingsText("terms", "en")).toBe("<p>Raw</p>");
    expect(publicSettings().terms).toBe("<p>Raw</p>");
  });
});

describe("PATCH /api/v1/setting", () => {
  const patch = (token: string | undefined, body: unknown) =>
    call(patchSetting, req("PATCH", "/api/v1/setting", { token, json: body }));

  it("401 without a token, 403 without update-settings", async () => {
    expect((await json(await patch(undefined, { terms: "x" }))).status).toBe(401);
    const forbidden = await json(await patch(reader.token, { terms: "x" }));
    expect(forbidden).toEqual({ status: 403, body: { message: "This action is unauthorized." } });
    expect(stored("terms")).toBe("<p>Base terms.</p>");
  });

  it("422 with the errors per field", async () => {
    const res = await json(
      await patch(editor.token, {
        logo: "abc",
        terms: { html: "x" },
        video: "javascript:alert(1)",
        registration_open: "maybe",
        closed_message: "x".repeat(301),
        scheme: "y".repeat(100_001),
      }),
    );
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      logo: ["Choose an image from the picker or upload one."],
      terms: ["Send the text as a string of HTML or plain text."],
      video: ["Enter the video address, starting with http:// or https://."],
      registration_open: ["Choose whether registration is open or closed."],
      closed_message: ["The closed message may not be longer than 300 characters."],
      scheme: ["Each text may not be longer than 100,000 characters."],
    });
    expect(res.body.message).toBe("Choose an image from the picker or upload one.");
    const empty = await json(await patch(editor.token, {}));
    expect(empty).toEqual({
      status: 422,
      body: {
        message: "Send at least one setting to change.",
        errors: { form: ["Send at least one setting to change."] },
      },
    });
    const picker = await json(await patch(editor.token, { logo: screenshotId }));
    expect(picker.status).toBe(422);
    expect(picker.body.errors.logo).toEqual(["Choose an image from the picker or upload one."]);
  });

  it("200 with {data, message}: the fields sent change, the others stay; the stored HTML is sanitised", async () => {
    const res = await json(
      await patch(editor.token, {
        logo: logoId,
        scheme: "<p>Scheme <strong>text</strong></p>",
        terms: '<p>T<script>alert(1)</script><img src=x onerror=alert(1)><a href="javascript:alert(1)">link</a></p>',
        policy: "Plain policy\n\nSecond paragraph",
        registration_open: false,
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("Settings updated.");
    expect(res.body.data).toMatchObject({
      logo: logoId,
      scheme: "<p>Scheme <strong>text</strong></p>",
      terms: "<p>Tlink</p>",
      policy: "<p>Plain policy</p><p>Second paragraph</p>",
      registration_open: false,
      video: null,
    });
    expect(stored("terms")).toBe("<p>Tlink</p>");
    expect(isRegistrationOpen()).toBe(false);
    const last = auditRows("terms").at(-1)!;
    expect(last.user_id).toBe(editor.user.id);
    // null clears; the same again changes nothing.
    const cleared = await json(await patch(editor.token, { logo: null, scheme: null, registration_open: true }));
    expect(cleared.body.data).toMatchObject({ logo: null, scheme: "", registration_open: true });
    const same = await json(await patch(editor.token, { registration_open: true }));
    expect(same.body.message).toBe("Nothing changed.");
  });

  it("takes a form body too (urlencoded); an empty field clears", async () => {
    const form = new URLSearchParams({ terms: "<p>From a <em>form</em></p>", video: "", registration_open: "false" });
    const res = await json(await call(patchSetting, req("PATCH", "/api/v1/setting", { token: editor.token, form })));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      terms: "<p>From a <em>form</em></p>",
      video: null,
      registration_open: false,
    });
  });

  it("GET is not a call of its own (405)", async () => {
    expect((await call(getSetting, req("GET", "/api/v1/setting"))).status).toBe(405);
  });
});

describe("/admin/settings", () => {
  const page = (cookie: string, method = "GET", body?: FormData) =>
    call(
      method === "GET" ? pageLoader : pageAction,
      req(method, "/admin/settings", { headers: { Cookie: cookie }, form: body }),
    );

  it("opens for any signed-in staff member; only update-settings may save", async () => {
    const read = await json(await page(reader.cookie));
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ canEdit: false, files: [] });
    expect(read.body.values.terms).toBe("<p>Base terms.</p>");

    const body = new FormData();
    body.set("terms", "<p>Not allowed</p>");
    const refused = await page(reader.cookie, "POST", body);
    expect(refused.status).toBe(302);
    expect(refused.headers.get("Location")).toBe("/admin/settings");
    const toast = await readToast(
      new Request("http://localhost/", { headers: { Cookie: refused.headers.get("Set-Cookie")!.split(";")[0] } }),
    );
    expect(toast.toast?.message).toBe("You do not have permission to change Settings.");
    expect(stored("terms")).toBe("<p>Base terms.</p>");
  });

  it("saves the whole form (the textarea's HTML without JavaScript), shows who changed each text", async () => {
    const loaded = await json(await page(editor.cookie));
    expect(loaded.body.canEdit).toBe(true);
    const form = new FormData();
    for (const [k, v] of Object.entries(loaded.body.values as Record<string, string>)) form.set(k, v);
    for (const [k, v] of Object.entries(loaded.body.versions as Record<string, string>)) form.set(`seen.${k}`, v);
    form.set("terms", '<p>Edited <b>without</b> JavaScript</p><ul><li>one</li></ul><p onmouseover="x()">end</p>');
    form.set("registration_open", "false");
    form.set("closed_message", "We are closed.");
    form.set("logo", "");
    const saved = await page(editor.cookie, "POST", form);
    expect(saved.status).toBe(302);
    expect(stored("terms")).toBe("<p>Edited <strong>without</strong> JavaScript</p><ul><li>one</li></ul><p>end</p>");
    expect(stored("registration_open")).toBe(false);
    expect(stored("closed_message")).toBe("We are closed.");
    const after = await json(await page(editor.cookie));
    expect(after.body.changes.terms).toMatch(
      new RegExp(`^Changed by ${editor.user.name} on \\d{4}/\\d{2}/\\d{2} \\d{2}:\\d{2}$`),
    );
    expect(after.body.values.registration_open).toBe("false");
  });

  it("a refused form comes back with what was typed and the field's message", async () => {
    const form = new FormData();
    form.set("terms", "<p>Kept as typed</p>");
    form.set("video", "ftp://nope");
    const res = await json(await page(editor.cookie, "POST", form));
    expect(res.status).toBe(422);
    expect(res.body.result.error.video).toEqual(["Enter the video address, starting with http:// or https://."]);
    expect(res.body.result.initialValue.terms).toBe("<p>Kept as typed</p>");
    expect(stored("terms")).toBe("<p>Base terms.</p>");
  });
});
