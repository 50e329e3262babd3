// /fair-draws: a visitor reads how draws are made, finds their own draw by its reference, and
// checks a day that is over (in the browser with JavaScript; the page says how without it). axe 0.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { isJs } from "./helpers";
import { PHONE_VIEWPORT } from "./public-helpers";

test.use({ viewport: PHONE_VIEWPORT });

/** axe over the page as served; axe needs JavaScript, so without it the page is scanned with its own scripts removed. */
async function axe(page: Page, browser: Browser, jsOn: boolean) {
  let target = page;
  if (!jsOn) {
    const context = await browser.newContext({ viewport: PHONE_VIEWPORT, javaScriptEnabled: true });
    await context.route("**/*", async (route) => {
      if (route.request().resourceType() !== "document") return route.continue();
      const response = await route.fetch({ maxRedirects: 0 });
      const body = (await response.text()).replace(/<script\b[\s\S]*?<\/script>/gi, "");
      return route.fulfill({ response, body });
    });
    target = await context.newPage();
    await target.goto(page.url());
  }
  const results = await new AxeBuilder({ page: target }).withTags(["wcag2a", "wcag2aa", "wcag21aa"]).analyze();
  if (target !== page) await target.context().close();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

test("the landing page links to fair draws, which lists days with their commitments", async ({
  page,
  browser,
}, info) => {
  await page.goto("/");
  await page.getByRole("link", { name: "Fair draws" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Fair draws" })).toBeVisible();
  const rows = page.locator("table.fair-days tbody tr");
  await expect(rows.first()).toBeVisible();
  // Tomorrow's commitment is published ahead; its seed is not.
  await expect(rows.first()).toContainText("Published when the day is over");
  expect(await axe(page, browser, isJs(info.project.name))).toEqual([]);
});

test("a past day checks, and a visitor finds a draw by its reference", async ({ page, browser }, info) => {
  await page.goto("/fair-draws");
  // The demo seed's days before today are over: their seeds are published.
  const past = page.locator("table.fair-days tbody tr").filter({ hasNotText: "Published when the day is over" });
  const link = past
    .filter({ hasNotText: /^\S+\s0\s/ })
    .first()
    .getByRole("link");
  await link.click();
  await expect(page.getByRole("heading", { level: 1, name: /^Draws of / })).toBeVisible();
  const ref = (await page.locator("table.fair-records tbody tr").first().locator("code").textContent()) ?? "";
  expect(ref).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
  expect(await axe(page, browser, isJs(info.project.name))).toEqual([]);

  const check = page.getByRole("button", { name: "Check this day" });
  if (isJs(info.project.name)) {
    await check.click();
    await expect(page.getByRole("status")).toHaveText(
      "Every draw of this day checks: the seed matches its commitment and the chain is whole.",
    );
  } else {
    await expect(check).toBeHidden();
    await expect(page.getByText("node scripts/verify-draws.mjs /api/v1/fair-draws/")).toBeVisible();
  }

  await page.goto("/fair-draws");
  await page.getByLabel("Your reference").fill(ref.toLowerCase().replace(/-/g, " "));
  await page.getByRole("button", { name: "Find" }).click();
  await expect(page.locator(".fair-found a").first()).toBeVisible();
  await page.locator(".fair-found a").first().click();
  await expect(page.getByRole("heading", { level: 1, name: /^Draws of / })).toBeVisible();
});

test("a typed reference that cannot be one is said so under the field", async ({ page, browser }, info) => {
  await page.goto("/fair-draws?ref=abc");
  await expect(page.getByText("A reference has 12 letters and digits.")).toBeVisible();
  await expect(page.getByLabel("Your reference")).toHaveAttribute("aria-invalid", "true");
  expect(await axe(page, browser, isJs(info.project.name))).toEqual([]);
});

test("the page reads in Nepali", async ({ page }) => {
  await page.goto("/language?lang=ne&redirectTo=/fair-draws");
  await expect(page.getByRole("heading", { level: 1, name: "निष्पक्ष ड्र" })).toBeVisible();
});
