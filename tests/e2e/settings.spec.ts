// /admin/settings with JavaScript on (the Lexical editor) and off (a textarea of HTML): terms edited with
// formatting and shown on /terms; a script, an onerror attribute and a javascript: link never stored; registration
// closed from the screen and the landing page closed at once. Every test puts back what it changed (the e2e
// database is shared by all specs), and holds a lock while it changes the settings (both projects run at once).
import { expect, test, type Page } from "@playwright/test";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { dbFile, isJs, login, readDb, USERS } from "./helpers";
import { setSetting } from "./data";
import { setRegistrationOpen, withRegistrationLock } from "./public-helpers";

test.describe.configure({ mode: "serial" });

const BANNER = "Registration is closed. Please contact the admin for more information.";
const TERMS = "Terms and conditions (English)";
const LOCK = path.join(path.dirname(dbFile), "settings-texts.lock");

/** The settings texts are global: one test at a time changes them, across workers and projects. */
async function withSettingsLock<T>(fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      fs.mkdirSync(LOCK);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error("settings lock not released");
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(LOCK, { recursive: true, force: true });
  }
}

function stored(key: string): unknown {
  const row = readDb((db) => db.prepare("select value from settings where key = ?").get(key)) as
    { value: string } | undefined;
  return row ? JSON.parse(row.value) : undefined;
}

const mark = (project: string) => `${isJs(project) ? "JS" : "NOJS"}-${crypto.randomBytes(3).toString("hex")}`;

async function openSettings(page: Page, js: boolean) {
  await page.goto("/admin/settings");
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
  // With JavaScript the editor replaces the textarea once its chunk has loaded.
  if (js) await expect(page.getByRole("group", { name: TERMS }).getByRole("textbox")).toBeVisible();
  else await expect(page.getByLabel(TERMS)).toBeVisible();
}

async function submit(page: Page) {
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.locator(".toast").filter({ hasText: "Settings saved." })).toBeVisible();
}

