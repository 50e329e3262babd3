// Branches (spec 001 §2.4) in the back office, with JavaScript on and off: create (the server's first
// error under each field), the row in the list and its search, the detail, edit, delete after "Are you
// sure?", the Branches.xls download, and the refusal to delete a branch with records (close it instead).
import { expect, test } from "@playwright/test";
import { makeBranch, makeTestRide } from "./data";
import { isJs, login, readDb, USERS } from "./helpers";
import { confirm, errorUnder, successToast, unique } from "./catalogue-helpers";

test("create, find, open, edit and delete a branch", async ({ page }, info) => {
  const title = unique(info.project.name, "Dealer");
  // A district of its own for each project (the runs share the database): Nepal's, as the form offers.
  const district = isJs(info.project.name) ? "Dolpa" : "Jumla";
  await login(page, USERS.admin);
  await page.goto("/admin/branch");
  await expect(page.getByRole("heading", { name: "Branches" })).toBeVisible();
  await expect(page.getByRole("columnheader")).toHaveText([
    "Title",
    "State",
    "District",
    "City",
    "Location",
    "Phone",
    "Mobile",
    "Total Sales",
  ]);
  await page.getByRole("link", { name: "Create" }).click();
  await expect(page).toHaveURL(/\/admin\/branch\/create$/);
  await expect(page.getByRole("heading", { name: "Dealer Registration" })).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveAttribute("type", "email");
  // City offers the cities already in use (state and district are chosen from Nepal's list).
  const list = await page.getByLabel("City").getAttribute("list");
  await expect(page.locator(`datalist[id="${list}"] option[value="Pokhara"]`)).toHaveCount(1);

  // An invalid submit: the server's first error under each field, what was typed kept.
  await page.getByLabel("Name").fill("Kathmandu Central");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Mobile").fill("12345");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(await errorUnder(page, "State")).toHaveText("Choose the state (zone).");
  await expect(await errorUnder(page, "District")).toHaveText("Choose the district.");
  await expect(await errorUnder(page, "City")).toHaveText("Enter the city.");
  await expect(await errorUnder(page, "Email")).toHaveText("Enter a valid email address.");
  await expect(await errorUnder(page, "Mobile")).toHaveText(
    'Enter 10-digit mobile numbers starting with 9, separated by "/".',
  );
  await expect(page.getByLabel("Name")).toHaveValue("Kathmandu Central");

  // The rest right, the name taken: its own error.
  await page.getByLabel("State").selectOption("Karnali");
  await page.getByLabel("District").selectOption(district);
  await page.getByLabel("City").fill("Test City");
  await page.getByLabel("Location", { exact: true }).fill("Ring road");
  await page.getByLabel("Email").fill("dealer@example.com");
  await page.getByLabel("Phone").fill("01-4412345 / 01-4412346");
  await page.getByLabel("Mobile").fill("9851234567");
  await page.getByLabel("One Lakh Allocation").fill("2");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(await errorUnder(page, "Name")).toHaveText("A branch with this name already exists.");
  await expect(page.getByLabel("City")).toHaveValue("Test City");

  await page.getByLabel("Name").fill(title);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/admin\/branch\/[A-Za-z0-9_-]{16}$/);
  await expect(successToast(page)).toContainText(`Branch "${title}" created.`);
  await expect(page.getByRole("heading", { name: title })).toBeVisible();
  const details = page.locator("dl.details").first();
  await expect(details).toContainText(district);
  await expect(details).toContainText("dealer@example.com");
  await expect(details.getByRole("link", { name: "01-4412345" })).toHaveAttribute("href", "tel:014412345");
  await expect(details.getByRole("link", { name: "01-4412346" })).toHaveAttribute("href", "tel:014412346");
  await expect(details.getByRole("link", { name: "9851234567" })).toHaveAttribute("href", "tel:9851234567");
  await expect(details.locator("div", { hasText: "One Lakh Allocation" }).locator("dd")).toHaveText("2");
  await expect(details.locator("div", { hasText: "Ten Lakhs Allocation" }).locator("dd")).toHaveText("0");
  const detailUrl = page.url();

  // The row in the list, found by the search.
  await page.goto("/admin/branch");
  await page.getByRole("searchbox").fill(title);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("Showing 1 - 1 of 1 entries")).toBeVisible();
  const row = page.getByRole("row", { name: new RegExp(title) });
  await expect(row).toContainText(`Karnali${district}Test City`);
  await expect(row).toContainText("01-4412345/01-4412346");
  await expect(row.locator("td").last()).toHaveText("0");
  // Download keeps the search.
  const href = await page.getByRole("link", { name: "Download" }).getAttribute("href");
  expect(href).toContain("/api/v1/branch/export?search=");
  const xls = await page.request.get(href!);
  expect(xls.status()).toBe(200);
  expect(xls.headers()["content-disposition"]).toBe('attachment; filename="Branches.xls"');
  await row.getByRole("link", { name: title }).click();
  await expect(page).toHaveURL(detailUrl);

  // Edit.
  await page.getByRole("link", { name: "Edit" }).click();
  await expect(page.getByRole("heading", { name: "Dealer Registration" })).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveValue(title);
  await page.getByLabel("Email").fill("broken@");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(await errorUnder(page, "Email")).toHaveText("Enter a valid email address.");
  await page.getByLabel("Email").fill("sales@example.com");
  await page.getByLabel("Location", { exact: true }).fill("New market");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(detailUrl);
  await expect(successToast(page)).toContainText("Branch updated.");
  await expect(page.locator("dl.details").first()).toContainText("New market");
  await expect(page.locator("dl.details").first()).toContainText("sales@example.com");

  // Delete, after "Are you sure?".
  await confirm(page, "Delete");
  await expect(page).toHaveURL(/\/admin\/branch$/);
  await expect(successToast(page)).toContainText(`Branch "${title}" deleted.`);
  await page.goto(`/admin/branch?search=${encodeURIComponent(title)}`);
  await expect(page.getByText("Showing 0 - 0 of 0 entries")).toBeVisible();
  const gone = await page.goto(detailUrl);
  expect(gone?.status()).toBe(404);
  // The not-found page keeps the back office around it.
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Back office" })).toBeVisible();
});

