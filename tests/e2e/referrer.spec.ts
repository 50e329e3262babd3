// Referrers, with JavaScript on and off: a test ride booked through a customer's share link shows that customer as
// referrer in the test-ride list and counts in the referrer report, whose figures are the database's; a date that
// does not read shows its message under its filter; the test-ride list keeps the spec's pickers, columns and file;
// the registration detail shows the customer's share link.
import { expect, test } from "@playwright/test";
import { isJs, login, readDb, USERS } from "./helpers";
import { freshPhone } from "./public-helpers";
import { clearOfKathmanduMidnight } from "../clock";

type Sharer = { id: number; name: string; code: string; slug: string };

/** A seeded customer who referred others (db/seed-broadcast.ts): Ram Bahadur Thapa. */
const sharer = (): Sharer =>
  readDb((db) =>
    db.prepare("select id, name, share_code as code, slug from registrations where name = 'Ram Bahadur Thapa'").get(),
  ) as Sharer;

/** The report's figures straight from the database: everything referred, all time. */
function countsOf(id: number) {
  return readDb((db) => ({
    referrals: db
      .prepare("select count(*) from registrations where registration_id = ? and deleted_at is null")
      .pluck()
      .get(id) as number,
    rides: db
      .prepare("select count(*) from test_rides where referrer_id = ? and deleted_at is null")
      .pluck()
      .get(id) as number,
    pres: db
      .prepare("select count(*) from preregistrations where referrer_id = ? and deleted_at is null")
      .pluck()
      .get(id) as number,
  }));
}

test("a booking through a share link names the referrer in the test-ride list and counts in the report", async ({
  page,
}, info) => {
  const ram = sharer();
  const rider = `Referred Rider ${info.project.name} ${Date.now().toString(36)}`;
  const phone = freshPhone();

  // The customer's link: the landing page, with utm_source; Book a Ride carries it on.
  await page.goto(`/r/${ram.code}`);
  await expect(page).toHaveURL(/\/\?utm_source=referral$/);
  await page.goto("/book-a-ride?utm_source=referral");
  const form = page.getByRole("dialog", { name: "Book a Ride" }).locator("form");
  const update = async () => {
    if (!isJs(info.project.name)) await form.getByRole("button", { name: "Update choices" }).click();
  };
  await form.getByLabel("Full Name").fill(rider);
  await form.getByLabel("Province").selectOption("Gandaki");
  await update();
  await form.getByLabel("District").selectOption("Kaski");
  await update();
  await form.getByLabel("City").selectOption("Pokhara");
  await update();
  await form.getByLabel("Phone Number").fill(phone);
  await form.getByLabel("Model").selectOption({ label: "Street 125" });
  await form.getByRole("button", { name: "Submit" }).click();
  await expect(page).toHaveURL(/\/thankyou-for-test-ride-booking$/);
  const ride = readDb((db) => db.prepare("select referrer_id, utm_source from test_rides where phone = ?").get(phone));
  expect(ride).toEqual({ referrer_id: ram.id, utm_source: "referral" });

  await login(page, USERS.admin);
  await page.goto(`/admin/test-ride?search=${encodeURIComponent(rider)}`);
  const row = page.getByRole("row", { name: new RegExp(rider) });
  await expect(row.getByRole("cell", { name: ram.name })).toBeVisible();

  await page.goto(`/admin/referrer?search=${encodeURIComponent(ram.name)}`);
  const counts = countsOf(ram.id);
  const report = page.getByRole("row", { name: new RegExp(ram.name) });
  await expect(report.locator('td[data-label="Referrals"]')).toHaveText(String(counts.referrals));
  await expect(report.locator('td[data-label="Test Rides"]')).toHaveText(String(counts.rides));
  await expect(report.locator('td[data-label="Pre-Registrations"]')).toHaveText(String(counts.pres));
  expect(counts.rides).toBeGreaterThanOrEqual(4); // three seeded, and this one
});

test("the registration detail shows the customer's own share link, /r/{share_code}", async ({ page }) => {
  const ram = sharer();
  expect(ram.code).toBeTruthy();
  await login(page, USERS.admin);
  await page.goto(`/admin/registration/${ram.slug}`);
  const row = page
    .getByRole("region", { name: "Registration", exact: true })
    .locator("dl > div")
    .filter({ hasText: "Share link" });
  const link = row.getByRole("link");
  await expect(link).toHaveText(new RegExp(`/r/${ram.code}$`));
  await expect(link).toHaveAttribute("href", new RegExp(`/r/${ram.code}$`));
  // A code the server knows: the landing page with the referral noted (an unknown one goes to / alone).
  const res = await page.request.get(`/r/${ram.code}`, { maxRedirects: 0 });
  expect(res.headers()["location"]).toBe("/?utm_source=referral");
});

test("the report's dates read yyyy/MM/dd; a date that does not read shows its message under From", async ({ page }) => {
  await login(page, USERS.admin);
  const res = await page.goto("/admin/referrer?from=2026/13/40");
  expect(res?.status()).toBe(422);
  await expect(page.locator("#filter-from-error")).toHaveText("Enter the date as yyyy/MM/dd.");
  await expect(page.getByText("Showing 0 - 0 of 0 entries")).toBeVisible();

  await clearOfKathmanduMidnight();
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Kathmandu" }).format(new Date());
  const slashed = today.replaceAll("-", "/");
  const from = page.getByLabel("From", { exact: true });
  await expect(from).toHaveAttribute("placeholder", "yyyy/mm/dd");
  await from.fill(slashed);
  await page.getByLabel("To", { exact: true }).fill(slashed);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.locator("#filter-from-error")).toHaveCount(0);
  await expect(page.getByText(`From ${slashed} to ${slashed}.`)).toBeVisible();
  await expect(from).toHaveValue(slashed);
  await expect(page.getByRole("link", { name: "Download" })).toHaveAttribute("download", "Referrers.xls");
});

test("the test-ride list: From/To as a day and an hour, the spec's columns, TestRides.xls for the range", async ({
  page,
}) => {
  await login(page, USERS.admin);
  await page.goto("/admin/test-ride?from=2026/01/01&from_hour=10&to=2030/01/01&to_hour=10");
  for (const name of ["From", "To"]) {
    const input = page.getByLabel(name, { exact: true });
    await expect(input).toHaveAttribute("placeholder", "yyyy/mm/dd");
    await expect(page.getByLabel(name === "From" ? "Start hour" : "End hour")).toHaveValue("10");
  }
  await expect(page.getByLabel("End hour").locator("option", { hasText: "10:59" })).toHaveCount(1);
  await expect(page.locator("thead th")).toHaveText([
    "Model",
    "Name",
    "Email",
    "Phone",
    "State",
    "District",
    "City",
    "Branch",
    "Type",
    "Registered",
    "Referrer",
  ]);
  const download = page.getByRole("link", { name: "Download" });
  await expect(download).toHaveAttribute("download", "TestRides.xls");
  await expect(download).toHaveAttribute("href", /from=2026%2F01%2F01&from_hour=10&to=2030%2F01%2F01&to_hour=10/);
  const res = await page.request.get((await download.getAttribute("href"))!);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-disposition"]).toContain('filename="TestRides.xls"');
});
