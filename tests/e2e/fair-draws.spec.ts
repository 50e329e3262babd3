// /fair-draws: a visitor reads what a check proves, finds their own draw by its id (the moment it
// is made: the server draws with the local demonstration beacon), a near miss is offered the id it
// meant, and a day is checked in the browser (with JavaScript; the page says how without it).
// axe 0 on every /fair-draws page, in English and Nepali.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { isJs } from "./helpers";
import { enterCode, fillPreregistration, lastCode, newVisitor, PHONE_VIEWPORT, saveAndConfirm } from "./public-helpers";

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

const kathmanduToday = () => new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Kathmandu" }).format(new Date());

test("the landing page links to fair draws: what a check proves, the days from today", async ({
  page,
  browser,
}, info) => {
  await page.goto("/");
  await page.getByRole("link", { name: "Fair draws" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Fair draws" })).toBeVisible();
  await expect(page.locator(".fair-proves")).toContainText("it does not prove who took part");
  const rows = page.locator("table.fair-days").first().locator("tbody tr");
  await expect(rows.first().locator("th")).toHaveText(kathmanduToday());
  expect(await axe(page, browser, isJs(info.project.name))).toEqual([]);
});

test("a demo day says it is the demo beacon's, and checks", async ({ page, browser }, info) => {
  await page.goto("/fair-draws");
  // A day before today with draws: the demo seed's.
  const past = page.locator("table.fair-days").first().locator("tbody tr").nth(3);
  await past.getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1, name: /^Draws of / })).toBeVisible();
  await expect(page.getByText("Drawn with the demo beacon")).toBeVisible();
  const id = (await page.locator("table.fair-records tbody tr").first().locator("code").textContent()) ?? "";
  expect(id).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
  // Draws that won nothing say so; no "Rs. 0".
  await expect(page.locator("table.fair-records")).not.toContainText("Rs. 0");
  expect(await axe(page, browser, isJs(info.project.name))).toEqual([]);

  const check = page.getByRole("button", { name: "Check this day" });
  if (isJs(info.project.name)) {
    await check.click();
    await expect(page.locator("[data-fair-check] [role=status]")).toHaveText(
      "Every draw of this day checks: each used the beacon round after its entry, and the chain is whole.",
      { timeout: 30_000 },
    );
  } else {
    await expect(check).toBeHidden();
    await expect(page.getByText("node scripts/verify-draws.mjs /api/v1/fair-draws/")).toBeVisible();
  }
});

test("a visitor's draw is on /fair-draws the moment it is made, found from the prize page", async ({
  page,
  browser,
}, info) => {
  const visitor = newVisitor();
  await page.goto("/enquiry");
  await fillPreregistration(page, visitor);
  const slug = await saveAndConfirm(page, visitor);
  await enterCode(page, lastCode(visitor.phone));
  await expect(page).toHaveURL(new RegExp(`/enquiry/${slug}/draw$`));
  const id = (await page.locator(".reference code").textContent()) ?? "";
  await page.getByRole("link", { name: "Check your draw yourself" }).click();
  await expect(page).toHaveURL(new RegExp(`/fair-draws\\?ref=${id}$`));
  const found = page.locator(".fair-found li");
  await expect(found).toHaveCount(1);
  await expect(found).toContainText(id);
  await expect(found).toContainText("Drawn ");
  await expect(found).toContainText("beacon round");
  expect(await axe(page, browser, isJs(info.project.name))).toEqual([]);

  // A near miss: one character off offers the id it meant.
  const wrong = id.slice(0, 5) + (id[5] === "Z" ? "Y" : "Z") + id.slice(6);
  await page.getByLabel("Your draw's id").fill(wrong.toLowerCase());
  await page.getByRole("button", { name: "Find" }).click();
  await page.getByRole("link", { name: `Did you mean ${id}?` }).click();
  await expect(page.locator(".fair-found li")).toContainText(id);
  await page.locator(".fair-found a").click();
  await expect(page.getByRole("heading", { level: 1, name: /^Draws of / })).toBeVisible();
  await expect(page.locator("table.fair-records")).toContainText(id);
  expect(await axe(page, browser, isJs(info.project.name))).toEqual([]);
});

test("a typed id that cannot be one is said so under the field", async ({ page, browser }, info) => {
  await page.goto("/fair-draws?ref=abc");
  await expect(page.getByText("A draw's id has 12 letters and digits.")).toBeVisible();
  const box = page.getByLabel("Your draw's id");
  await expect(box).toHaveAttribute("aria-invalid", "true");
  expect((await box.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  expect(await axe(page, browser, isJs(info.project.name))).toEqual([]);
});

test("the pages read in Nepali, axe 0", async ({ page, browser }, info) => {
  await page.goto("/language?lang=ne&redirectTo=/fair-draws");
  await expect(page.getByRole("heading", { level: 1, name: "निष्पक्ष ड्र" })).toBeVisible();
  expect(await axe(page, browser, isJs(info.project.name))).toEqual([]);
  await page.locator("table.fair-days").first().locator("tbody tr").nth(3).getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1, name: /का ड्र$/ })).toBeVisible();
  expect(await axe(page, browser, isJs(info.project.name))).toEqual([]);
});
