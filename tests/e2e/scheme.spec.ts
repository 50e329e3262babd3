// Schemes (allocations), the payout preview, the draw audit and the fallback tables, with JavaScript on and off.
import { expect, test, type Page } from "@playwright/test";
import { makeAllocation, makeDraw, makePreregistration, setPaid } from "./data";
import { isJs, login, USERS } from "./helpers";

/** Each project gets its own dates and names: both run at once against one server. */
const tag = (project: string) => (isJs(project) ? { month: "01", name: "Js" } : { month: "02", name: "NoJs" });

/** A stored day ("2032-01-10") as staff type and read it: "2032/01/10". */
const typed = (date: string) => date.replaceAll("-", "/");

/** The error shown under a field, found by the field's label. */
const fieldError = (page: Page, label: string) =>
  page.locator(".field", { has: page.getByLabel(label, { exact: true }) }).locator(".field-error");

const amountOption = (page: Page, amount: number) =>
  page.getByLabel("Amount", { exact: true }).locator(`option[value="${amount}"]`);

test("a branch user without manage-allocation is sent to /admin from every scheme screen", async ({ page }) => {
  await login(page, USERS.staff);
  for (const path of [
    "/admin/scheme",
    "/admin/scheme/create",
    "/admin/scheme/draws",
    "/admin/scheme/settings",
    "/admin/scheme/1",
  ]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/admin$/);
  }
});

test("create a scheme: the amounts follow the type, the branch shows for branch types", async ({ page }, info) => {
  const { month } = tag(info.project.name);
  const date = `2032-${month}-10`;
  await login(page, USERS.admin);
  await page.goto("/admin/scheme");
  await page.getByRole("link", { name: "Create" }).click();
  await expect(page).toHaveURL(/\/admin\/scheme\/create$/);
  // With JavaScript the address changes a moment before the new page is drawn: wait for the page itself.
  await expect(page.getByRole("heading", { name: "Create Scheme" })).toBeVisible();

  // Public pre-registration: the pre-prize list, no branch.
  await expect(page.getByLabel("Type")).toHaveValue("preregistration_public");
  await expect(page.getByLabel("Branch")).toBeHidden();
  await expect(amountOption(page, 4000)).toHaveCount(1);
  await expect(amountOption(page, 100000)).toHaveCount(0);
  await expect(page.getByLabel("Count (between 1 and 5)")).toHaveValue("1");
  await expect(page.getByLabel("Probability (in 100)")).toHaveValue("0");

  await page.getByLabel("Type").selectOption("registration_branch");
  if (isJs(info.project.name)) {
    await expect(page.getByRole("button", { name: "Update amounts" })).toHaveCount(0);
  } else {
    // Without JavaScript the server re-renders the amounts for the chosen type, keeping the values.
    await page.getByLabel("Date").fill(typed(date));
    await page.getByRole("button", { name: "Update amounts" }).click();
    await expect(page.getByLabel("Type")).toHaveValue("registration_branch");
    await expect(page.getByLabel("Date")).toHaveValue(typed(date));
  }
  await expect(amountOption(page, 100000)).toHaveCount(1);
  await expect(amountOption(page, 1000)).toHaveCount(1);
  await expect(amountOption(page, 4000)).toHaveCount(1);
  await expect(page.getByLabel("Branch")).toBeVisible();

  await page.getByLabel("Branch").selectOption({ label: "Kathmandu Central" });
  await page.getByLabel("Date").fill(typed(date));
  await page.getByLabel("Count (between 1 and 5)").fill("2");
  await page.getByLabel("Amount").selectOption("100000");
  await page.getByLabel("Probability (in 100)").fill("10");
  await page.getByRole("button", { name: "Save" }).click();

  await expect(page).toHaveURL(/\/admin\/scheme$/);
  await expect(page.locator(".toast")).toContainText("Success!");
  await page.getByLabel("Date", { exact: true }).first().fill(typed(date));
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByLabel("Date", { exact: true }).first()).toHaveValue(typed(date));
  const row = page.getByRole("row", { name: /Registration \(branch\)/ });
  await expect(row).toHaveCount(1);
  await expect(row.locator("td").nth(2)).toHaveText(typed(date));
  await expect(row).toContainText("Kathmandu Central");
  await expect(row).toContainText("Rs. 1,00,000");
  await expect(row).toContainText("10 in 100");
  await expect(row.locator("td").nth(4)).toHaveText("2"); // count
  await expect(row.locator("td").nth(6)).toHaveText("0"); // paid
  await expect(row.locator("td").nth(7)).toHaveText("2"); // remaining
});

