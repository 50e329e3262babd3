// SMS broadcast, with JavaScript on and off: a typed list with a bad number is refused naming its position; a
// correct one shows the preview (recipients, characters and SMS parts of an English and a Nepali text), is sent,
// and its page shows the counts reach sent while the server's worker sends; the outbox holds one message per
// distinct number. The customer picker finds a customer by name, and keeps earlier choices across searches.
import { expect, test, type Page } from "@playwright/test";
import { isJs, login, readDb, USERS } from "./helpers";

const ENGLISH = `Thrill Bikes: test ride days this weekend at every showroom. ${"Bring a friend! ".repeat(8)}`.trim();
const NEPALI = "थ्रिल बाइक्स: यो शनिबार नजिकको शोरुममा निःशुल्क टेस्ट राइड। साथीलाई पनि ल्याउनुहोस्!";

const field = (page: Page, name: string) => page.locator(`dd[data-field="${name}"]`);

test("a typed list: a bad number named by its position, then the preview, the send and the counts reaching sent", async ({
  page,
}, info) => {
  test.setTimeout(150_000);
  const base = isJs(info.project.name) ? 9711100000 : 9722200000;
  const stamp = Date.now() % 100_000;
  const [a, b] = [String(base + stamp * 2), String(base + stamp * 2 + 1)];
  await login(page, USERS.admin);
  await page.goto("/admin/sms");

  await page.getByLabel("Category", { exact: true }).selectOption("MOBILE");
  await page.getByLabel(/Mobile numbers/).fill(`${a}, ${b}, 12345`);
  await page.getByLabel("Message", { exact: true }).fill(ENGLISH);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(
    page.getByText("Mobile numbers are 10 digits starting with 9. Mobile number 3 is invalid"),
  ).toBeVisible();
  // What was typed stays.
  await expect(page.getByLabel("Message", { exact: true })).toHaveValue(ENGLISH);

  await page.getByLabel(/Mobile numbers/).fill(`${a}, ${b} ,${a}`);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Check before sending" })).toBeVisible();
  await expect(field(page, "Recipients")).toHaveText("2 distinct numbers; 1 number typed twice, sent once");
  const chars = Array.from(ENGLISH).length;
  await expect(field(page, "Each message")).toHaveText(`${chars} characters, 2 SMS parts (GSM-7, 153 per part)`);
  await expect(field(page, "Total")).toHaveText("4 SMS parts");
  await expect(field(page, "Gateway credit")).toContainText("unknown");

  // Back to the form with the values kept; a Nepali text counts as Unicode (70, then 67 per part).
  await page.getByRole("button", { name: "Go Back" }).click();
  await expect(page.getByLabel(/Mobile numbers/)).toHaveValue(`${a}, ${b} ,${a}`);
  await page.getByLabel("Message", { exact: true }).fill(NEPALI);
  if (isJs(info.project.name)) {
    await expect(page.locator(".sms-count")).toHaveText(
      `${Array.from(NEPALI).length} characters · 2 SMS parts (Unicode, 67 per part)`,
    );
  }
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(field(page, "Each message")).toHaveText(
    `${Array.from(NEPALI).length} characters, 2 SMS parts (Unicode, 67 per part)`,
  );
  await expect(field(page, "Total")).toHaveText("4 SMS parts");

  await page.getByRole("button", { name: "Send to 2 recipients" }).click();
  await expect(page).toHaveURL(/\/admin\/sms\/\d+$/);
  await expect(page.locator(".toast")).toContainText("The message is on its way to 2 recipients.");
  const id = Number(new URL(page.url()).pathname.split("/").pop());
  await expect(field(page, "Recipients")).toHaveText("2");

  // The e2e server's worker sends at SMS_RATE_PER_SECOND; the page's counts follow.
  if (isJs(info.project.name)) {
    await expect(field(page, "Sent")).toHaveText("2", { timeout: 120_000 });
  } else {
    await expect
      .poll(
        async () => {
          await page.reload();
          return field(page, "Sent").textContent();
        },
        { timeout: 120_000, intervals: [2000] },
      )
      .toBe("2");
  }
  await expect(field(page, "Status")).toContainText("Done");
  await expect(page.getByRole("row", { name: new RegExp(`${a} sent`) })).toBeVisible();

  // The outbox holds exactly one message per distinct number of the broadcast.
  const stored = readDb((db) =>
    db
      .prepare(
        `select "to", count(*) n, min(status) s from sms_messages where broadcast_id = ? group by "to" order by "to"`,
      )
      .all(id),
  );
  expect(stored).toEqual([
    { to: a, n: 1, s: "sent" },
    { to: b, n: 1, s: "sent" },
  ]);
  const audit = readDb((db) =>
    db
      .prepare("select user_email from audit_log where action = 'sms.broadcast' and entity_id = ?")
      .pluck()
      .get(String(id)),
  );
  expect(audit).toBe(USERS.admin);

  // The history lists it with its counts.
  await page.goto(`/admin/sms?search=${encodeURIComponent(NEPALI.slice(0, 12))}`);
  const row = page
    .getByRole("row")
    .filter({ hasText: NEPALI.slice(0, 12) })
    .first();
  await expect(row).toContainText("Done");
});

