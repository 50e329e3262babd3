// The counter side of issue "a stranger must not reach another person's entry", and the last spec
// differences: the counter keeps the spec's View link for a citizenship/PAN with a pending purchase;
// the registration list's Pre Prize filter offers the registration pre-prize list; the sidebar's
// Dashboard link needs send-sms while /admin itself opens for any signed-in user.
import { expect, test } from "@playwright/test";
import { login, port, USERS } from "./helpers";
import { freshDigits, freshPhone, tokenFor, verifiedPreregistration } from "./counter-helpers";

test("the counter still gets the View link to the pre-registration with a pending purchase", async ({
  page,
  request,
}) => {
  const token = await tokenFor(request, USERS.staff);
  const citizenship = freshDigits();
  const pending = await verifiedPreregistration(request, token, { citizenship_no: citizenship });
  await login(page, USERS.staff, { to: "/admin/preregistration/create" });
  await page.getByLabel("Full Name").fill("Second Visit");
  await page.getByLabel("Address").fill("Jawalakhel 5");
  await page.getByLabel("Phone Number").fill(freshPhone());
  await page.getByLabel("Citizenship No/PAN").fill(citizenship);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  const field = page.locator(".field", { has: page.getByLabel("Citizenship No/PAN") });
  await expect(field.getByRole("alert")).toHaveText("This citizenship/pan has pending purchase.");
  await expect(field.getByRole("link", { name: "View" })).toHaveAttribute(
    "href",
    `/admin/preregistration/${pending.slug}`,
  );
});

test("the registration list's Pre Prize filter offers 8,000 to 18,000 and 50,000", async ({ page }) => {
  await login(page, USERS.admin, { to: "/admin/registration" });
  const values = await page
    .locator('select[name="pre_prize"] option')
    .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
  expect(values).toEqual([
    "",
    "8000",
    "9000",
    "10000",
    "11000",
    "12000",
    "13000",
    "14000",
    "15000",
    "16000",
    "17000",
    "18000",
    "50000",
  ]);
});

test("the sidebar's Dashboard link needs send-sms; /admin opens all the same", async ({ page, browser }) => {
  // Branch Manager: no send-sms.
  await login(page, USERS.manager);
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole("heading", { name: /^Dashboard/ })).toBeVisible();
  const nav = page.getByRole("navigation", { name: "Back office" });
  await expect(nav.getByRole("link", { name: "Pre-Registrations" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Dashboard" })).toHaveCount(0);

  // Head office (every permission) sees it.
  const context = await browser.newContext({ baseURL: `http://localhost:${port}` });
  try {
    const admin = await context.newPage();
    await login(admin, USERS.admin);
    await admin.goto("/admin");
    await expect(
      admin.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Dashboard" }),
    ).toBeVisible();
  } finally {
    await context.close();
  }
});
