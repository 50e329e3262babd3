// The back-office lists answer a filter that cannot be read (a search too short among them) with its message
// under the filter (422), never an error page; and the test-ride list's From = To = a day lists that day's bookings.
import { expect, test } from "@playwright/test";
import { login, USERS } from "./helpers";
import { makeTestRide } from "./data";
import { clearOfKathmanduMidnight } from "../clock";

const DATE_MESSAGE = "Enter the date as yyyy/MM/dd (or yyyy/MM/dd HH:mm).";

/** Today in Kathmandu as YYYY-MM-DD. */
const kathmanduToday = () =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Kathmandu", year: "numeric", month: "2-digit", day: "2-digit" })
    .format(new Date())
    .slice(0, 10);

test("a bad test-ride filter shows its message under From; From = To = today lists today's bookings", async ({
  page,
}) => {
  await clearOfKathmanduMidnight();
  const ride = makeTestRide(2, { name: `List Rider ${Date.now().toString(36)}` });
  await login(page, USERS.staff); // Lalitpur Motors, branch 2

  const res = await page.goto("/admin/test-ride?from=abc");
  expect(res?.status()).toBe(422);
  await expect(page.getByRole("heading", { name: "Test Rides" })).toBeVisible();
  await expect(page.locator("#filter-from-error")).toHaveText(DATE_MESSAGE);
  await expect(page.getByLabel("From")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Showing 0 - 0 of 0 entries")).toBeVisible();

  const today = kathmanduToday();
  const ok = await page.goto(`/admin/test-ride?from=${today}&to=${today}&search=${encodeURIComponent(ride.name)}`);
  expect(ok?.status()).toBe(200);
  await expect(page.getByRole("cell", { name: ride.name })).toBeVisible();
  await expect(page.locator("#filter-from-error")).toHaveCount(0);
});

test("a bad registration filter shows its message under the filter, on the list and the dashboard", async ({
  page,
}) => {
  await login(page, USERS.staff);
  const res = await page.goto("/admin/registration?from=abc&prize=-5");
  expect(res?.status()).toBe(422);
  await expect(page.getByRole("heading", { name: "Registrations" })).toBeVisible();
  await expect(page.locator("#filter-from-error")).toHaveText(DATE_MESSAGE);
  await expect(page.locator("#filter-prize-error")).toHaveText("Enter the prize as a whole number of rupees.");
  // Correcting the filter from the form lists again.
  await page.getByLabel("From").fill("2026-01-01");
  await page.getByLabel("Total Prize").fill("");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/from=2026-01-01/);
  await expect(page.locator("#filter-from-error")).toHaveCount(0);
  await expect(page.getByText(/Showing \d+ - \d+ of \d+ entries/)).toBeVisible();

  const dashboard = await page.goto("/admin?to=2026-13-40");
  expect(dashboard?.status()).toBe(422);
  await expect(page.getByRole("region", { name: "Total Sales" })).toBeVisible();
  await expect(page.locator("#filter-to-error")).toHaveText(DATE_MESSAGE);
});

test("a search too short for the index shows its message under the search box, on both lists", async ({ page }) => {
  await login(page, USERS.staff);
  const short = "Type at least 3 letters or digits to search.";
  // The pre-registration list lists without it, as for any filter it cannot read.
  const pre = await page.goto("/admin/preregistration?search=ab");
  expect(pre?.status()).toBe(200);
  await expect(page.locator("#filter-search-error")).toHaveText(short);
  await expect(page.getByRole("searchbox", { name: "Phone or reference" })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText(/Showing \d+ - \d+ of \d+ entries/)).toBeVisible();

  const reg = await page.goto("/admin/registration?search=98");
  expect(reg?.status()).toBe(422);
  await expect(page.locator("#filter-search-error")).toHaveText(short);
  // Three characters search.
  await page.getByRole("searchbox", { name: "Search" }).fill("980");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/search=980/);
  await expect(page.locator("#filter-search-error")).toHaveCount(0);
});