test("the customer category: a customer found by name is chosen and previewed", async ({ page }, info) => {
  await login(page, USERS.admin);
  await page.goto("/admin/sms");
  await page.getByLabel("Category", { exact: true }).selectOption("REGISTRANTS");
  await page.getByLabel("Find a customer by name or phone").fill("Ram Bahadur");
  if (isJs(info.project.name)) {
    await page.getByRole("button", { name: /^Add Ram Bahadur Thapa/ }).click();
    await expect(page.getByRole("checkbox", { name: /Ram Bahadur Thapa/ })).toBeChecked();
  } else {
    await page.getByRole("button", { name: "Search customers" }).click();
    await page.getByRole("checkbox", { name: /Ram Bahadur Thapa/ }).check();
  }
  await page.getByLabel("Message", { exact: true }).fill("Thank you for bringing your friends!");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Check before sending" })).toBeVisible();
  await expect(field(page, "Category")).toHaveText("Customer");
  await expect(field(page, "Reaches")).toContainText("Ram Bahadur Thapa");
  await expect(field(page, "Recipients")).toHaveText("1 distinct number");
});

test("the customer picker keeps earlier choices across searches: one found by name, one by phone, both sent to", async ({
  page,
}, info) => {
  const sita = readDb((db) =>
    db
      .prepare("select name, phone from registrations where name = 'Sita Kumari Shrestha' and deleted_at is null")
      .get(),
  ) as { name: string; phone: string };
  await login(page, USERS.admin);
  await page.goto("/admin/sms");
  await page.getByLabel("Category", { exact: true }).selectOption("REGISTRANTS");
  const search = page.getByLabel("Find a customer by name or phone");
  const ram = page.getByRole("checkbox", { name: /Ram Bahadur Thapa/ });
  const second = page.getByRole("checkbox", { name: new RegExp(sita.name) });
  await search.fill("Ram Bahadur");
  if (isJs(info.project.name)) {
    await page.getByRole("button", { name: /^Add Ram Bahadur Thapa/ }).click();
    await search.fill(sita.phone);
    await page.getByRole("button", { name: new RegExp(`^Add ${sita.name}`) }).click();
  } else {
    await page.getByRole("button", { name: "Search customers" }).click();
    await ram.check();
    // The second search posts the form back: the customer ticked from the first stays chosen.
    await search.fill(sita.phone);
    await page.getByRole("button", { name: "Search customers" }).click();
    await expect(page.getByRole("list", { name: "Chosen customers" }).getByRole("checkbox")).toHaveCount(1);
    await expect(ram).toBeChecked();
    await page
      .getByRole("list", { name: "Customers found" })
      .getByRole("checkbox", { name: new RegExp(sita.name) })
      .check();
  }
  await expect(ram).toBeChecked();
  await expect(second).toBeChecked();
  await page.getByLabel("Message", { exact: true }).fill("Thank you both for riding with us!");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Check before sending" })).toBeVisible();
  await expect(field(page, "Category")).toHaveText("Customer");
  await expect(field(page, "Reaches")).toContainText("Ram Bahadur Thapa");
  await expect(field(page, "Reaches")).toContainText(sita.name);
  await expect(field(page, "Recipients")).toHaveText("2 distinct numbers");
});

test("a category without its choice gets the field's message; a branch user cannot open SMS", async ({ page }) => {
  await login(page, USERS.admin);
  await page.goto("/admin/sms");
  await page.getByLabel("Category", { exact: true }).selectOption("BRANCH");
  await page.getByLabel("Message", { exact: true }).fill("Branch news");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByText("Please choose at least one branch.")).toBeVisible();
  await page.getByLabel("Category", { exact: true }).selectOption("ALL");
  await page.getByLabel("Message", { exact: true }).fill("");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByText("Please enter the message.")).toBeVisible();

  await page.context().clearCookies();
  await login(page, USERS.staff);
  await page.goto("/admin/sms");
  await expect(page).toHaveURL(/\/admin$|\/admin\/registration/);
});