test.describe("settings", () => {
  test.beforeEach(async ({ page }) => {
    await login(page, USERS.admin);
  });

  test("the terms edited with formatting show on /terms", async ({ page }, info) => {
    const js = isJs(info.project.name);
    const id = mark(info.project.name);
    await withSettingsLock(async () => {
      const original = stored("terms");
      const lastAudit = (readDb((db) => db.prepare("select max(id) as id from audit_log").get()) as { id: number }).id;
      try {
        await openSettings(page, js);
        if (js) {
          const editor = page.getByRole("group", { name: TERMS });
          const text = editor.getByRole("textbox");
          await text.click();
          await page.keyboard.press("Control+End");
          await page.keyboard.press("Enter");
          await editor.getByRole("button", { name: "Bold" }).click();
          await page.keyboard.type(`Bold words ${id}`);
          await editor.getByRole("button", { name: "Bold" }).click();
          await page.keyboard.press("Enter");
          await editor.getByRole("button", { name: "Bulleted list" }).click();
          await page.keyboard.type(`First point ${id}`);
          await page.keyboard.press("Enter");
          await page.keyboard.type(`Second point ${id}`);
          await expect(text.locator("strong", { hasText: `Bold words ${id}` })).toBeVisible();
          await expect(editor.getByRole("button", { name: "Bulleted list" })).toHaveAttribute("aria-pressed", "true");
        } else {
          const area = page.getByLabel(TERMS);
          const html = await area.inputValue();
          await area.fill(
            `${html}\n<p><b>Bold words ${id}</b></p>\n<ul>\n<li>First point ${id}</li>\n<li>Second point ${id}</li>\n</ul>`,
          );
        }
        // The settings this form posts (other workers may change other settings, such as the draw's tables, meanwhile).
        const posted = await page
          .locator("form[method=post] [name]")
          .evaluateAll((els) => [...new Set(els.map((e) => (e as HTMLInputElement).name))]);
        await submit(page);
        await expect(
          page.getByText(/^Changed by Head Office on \d{4}\/\d{2}\/\d{2} \d{2}:\d{2}$/).first(),
        ).toBeVisible();

        // Only the terms changed: the other texts, opened and posted as they were, wrote nothing.
        const changed = readDb((db) =>
          db
            .prepare(
              `select entity_id, user_email from audit_log where entity_type = 'setting' and id > ? and entity_id in (${posted.map(() => "?").join(",")})`,
            )
            .all(lastAudit, ...posted),
        );
        expect(posted).toContain("terms");
        expect(changed).toEqual([{ entity_id: "terms", user_email: USERS.admin }]);
        const terms = String(stored("terms"));
        expect(terms).toContain(`<p><strong>Bold words ${id}</strong></p>`);
        expect(terms).toContain(`<ul><li>First point ${id}</li><li>Second point ${id}</li></ul>`);
        expect(terms).toContain("One pre-registration per phone number.");

        await page.goto("/terms");
        const text = page.getByRole("dialog", { name: "Terms and Conditions" }).locator(".rich");
        await expect(text.locator("strong", { hasText: `Bold words ${id}` })).toBeVisible();
        await expect(text.locator("ul > li")).toContainText([`First point ${id}`, `Second point ${id}`]);
        await expect(text).toContainText("One pre-registration per phone number.");
      } finally {
        setSetting("terms", original);
      }
    });
  });

  test("a script, an onerror attribute and a javascript: link are never stored nor shown", async ({ page }, info) => {
    const js = isJs(info.project.name);
    const id = mark(info.project.name);
    const attack = `<p>Unsafe ${id}<script>window.__pwned = 1</script><img src="/x.png" onerror="window.__pwned = 2"> <a href="javascript:window.__pwned = 3">click me ${id}</a> <a href="https://www.example.com/">safe link ${id}</a></p>`;
    await withSettingsLock(async () => {
      const original = stored("terms");
      try {
        await openSettings(page, js);
        if (js) {
          // What a crafted client could post: the field's value set behind the editor's back.
          await page.locator("textarea[name=terms]").evaluate((el, html) => {
            (el as HTMLTextAreaElement).value = `${(el as HTMLTextAreaElement).value}${html}`;
          }, attack);
        } else {
          const area = page.getByLabel(TERMS);
          await area.fill(`${await area.inputValue()}${attack}`);
        }
        await submit(page);

        const terms = String(stored("terms"));
        expect(terms).toContain(`Unsafe ${id}`);
        expect(terms).toContain(`click me ${id}`);
        expect(terms).not.toMatch(/<script|onerror|javascript:|<img/i);
        expect(terms).toContain(
          `<a href="https://www.example.com/" rel="noopener noreferrer" target="_blank">safe link ${id}</a>`,
        );

        await page.goto("/terms");
        const text = page.getByRole("dialog", { name: "Terms and Conditions" }).locator(".rich");
        await expect(text).toContainText(`Unsafe ${id}`);
        await expect(text).toContainText(`click me ${id}`);
        await expect(text.locator("script, img, [onerror], a[href^='javascript']")).toHaveCount(0);
        await expect(text.getByRole("link", { name: `safe link ${id}` })).toHaveAttribute("rel", "noopener noreferrer");
        if (js) expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
      } finally {
        setSetting("terms", original);
      }
    });
  });

  test("closing registration from the screen closes the landing page and its form at once", async ({ page }, info) => {
    const js = isJs(info.project.name);
    const note = `Back after the festival ${mark(info.project.name)}`;
    await withSettingsLock(() =>
      withRegistrationLock(async () => {
        try {
          await openSettings(page, js);
          await page.getByRole("radio", { name: /^Closed/ }).check();
          await page.getByLabel("Closed message", { exact: true }).fill(note);
          await submit(page);
          expect(stored("registration_open")).toBe(false);

          await page.goto("/");
          await expect(page.getByText("Registration Closed").first()).toBeVisible();
          await expect(page.getByText(BANNER)).toBeVisible();
          await expect(page.getByText(note)).toBeVisible();
          await page.goto("/enquiry");
          await expect(page.locator("form[data-prereg]").getByRole("button", { name: "Save" })).toBeDisabled();

          // Open again from the screen, with the standard message.
          await openSettings(page, js);
          await page.getByRole("radio", { name: "Open", exact: true }).check();
          await page.getByLabel("Closed message", { exact: true }).fill("");
          await submit(page);
          expect(stored("registration_open")).toBe(true);
          await page.goto("/");
          await expect(page.getByText(note)).toHaveCount(0);
          await page.goto("/enquiry");
          await expect(page.locator("form[data-prereg]").getByRole("button", { name: "Save" })).toBeEnabled();
        } finally {
          setRegistrationOpen(true);
          setSetting("closed_message", "");
        }
      }),
    );
  });

  test("Lexical loads on the settings page only, never on public pages", async ({ page }, info) => {
    test.skip(!isJs(info.project.name), "scripts only");
    const scripts: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "script") scripts.push(r.url());
    });
    for (const path of ["/", "/terms", "/scheme", "/privacy-policy"]) await page.goto(path);
    expect(scripts.filter((u) => /lexical|RichTextEditor/i.test(u))).toEqual([]);
    await openSettings(page, true);
    expect(scripts.some((u) => /RichTextEditorLexical/.test(u))).toBe(true);
  });
});
