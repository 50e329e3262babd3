// The back office's sidebar: every link opens a page inside the back-office shell for a user holding its
// permission; a screen not built yet answers there too (404, sidebar kept), never the public not-found page.
import { expect, test } from "@playwright/test";
import { login, USERS } from "./helpers";

const BUILT: [string, string][] = [
  ["Branches", "Branches"],
  ["Bike Models", "Bike Models"],
  ["Videos", "Videos"],
];

test("every sidebar link opens a page inside the back-office shell", async ({ page }) => {
  test.slow(); // seventeen pages, one after another
  await login(page, USERS.admin);
  const nav = page.getByRole("navigation", { name: "Back office" });
  const links = await nav.getByRole("link").allTextContents();
  expect(links).toEqual(expect.arrayContaining(["Branches", "Bike Models", "Videos", "SMS", "Analytics", "Settings"]));
  for (const label of links) {
    await page.goto("/admin");
    await nav.getByRole("link", { name: label, exact: true }).click();
    await expect(nav, label).toBeVisible();
    await expect(page.getByRole("link", { name: "Go to the home page" }), label).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 1 }), label).toBeVisible();
  }
  for (const [link, heading] of BUILT) {
    await nav.getByRole("link", { name: link, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
  }
});

test("an unknown back-office URL is a 404 inside the shell; the public 404 stays outside", async ({ page }) => {
  await login(page, USERS.admin);
  for (const path of ["/admin/no-such-screen", "/admin/no-such/deeper", "/admin/nothing-here-either"]) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Back office" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Back to the dashboard" })).toHaveAttribute("href", "/admin");
  }
  const outside = await page.goto("/no-such-page");
  expect(outside?.status()).toBe(404);
  await expect(page.getByRole("navigation", { name: "Back office" })).toHaveCount(0);
});

test("signed out, an unknown back-office URL still asks for the login first", async ({ page }) => {
  await page.goto("/admin/no-such-screen");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fadmin%2Fno-such-screen$/);
});
