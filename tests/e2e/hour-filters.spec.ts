// The date-and-hour filter on the lists that filter by time, with JavaScript on and off: From and To
// take a day and an hour, the page keeps them after Filter, and the Download link carries the hours,
// so the file holds the rows on screen.
import { expect, test } from "@playwright/test";
import { login, USERS } from "./helpers";

const LISTS = [
  { path: "/admin/scheme/draws", file: "Draws.xls" },
  { path: "/admin/referrer", file: "Referrers.xls" },
  { path: "/admin/audit", file: "AuditTrail.xls" },
  { path: "/admin/outbox", file: null },
  { path: "/admin/preregistration", file: "Preregistrations.xls" },
  { path: "/admin/registration", file: "Registrations.xls" },
];

for (const list of LISTS) {
  test(`${list.path}: From and To with their hours, kept after Filter and carried by the download`, async ({
    page,
  }) => {
    await login(page, USERS.admin);
    await page.goto(list.path);
    await page.getByLabel("From", { exact: true }).fill("2026/01/01");
    await page.getByLabel("Start hour").selectOption("13");
    await page.getByLabel("To", { exact: true }).fill("2030/01/01");
    await page.getByLabel("End hour").selectOption("13");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/from_hour=13/);
    await expect(page).toHaveURL(/to_hour=13/);
    await expect(page.getByLabel("Start hour")).toHaveValue("13");
    await expect(page.getByLabel("End hour")).toHaveValue("13");
    await expect(page.getByLabel("From", { exact: true })).toHaveValue("2026/01/01");
    await expect(page.locator(".filter-date .field-error, #filter-from-error")).toHaveCount(0);
    if (!list.file) return;
    const download = page.getByRole("link", { name: "Download" });
    await expect(download).toHaveAttribute("href", /from=2026%2F01%2F01&from_hour=13&to=2030%2F01%2F01&to_hour=13/);
    const res = await page.request.get((await download.getAttribute("href"))!);
    expect(res.status()).toBe(200);
  });
}