test("a count of 6 shows the error under the count and keeps the values", async ({ page }, info) => {
  const { month } = tag(info.project.name);
  await login(page, USERS.admin);
  await page.goto("/admin/scheme/create");
  await page.getByLabel("Date").fill(`2032/${month}/11`);
  await page.getByLabel("Amount").selectOption("4000");
  await page.getByLabel("Count (between 1 and 5)").fill("6");
  // Enter saves (without JavaScript too: the default button is Save, not "Update amounts").
  await page.getByLabel("Count (between 1 and 5)").press("Enter");
  await expect(fieldError(page, "Count (between 1 and 5)")).toHaveText("The count must be between 1 and 5.");
  await expect(page).toHaveURL(/\/admin\/scheme\/create/);
  await expect(page.getByLabel("Count (between 1 and 5)")).toHaveValue("6");
  await expect(page.getByLabel("Amount")).toHaveValue("4000");
  await expect(page.getByLabel("Count (between 1 and 5)")).toHaveAttribute("aria-invalid", "true");
});

test("deleting a scheme asks 'Are you sure?' first", async ({ page }, info) => {
  const { month } = tag(info.project.name);
  const date = `2032-${month}-12`;
  makeAllocation({ type: "preregistration_public", date, amount: 7000, count: 1, probability: 5 });
  await login(page, USERS.admin);
  await page.goto(`/admin/scheme?date=${date}`);
  const row = page.getByRole("row", { name: /Rs\. 7,000/ });
  await expect(row).toHaveCount(1);
  await row.locator("summary", { hasText: "Delete" }).click();
  await expect(row.getByText("Are you sure?")).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/scheme\?date=/); // the question did not open the row
  await row.getByRole("button", { name: "Yes" }).click();
  await expect(page.locator(".toast")).toContainText("Success!");
  await expect(page).toHaveURL(new RegExp(`/admin/scheme\\?date=${date}$`));
  await expect(page.getByRole("row", { name: /Rs\. 7,000/ })).toHaveCount(0);
  await expect(page.getByText("Showing 0 - 0 of 0 entries")).toBeVisible();
});

test("a scheme that has paid out: no delete, and its count cannot go below what it paid", async ({ page }, info) => {
  const { month } = tag(info.project.name);
  const date = `2032-${month}-15`;
  const { id } = makeAllocation({
    type: "registration_branch",
    branch_id: 2,
    date,
    amount: 15000,
    count: 3,
    probability: 20,
  });
  setPaid(id, 2);
  await login(page, USERS.admin);
  await page.goto(`/admin/scheme?date=${date}`);
  const row = page.getByRole("row", { name: /Rs\. 15,000/ });
  await expect(row).toContainText("Paid out");
  await expect(row.locator("summary", { hasText: "Delete" })).toHaveCount(0);
  await row.getByRole("link").first().click();
  await expect(page).toHaveURL(new RegExp(`/admin/scheme/${id}$`));
  await expect(page.getByText("A scheme that has paid out cannot be deleted.")).toBeVisible();

  await page.getByLabel("Count (between 1 and 5)").fill("1");
  await page.getByRole("button", { name: "Save count" }).click();
  await expect(fieldError(page, "Count (between 1 and 5)")).toHaveText(
    "The count cannot be lower than the 2 prizes already paid out.",
  );
  await page.getByLabel("Count (between 1 and 5)").fill("5");
  await page.getByRole("button", { name: "Save count" }).click();
  await expect(page.locator(".toast")).toContainText("Success!");
  await expect(page.locator(".details")).toContainText("Remaining3");
});

test("the payout preview shows expected winners and cost for a date", async ({ page }, info) => {
  const { month } = tag(info.project.name);
  const date = `2032-${month}-13`;
  makeAllocation({ type: "preregistration_public", date, amount: 50000, count: 2, probability: 100 });
  makeAllocation({ type: "preregistration_branch", branch_id: 1, date, amount: 20000, count: 1, probability: 50 });
  await login(page, USERS.admin);
  await page.goto("/admin/scheme");
  const panel = page.locator(".scheme-preview");
  await panel.getByLabel("Date").fill(typed(date));
  await panel.getByLabel("Branch").selectOption({ label: "Kathmandu Central" });
  await panel.getByLabel("Entries of each type").fill("10");
  await panel.getByRole("button", { name: "Preview" }).click();
  await expect(page).toHaveURL(/preview_date=/);
  await expect(panel.getByLabel("Date")).toHaveValue(typed(date));
  await expect(panel).toContainText(`of each type on ${typed(date)},`);
  // 10 public entries against 2 sure prizes: both paid, 8 get the base table (average Rs 5,500).
  const pub = panel.locator(".preview-type", { hasText: "Pre-registration (public)" });
  await expect(pub.getByRole("row", { name: /Rs\. 50,000/ })).toContainText("2.00");
  await expect(pub.getByRole("row", { name: /Rs\. 50,000/ })).toContainText("Rs. 1,00,000");
  await expect(pub.locator("tr.fallback")).toContainText("8.00");
  await expect(pub.locator("tr.fallback")).toContainText("Rs. 44,000");
  // The branch pool: 1 prize at 50 in 100 over 10 entries is paid with chance 1 - 0.5^10.
  const branch = panel.locator(".preview-type", { hasText: "Pre-registration (branch)" });
  await expect(branch.getByRole("row", { name: /Rs\. 20,000/ })).toContainText("1.00");
});