test("a branch with records is not deleted: the page says why and offers to close it", async ({ page }, info) => {
  const title = unique(info.project.name, "Busy Dealer");
  const zone = unique(info.project.name, "Busy Zone");
  const slug = `e2e${Math.random().toString(36).slice(2, 15)}`;
  const branch = makeBranch({ slug, title, state: zone, district: "D", city: "C" });
  makeTestRide(branch.id, { name: "Old Rider", phone: "9841999998" });
  await login(page, USERS.admin);
  await page.goto(`/admin/branch/${slug}`);
  await expect(page.locator("section", { hasText: "Records at this branch" })).toContainText("Test rides1");
  await confirm(page, "Delete");
  const alert = page.getByRole("alert").filter({ hasText: "cannot be deleted" });
  await expect(alert).toHaveText(
    /This branch cannot be deleted: it has 1 test ride\. Close it instead: a closed branch leaves the public site and the forms at once, and its records keep its name\./,
  );
  expect(readDb((db) => db.prepare("select count(*) n from branches where slug = ?").get(slug))).toEqual({ n: 1 });

  // What to do: close it, from the message itself.
  await alert.getByRole("button", { name: "Close this branch" }).click();
  await expect(successToast(page)).toContainText("Branch closed.");
  await expect(page.getByRole("heading", { name: title })).toContainText("Closed");
  await page.goto(`/admin/branch?search=${encodeURIComponent(title)}`);
  await expect(page.getByRole("row", { name: new RegExp(title) })).toContainText("Closed");
  // Reopen it again.
  await page.goto(`/admin/branch/${slug}`);
  await page.getByRole("button", { name: "Reopen branch" }).click();
  await expect(successToast(page)).toContainText("Branch reopened.");
  await expect(page.getByRole("heading", { name: title })).not.toContainText("Closed");
  // Closed again, so the public site of the other tests is as it was.
  await confirm(
    page,
    "Close branch",
    "Close this branch? It leaves the public site and the forms at once.",
    "Yes, close it",
  );
  await expect(successToast(page)).toContainText("Branch closed.");
});

test("the seeded dealers fill more than one page", async ({ page }) => {
  await login(page, USERS.admin);
  await page.goto("/admin/branch");
  await expect(page.locator("tbody tr")).toHaveCount(10);
  await expect(page.getByRole("link", { name: "Next" })).toBeVisible();
});

test("a branch user without read-branch is sent back with the reason", async ({ page }) => {
  await login(page, USERS.staff);
  await page.goto("/admin/branch");
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.locator(".toast")).toContainText("You do not have permission to open Branches.");
});
