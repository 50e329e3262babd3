// What a user types before the page's scripts have run (a slow counter PC, a slow phone) is what
// the server receives: the page's JavaScript is held back while typing, then let through (or
// not) before the submit. Also the race behind a lost code on the counter verify page: a value
// typed while an answer was on its way must not be wiped when the answer lands.
import { expect, test, type Page } from "@playwright/test";
import { lastCode, login, readDb, USERS } from "./helpers";
import { ENTER_CODE, MISMATCH, freshDigits, freshPhone, otherCode, tokenFor } from "./counter-helpers";
import { fillPreregistration, newVisitor, saveAndConfirm } from "./public-helpers";

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "holds the page's JavaScript back");

/** Holds every /assets/*.js response until `release()`; returns the release. */
async function holdScripts(page: Page) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/.*\.js(\?.*)?$/, async (route) => {
    await gate;
    await route.continue().catch(() => undefined);
  });
  return release;
}

/** Resolves once React has hydrated the element (it carries React's props). */
async function hydrated(page: Page, selector: string) {
  await page.waitForFunction(
    (sel) => {
      const el = document.querySelector(sel);
      return !!el && Object.keys(el).some((k) => k.startsWith("__reactProps$"));
    },
    selector,
    { timeout: 20_000 },
  );
}

async function counterPreregistration(request: Parameters<typeof tokenFor>[0]) {
  const token = await tokenFor(request, USERS.staff);
  const phone = freshPhone();
  const res = await request.post("/api/v1/preregistration", {
    headers: { Authorization: `Bearer ${token}` },
    data: { name: "Early Typist", address: "Lagankhel", phone, citizenship_no: freshDigits() },
  });
  expect(res.status(), await res.text()).toBe(201);
  return { slug: ((await res.json()).data as { slug: string }).slug, phone };
}

test("counter verify: a code typed before the scripts run arrives, after hydration and before it", async ({
  page,
  request,
}) => {
  await login(page, USERS.staff);

  // Typed while the scripts are held, submitted after the page has hydrated.
  const first = await counterPreregistration(request);
  let release = await holdScripts(page);
  await page.goto(`/admin/preregistration/${first.slug}/verify`, { waitUntil: "domcontentloaded" });
  await page.getByLabel(ENTER_CODE).fill(lastCode(first.phone));
  release();
  await hydrated(page, "form input[name=code]");
  await expect(page.getByLabel(ENTER_CODE)).toHaveValue(lastCode(first.phone));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/preregistration/${first.slug}/draw$`));
  await page.unrouteAll({ behavior: "ignoreErrors" });

  // Typed and submitted while the scripts are still held (a plain form post).
  const second = await counterPreregistration(request);
  release = await holdScripts(page);
  await page.goto(`/admin/preregistration/${second.slug}/verify`, { waitUntil: "domcontentloaded" });
  await page.getByLabel(ENTER_CODE).fill(lastCode(second.phone));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/preregistration/${second.slug}/draw$`));
  release();
  await page.unrouteAll({ behavior: "ignoreErrors" });
});

test("counter verify: a code typed right after Retry is kept while an answer is on its way", async ({
  page,
  request,
}) => {
  const pre = await counterPreregistration(request);
  await login(page, USERS.staff);
  await page.goto(`/admin/preregistration/${pre.slug}/verify`);
  await hydrated(page, "form input[name=code]");
  await page.getByLabel(ENTER_CODE).fill(otherCode(lastCode(pre.phone)));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText(MISMATCH)).toBeVisible();

  // Any page data asked for now (a reload of the page's loader) waits until the code is typed.
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\.data(\?.*)?$/, async (route) => {
    if (route.request().method() === "GET") await gate;
    await route.continue().catch(() => undefined);
  });
  await page.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByLabel(ENTER_CODE)).toHaveValue("");
  const code = lastCode(pre.phone);
  await page.getByLabel(ENTER_CODE).fill(code);
  release();
  await page.waitForLoadState("networkidle");
  await expect(page.getByLabel(ENTER_CODE)).toHaveValue(code);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/preregistration/${pre.slug}/draw$`));
  await page.unrouteAll({ behavior: "ignoreErrors" });
});

test("public pre-registration: values typed before the scripts run arrive, after they run and before", async ({
  page,
}) => {
  for (const letThrough of [true, false]) {
    const visitor = newVisitor({ name: letThrough ? "Early Scripts Ran" : "Early Scripts Held" });
    const release = await holdScripts(page);
    await page.goto("/enquiry", { waitUntil: "domcontentloaded" });
    await fillPreregistration(page, visitor);
    if (letThrough) {
      release();
      await page.waitForLoadState("load");
    }
    await expect(page.locator("form[data-prereg]").getByLabel("Full Name")).toHaveValue(visitor.name);
    const slug = await saveAndConfirm(page, visitor);
    release();
    const row = readDb((db) =>
      db.prepare("select name, phone, citizenship_no from preregistrations where slug = ?").get(slug),
    ) as { name: string; phone: string; citizenship_no: string };
    expect(row).toEqual({ name: visitor.name, phone: visitor.phone, citizenship_no: visitor.citizenship });
    await page.unrouteAll({ behavior: "ignoreErrors" });
  }
});

test("scheme create: a type chosen before the scripts run sets the amounts and the branch once they do", async ({
  page,
}) => {
  await login(page, USERS.admin);
  const release = await holdScripts(page);
  await page.goto("/admin/scheme/create", { waitUntil: "domcontentloaded" });
  await page.getByLabel("Type").selectOption("registration_branch");
  release();
  await hydrated(page, "form select[name=type]");
  await expect(page.getByRole("button", { name: "Update amounts" })).toHaveCount(0);
  await expect(page.getByLabel("Type")).toHaveValue("registration_branch");
  const amount = page.getByLabel("Amount", { exact: true });
  await expect(amount.locator('option[value="100000"]')).toHaveCount(1);
  await expect(page.getByLabel("Branch")).toBeVisible();
  await page.unrouteAll({ behavior: "ignoreErrors" });
});