test("the draw audit lists draws with filters, expandable trails and a download", async ({ page }, info) => {
  const { month, name } = tag(info.project.name);
  const date = `2032-${month}-14`;
  const person = `Audit Person ${name}`;
  const pre = makePreregistration({
    slug: `audit-${name.toLowerCase()}-${Date.now()}`,
    name: person,
    phone: `98${month}${String(Date.now()).slice(-6)}`,
    citizenship_no: `AUD${Date.now()}`,
    is_verified: true,
    status: "verified",
    prize: 50000,
  });
  makeDraw({
    thrill: 2,
    entry_type: "preregistration",
    entry_id: pre.id,
    pool_type: "preregistration_public",
    date,
    amount: 50000,
    outcome: "pool",
    pools: JSON.stringify([{ id: 901, amount: 50000, count: 2, paid: 0, probability: 40, remaining: 2 }]),
    rolls: JSON.stringify([
      { stage: "pool", allocation_id: 901, amount: 50000, probability: 40, value: 0.123456, win: true },
    ]),
    created_at: `${date}T06:00:00.000Z`, // 11:45 in Kathmandu on the pools' day, as a real draw of that day
  });
  await login(page, USERS.admin);
  await page.goto("/admin/scheme");
  await page.getByRole("link", { name: "Draw audit" }).click();
  await expect(page).toHaveURL(/\/admin\/scheme\/draws$/);
  await expect(page.getByRole("heading", { name: "Draw audit" })).toBeVisible();
  for (const label of ["From", "To", "Pool type", "Branch", "Outcome"])
    await expect(page.getByLabel(label, { exact: true })).toBeVisible();
  await expect(page.getByText(/Showing \d+ - \d+ of \d+ entries/)).toBeVisible();

  await page.getByLabel("From", { exact: true }).fill(typed(date));
  await page.getByLabel("To", { exact: true }).fill(typed(date));
  await page.getByLabel("Outcome").selectOption("pool");
  await page.getByRole("button", { name: "Filter" }).click();
  const row = page.getByRole("row", { name: new RegExp(person) });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Won a pool");
  await expect(row).toContainText("Rs. 50,000");
  await expect(row.locator('td[data-label="Date"]')).toHaveText(typed(date));
  await row.getByText("1 pool, 1 roll").click();
  await expect(row.getByText("Pools considered")).toBeVisible();
  await expect(row.getByText(/rolled 0\.123456, win/)).toBeVisible();
  await expect(page.getByRole("link", { name: "Download" })).toHaveAttribute(
    "href",
    new RegExp(
      `/api/v1/draws/download\\?from=${encodeURIComponent(typed(date))}&to=${encodeURIComponent(typed(date))}&outcome=pool`,
    ),
  );

  await page.getByLabel("Outcome").selectOption("none");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByRole("row", { name: new RegExp(person) })).toHaveCount(0);

  const download = await page.request.get(`/api/v1/draws/download?from=${date}&to=${date}`);
  expect(download.status()).toBe(200);
  expect(download.headers()["content-disposition"]).toBe('attachment; filename="Draws.xls"');
});

test("the fallback tables: a bad row is refused under its input, a good table is saved", async ({ page }) => {
  await login(page, USERS.admin);
  await page.goto("/admin/scheme/settings");
  const second = page.getByRole("form", { name: "Second thrill (pre-registration)" });
  await expect(second.getByLabel("Amount 1")).toHaveValue("4000");
  await expect(second.getByLabel("Weight 4")).toHaveValue("1");
  await expect(second).toContainText("25.0%");
  await expect(page.getByRole("form", { name: "Third thrill (registration)" })).toContainText("no coupon");

  await second.getByLabel("Amount 2").fill("0");
  await second.getByRole("button", { name: "Save" }).click();
  await expect(second.getByText("Each amount must be a whole number of rupees above 0.")).toBeVisible();
  await expect(second.getByLabel("Amount 2")).toHaveValue("0");

  // Saving the default table back leaves the draw as it was for the other tests.
  await second.getByLabel("Amount 2").fill("5000");
  await second.getByRole("button", { name: "Save" }).click();
  await expect(page.locator(".toast")).toContainText("Success!");
  await expect(second.getByLabel("Amount 2")).toHaveValue("5000");
  await expect(second).toContainText("Rs. 5,500");
});
