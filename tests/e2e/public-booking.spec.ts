// Book a ride through the state → district → city → branch cascade, with JavaScript on and off.
import { expect, test } from "@playwright/test";
import { isJs, readDb } from "./helpers";
import { freshPhone, PHONE_VIEWPORT } from "./public-helpers";

test.use({ viewport: PHONE_VIEWPORT });

test("book a test ride through the cascade and reach the thank-you page", async ({ page }, info) => {
  const phone = freshPhone();
  await page.goto("/book-a-ride?utm_source=e2e-campaign");
  const dialog = page.getByRole("dialog", { name: "Book a Ride" });
  const form = dialog.locator("form");
  const update = async () => {
    if (!isJs(info.project.name)) await form.getByRole("button", { name: "Update choices" }).click();
  };
  await expect(form.getByRole("radio", { name: "Test Ride" })).toBeChecked();
  await form.getByLabel("Full Name").fill("Anil Shrestha");
  await form.getByLabel("Province").selectOption("Bagmati");
  await update();
  await expect(form.getByLabel("District").locator("option")).toHaveText([
    "Choose…",
    "Bhaktapur",
    "Kathmandu",
    "Lalitpur",
  ]);
  await form.getByLabel("District").selectOption("Lalitpur");
  await update();
  await expect(form.getByLabel("City").locator("option")).toHaveText(["Choose…", "Patan"]);
  await form.getByLabel("City").selectOption("Patan");
  await update();
  await expect(form.getByLabel("Branch")).toHaveValue(/\d+/);
  await expect(form.getByLabel("Branch").locator("option:checked")).toHaveText("Lalitpur Motors");
  await expect(form.getByLabel("Full Name")).toHaveValue("Anil Shrestha");
  await form.getByLabel("Phone Number").fill(phone);
  await form.getByLabel("Email").fill("anil@example.com");
  await form.getByLabel("Model").selectOption({ label: "Trail 200" });
  await form.getByRole("button", { name: "Submit" }).click();

  await expect(page).toHaveURL(/\/thankyou-for-test-ride-booking$/);
  await expect(page.getByRole("heading", { name: "Thank You for Test Ride Booking." })).toBeVisible();
  await expect(page.getByText("We will contact you within 3 working days.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Visit our official website" })).toHaveAttribute("target", "_blank");
  const ride = readDb((db) =>
    db
      .prepare(
        "select t.type, t.utm_source, t.city, b.title as branch from test_rides t join branches b on b.id = t.branch_id where t.phone = ?",
      )
      .get(phone),
  );
  expect(ride).toEqual({ type: "TESTRIDE", utm_source: "e2e-campaign", city: "Patan", branch: "Lalitpur Motors" });
  await page.getByRole("link", { name: "Go back to the home page" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("booking errors show under their fields, the district error under the city too, and in a summary at the top", async ({
  page,
}, info) => {
  await page.goto("/book-a-ride");
  const form = page.getByRole("dialog", { name: "Book a Ride" }).locator("form");
  // The browser's required checks would stop an empty form; switch them off so the server answers.
  await form.evaluate((f: HTMLFormElement) => f.setAttribute("novalidate", ""));
  await form.getByRole("button", { name: "Submit" }).click();
  await expect(page.locator("#bk-name-error")).toHaveText("Please enter your full name.");
  await expect(page.locator("#bk-state-error")).toHaveText("Please choose a province.");
  await expect(page.locator("#bk-district-error")).toHaveText("Please choose a district.");
  await expect(page.locator("#bk-city-error")).toHaveText("Please choose a district.");
  await expect(page.locator("#bk-phone-error")).toHaveText("Please enter your phone number.");
  await expect(page.locator("#bk-branch_id-error")).toHaveText("Please choose a branch.");

  // The summary at the top, as on the pre-registration form: each field once, a link to it, in page order.
  const summary = page.locator("#form-errors");
  await expect(summary.getByRole("heading", { name: "Please check these fields:" })).toBeVisible();
  await expect(summary.getByRole("listitem")).toHaveText([
    "Full Name: Please enter your full name.",
    "Province: Please choose a province.",
    "District: Please choose a district.",
    "Phone Number: Please enter your phone number.",
    "Branch: Please choose a branch.",
  ]);
  await expect(summary.getByRole("link", { name: "Province" })).toHaveAttribute("href", "#bk-state");
  // The form opens the page, so the summary is in view; with JavaScript it takes the focus too.
  await expect(summary).toBeInViewport();
  if (isJs(info.project.name)) await expect(summary).toBeFocused();
});

test("Book a Ride opens as a dialog over the landing page with JavaScript", async ({ page }, info) => {
  test.skip(!isJs(info.project.name), "a plain link without JavaScript");
  await page.goto("/");
  await page.getByRole("link", { name: "Book a Ride" }).click();
  const dialog = page.getByRole("dialog", { name: "Book a Ride" });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/\/book-a-ride$/);
  await dialog.getByLabel("Province").selectOption("Gandaki");
  await dialog.getByLabel("District").selectOption("Kaski");
  await dialog.getByLabel("City").selectOption("Pokhara");
  await expect(dialog.getByLabel("Branch").locator("option:checked")).toHaveText("Pokhara Lakeside");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/$/);
});
