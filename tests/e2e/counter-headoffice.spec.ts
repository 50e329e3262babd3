// Head office sees every branch, filters the registration list and downloads Registrations.xls and
// Preregistrations.xls with the list's filters applied; formula-like text reads back exactly, as text.
import { expect, test, type Page } from "@playwright/test";
import fs from "node:fs";
import XLSX from "sheetjs-style";
import { login, USERS } from "./helpers";
import { apiRegistration, freshCode, freshDigits, freshPhone, tokenFor } from "./counter-helpers";

async function downloadSheet(page: Page, name: string) {
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${name}.xls`);
  const file = await download.path();
  const book = XLSX.read(fs.readFileSync(file!), { type: "buffer" });
  expect(book.SheetNames[0]).toBe(name);
  const sheet = book.Sheets[name];
  const header = (XLSX.utils.sheet_to_json<string[]>(sheet, { header: 1 })[0] ?? []) as string[];
  const formulas = Object.keys(sheet).filter((k) => !k.startsWith("!") && sheet[k].f !== undefined);
  expect(formulas).toEqual([]);
  return { header, sheet, rows: XLSX.utils.sheet_to_json<Record<string, string | number>>(sheet) };
}

test("head office filters registrations and downloads Registrations.xls with the same filters", async ({
  page,
  request,
}) => {
  const token = await tokenFor(request, USERS.staff); // Lalitpur Motors
  const tricky = `=HYPERLINK("http://x.test","${freshCode("c")}")`;
  const reg = await apiRegistration(request, token, {
    name: tricky,
    payment_mode: "SELF_FINANCE_EXCHANGE",
    note: "+1 call back",
  });

  await login(page, USERS.admin);
  await page.goto("/admin/registration");
  // Every branch is listed for head office.
  const branchCells = page.locator("td[data-label=Branch]");
  await expect(branchCells.first()).toBeVisible();
  await page.getByLabel("Branch").selectOption({ label: "Lalitpur Motors" });
  await page.getByLabel("Payment Mode").selectOption("SELF_FINANCE_EXCHANGE");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/payment_mode=SELF_FINANCE_EXCHANGE/);
  const info = await page.getByText(/Showing \d+ - \d+ of \d+ entries/).textContent();
  const total = Number(/of (\d+) entries/.exec(info!)![1]);
  expect(total).toBeGreaterThanOrEqual(1);
  for (const cell of await branchCells.all()) await expect(cell).toHaveText("Lalitpur Motors");
  for (const cell of await page.locator("td[data-label='Payment Mode']").all())
    await expect(cell).toHaveText("Self Finance + Exchange");

  const { header, rows } = await downloadSheet(page, "Registrations");
  expect(header).toEqual(
    expect.arrayContaining([
      "Slug",
      "Bill No",
      "Name",
      "Phone",
      "Engine No",
      "Chassis No",
      "Payment Mode",
      "Branch",
      "Total Prize",
      "Coupon Code",
    ]),
  );
  expect(rows).toHaveLength(total);
  for (const row of rows) {
    expect(row.Branch).toBe("Lalitpur Motors");
    expect(row["Payment Mode"]).toBe("Self Finance + Exchange");
  }
  const mine = rows.find((r) => r.Slug === reg.slug)!;
  expect(mine).toBeTruthy();
  expect(mine.Name).toBe(tricky);
  expect(mine.Note).toBe("+1 call back");
  expect(mine["Engine No"]).toBe(reg.engine_no);
});

test("head office downloads Preregistrations.xls with the list's filters", async ({ page, request }) => {
  const token = await tokenFor(request, USERS.staff);
  const phone = freshPhone();
  const res = await request.post("/api/v1/preregistration", {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      name: "Sheet Customer",
      address: "Pulchowk",
      phone,
      citizenship_no: freshDigits(),
      note: "=SUM(1,2)",
      bike_model_id: 3,
    },
  });
  expect(res.status()).toBe(201);
  const pre = (await res.json()).data as { slug: string };

  await login(page, USERS.admin);
  await page.goto("/admin/preregistration");
  await expect(page.getByRole("columnheader", { name: "Nearest Branch" })).toBeVisible();
  await page.getByLabel("Branch").selectOption({ label: "Lalitpur Motors" });
  await page.getByLabel("Status").selectOption("unverified");
  await page.getByLabel("Model").selectOption({ label: "Trail 200" });
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/status=unverified/);
  // The count is read from the filtered page, once its rows have come: every one unverified, of that model.
  await expect(page.locator("td[data-label='Status']").filter({ hasNotText: "Unverified" })).toHaveCount(0);
  await expect(page.locator("td[data-label='Model']").filter({ hasNotText: "Trail 200" })).toHaveCount(0);
  const info = await page.getByText(/Showing \d+ - \d+ of \d+ entries/).textContent();
  const total = Number(/of (\d+) entries/.exec(info!)![1]);

  const { header, rows } = await downloadSheet(page, "Preregistrations");
  expect(header).toEqual(
    expect.arrayContaining(["Name", "Phone", "Model", "Status", "Prize", "Branch", "Nearest Branch", "City", "Note"]),
  );
  expect(rows).toHaveLength(total);
  for (const row of rows) {
    expect(row.Status).toBe("Unverified");
    expect(row.Model).toBe("Trail 200");
    expect([row.Branch, row["Nearest Branch"]]).toContain("Lalitpur Motors");
  }
  const mine = rows.find((r) => r.Slug === pre.slug)!;
  expect(mine).toMatchObject({ Name: "Sheet Customer", Phone: phone, Note: "=SUM(1,2)", Branch: "Lalitpur Motors" });
});

test("the dashboard shows the four cards and the registered buyers; a branch user sees its branch only", async ({
  page,
}) => {
  await login(page, USERS.admin);
  await page.goto("/admin");
  for (const title of ["Total Sales", "Pre-Registrations", "Daily Sales", "Test Rides"]) {
    const card = page.getByRole("region", { name: title });
    await expect(card.locator(".value")).toHaveText(/^\d[\d,]*$/);
    await expect(card.locator(".pct")).toHaveText(/^([+-]?\d+\.\d{2}%|—)$/);
  }
  await expect(page.getByRole("heading", { name: "Registered Buyers" })).toBeVisible();
  // Linked from its card (spec 000 §2), not from the date line.
  await expect(
    page.getByRole("region", { name: "Test Rides" }).getByRole("link", { name: "See the test rides" }),
  ).toHaveAttribute("href", "/admin/test-ride");
  await expect(page.locator(".dashboard-head a")).toHaveCount(0);
  const branches = new Set(await page.locator("td[data-label=Branch]").allTextContents());
  expect(branches.size).toBeGreaterThan(1);

  await page.context().clearCookies();
  await login(page, USERS.staff);
  await page.goto("/admin");
  await expect(page.getByRole("heading", { name: /Dashboard · Lalitpur Motors/ })).toBeVisible();
  // Staff have no Dashboard link (it needs send-sms): the home link is the lit item, and only there.
  const sidebar = page.getByRole("complementary");
  await expect(sidebar.getByRole("link", { name: "Dashboard" })).toHaveCount(0);
  await expect(sidebar.getByRole("link", { name: "Thrill Back Office" })).toHaveAttribute("aria-current", "page");
  const own = new Set(await page.locator("td[data-label=Branch]").allTextContents());
  expect([...own]).toEqual(["Lalitpur Motors"]);
  await expect(page.getByLabel("Branch")).toHaveCount(0);
  await page.goto("/admin/registration");
  await expect(sidebar.getByRole("link", { name: "Registrations", exact: true })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expect(sidebar.getByRole("link", { name: "Thrill Back Office" })).not.toHaveAttribute("aria-current", "page");
});
