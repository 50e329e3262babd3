// Dealer users and roles in the back office, with JavaScript on and off: create (an invalid submit
// first), the list and its search, the detail, edit (an empty password keeps the old one), delete
// with "Are you sure?" (the deleted user's cookie and token stop at once), a branch user's limits,
// nobody deleting themselves, and the role matrix.
import { expect, test, type Page } from "@playwright/test";
import { apiToken, isJs, login, readDb, SAME_SITE, USERS } from "./helpers";

const BRANCH_ADMIN = "branchadmin@demo.test"; // a Branch Admin at Kathmandu Central (db/seed-staff.ts)

/** Each project gets its own names: both run at once against one server. */
const tag = (project: string) => (isJs(project) ? "Js" : "NoJs");
const unique = () => Math.random().toString(36).slice(2, 8);

/** The control labelled `label` (a required field's label ends with its star). */
const input = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label}(\\s*\\*)?$`));

/** The first error shown under the field labelled `label`. */
const errorOf = (page: Page, label: string) =>
  page
    .locator(".field")
    .filter({ has: input(page, label) })
    .locator(".field-error");

async function fillUser(page: Page, v: Record<string, string>) {
  if (v.branch) await input(page, "Branch").selectOption({ label: v.branch });
  if (v.role) await input(page, "Role").selectOption({ label: v.role });
  for (const [label, key] of [
    ["First name", "first"],
    ["Last name", "last"],
    ["Email", "email"],
    ["Phone", "phone"],
    ["Address", "address"],
    ["Password", "password"],
    ["Confirm password", "confirm"],
  ] as const) {
    if (v[key] !== undefined) await input(page, label).fill(v[key]);
  }
  if (v.sex) await input(page, "Sex").selectOption({ label: v.sex });
}

const roleId = (slug: string) =>
  readDb((db) => (db.prepare("select id from roles where slug = ?").get(slug) as { id: number }).id);

const phoneFor = (project: string) => `98${isJs(project) ? "7" : "6"}${String(Date.now()).slice(-7)}`;

test("create a user: an invalid submit first, then the detail, the row in the list and the search", async ({
  page,
}, info) => {
  const name = tag(info.project.name);
  const email = `new.${name.toLowerCase()}.${unique()}@example.test`;
  await login(page, USERS.admin);
  await page.goto("/admin/user");
  await expect(page.getByRole("columnheader", { name: "Name" })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Email" })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Role" })).toBeVisible();
  await page.getByRole("link", { name: "Create" }).click();
  await expect(page).toHaveURL(/\/admin\/user\/create$/);
  await expect(input(page, "Sex")).toHaveValue("MALE");

  // Nothing filled: the server's first error under each required field.
  await page.getByRole("button", { name: "Save" }).click();
  await expect(errorOf(page, "First name")).toHaveText("First name is required.");
  await expect(errorOf(page, "Email")).toHaveText("Email is required.");
  await expect(errorOf(page, "Phone")).toHaveText("Phone is required.");
  await expect(errorOf(page, "Role")).toHaveText("Choose a role.");
  await expect(errorOf(page, "Password")).toHaveText("Password is required.");
  await expect(page).toHaveURL(/\/admin\/user\/create$/);

  // Rules only the server knows: an e-mail taken, a common password. The values stay, the passwords do not.
  await fillUser(page, {
    branch: "Pokhara Lakeside",
    role: "Branch Staff",
    first: `Nima ${name}`,
    last: "Sherpa",
    email: USERS.manager,
    phone: phoneFor(info.project.name),
    address: "Lakeside, Pokhara",
    sex: "Female",
    password: "password123",
    confirm: "password123",
  });
  await page.getByRole("button", { name: "Save" }).click();
  await expect(errorOf(page, "Email")).toHaveText("Email has already been taken.");
  await expect(errorOf(page, "Password")).toHaveText(
    "This password is too common. Choose one that is harder to guess.",
  );
  await expect(errorOf(page, "First name")).toHaveCount(0);
  await expect(input(page, "First name")).toHaveValue(`Nima ${name}`);
  await expect(input(page, "Sex")).toHaveValue("FEMALE");
  await expect(input(page, "Password")).toHaveValue("");
  expect(await page.content()).not.toContain("password123");

  await fillUser(page, { email, password: "Annapurna-Base-7", confirm: "Annapurna-Base-7" });
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/admin\/user\/[A-Za-z0-9_-]{16}$/);
  await expect(page.locator(".toast")).toContainText("Success!");
  const details = page.locator(".details");
  await expect(details).toContainText(`Full name${`Nima ${name} Sherpa`}`);
  await expect(details).toContainText("RoleBranch Staff");
  await expect(details).toContainText("BranchPokhara Lakeside");
  await expect(details).toContainText(`Email${email}`);
  await expect(details).toContainText(`Phone${phoneFor(info.project.name).slice(0, 3)}`);

  await page.getByRole("link", { name: "Close" }).click();
  await expect(page).toHaveURL(/\/admin\/user$/);
  await page.getByRole("searchbox").fill(`Nima ${name}`);
  await page.getByRole("button", { name: "Filter" }).click();
  const row = page.getByRole("row", { name: new RegExp(`Nima ${name} Sherpa`) });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(email);
  await expect(row).toContainText("Branch Staff");
  await expect(page.getByText("Showing 1 - 1 of 1 entries")).toBeVisible();
  await row.getByRole("link").first().click();
  await expect(page.locator(".details")).toContainText(email);
});

test("edit a user: an empty password keeps the old one", async ({ page }, info) => {
  const name = tag(info.project.name);
  const email = `edit.${name.toLowerCase()}.${unique()}@example.test`;
  const token = await apiToken(page.request, USERS.admin);
  const made = await page.request.post("/api/v1/user", {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      first_name: "Before",
      last_name: name,
      email,
      phone: phoneFor(info.project.name),
      role_id: roleId("branch-staff"),
      branch_id: 2,
      password: "Original-Pass-55",
      password_confirmation: "Original-Pass-55",
    },
  });
  expect(made.status()).toBe(201);
  const slug = (await made.json()).data.slug as string;

  await login(page, USERS.admin);
  await page.goto(`/admin/user/${slug}`);
  await page.getByRole("link", { name: "Edit" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/user/${slug}/edit$`));
  await expect(input(page, "First name")).toHaveValue("Before");
  await expect(input(page, "Branch")).toHaveValue("2");
  await expect(input(page, "Password")).toHaveValue("");
  await expect(page.getByText("Leave empty to keep the current password.")).toBeVisible();

  // A bad value first: the error under its field, the other values kept.
  await input(page, "First name").fill("After");
  await input(page, "Phone").fill("12345");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(errorOf(page, "Phone")).toHaveText("Please enter a valid mobile number (10 digits starting with 9).");
  await expect(input(page, "First name")).toHaveValue("After");

  await input(page, "Phone").fill(phoneFor(info.project.name));
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/user/${slug}$`));
  await expect(page.locator(".toast")).toContainText("User updated.");
  await expect(page.locator(".details")).toContainText(`Full nameAfter ${name}`);

  const login2 = await page.request.post("/api/v1/auth/login", {
    data: { email, password: "Original-Pass-55" },
    headers: SAME_SITE,
  });
  expect(login2.status()).toBe(200);
});

test("delete a user after 'Are you sure?': back to /admin/user; their cookie and token stop at once", async ({
  page,
  browser,
}, info) => {
  const name = tag(info.project.name);
  const email = `gone.${name.toLowerCase()}.${unique()}@example.test`;
  const adminToken = await apiToken(page.request, USERS.admin);
  const made = await page.request.post("/api/v1/user", {
    headers: { Authorization: `Bearer ${adminToken}` },
    data: {
      first_name: "Leaving",
      last_name: name,
      email,
      phone: phoneFor(info.project.name),
      role_id: roleId("branch-staff"),
      branch_id: 1,
      password: "Farewell-Pass-66",
      password_confirmation: "Farewell-Pass-66",
    },
  });
  const slug = (await made.json()).data.slug as string;

  // The user signs in elsewhere, in the browser and on the API.
  const theirs = await browser.newContext({ javaScriptEnabled: isJs(info.project.name) });
  const theirPage = await theirs.newPage();
  await theirPage.goto("/login");
  await theirPage.getByLabel("Email").fill(email);
  await theirPage.getByLabel(/^Password\b/).fill("Farewell-Pass-66");
  await theirPage.getByRole("button", { name: /Login/ }).click();
  await expect(theirPage).not.toHaveURL(/\/login/);
  const theirToken = (
    await (
      await theirPage.request.post("/api/v1/auth/login", {
        data: { email, password: "Farewell-Pass-66" },
        headers: SAME_SITE,
      })
    ).json()
  ).access_token as string;
  expect(
    (await theirPage.request.get("/api/v1/auth/me", { headers: { Authorization: `Bearer ${theirToken}` } })).status(),
  ).toBe(200);

  await login(page, USERS.admin);
  await page.goto(`/admin/user/${slug}`);
  await page.locator("summary", { hasText: "Delete" }).click();
  await expect(page.getByText("Are you sure?")).toBeVisible();
  await page.getByRole("button", { name: "Yes" }).click();
  await expect(page).toHaveURL(/\/admin\/user$/);
  await expect(page.locator(".toast")).toContainText("User deleted.");
  await page.getByRole("searchbox").fill(email);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("No matching records found")).toBeVisible();

  await theirPage.goto("/admin/test-ride");
  await expect(theirPage).toHaveURL(/\/login\?redirectTo=/);
  const me = await theirPage.request.get("/api/v1/auth/me", { headers: { Authorization: `Bearer ${theirToken}` } });
  expect(me.status()).toBe(401);
  await theirs.close();
});

test("a branch user manages only its branch, with the roles it holds; a tampered post is refused", async ({ page }) => {
  await login(page, BRANCH_ADMIN);
  await page.goto("/admin/user");
  const branchCells = page.locator("tbody td[data-label='Branch']");
  await expect(branchCells.first()).toHaveText("Kathmandu Central");
  for (const text of await branchCells.allTextContents()) expect(text).toBe("Kathmandu Central");
  await expect(page.getByRole("cell", { name: USERS.staff, exact: true })).toHaveCount(0); // Lalitpur Motors
  await expect(page.getByRole("cell", { name: USERS.admin, exact: true })).toHaveCount(0); // head office

  await page.getByRole("link", { name: "Create" }).click();
  const branch = input(page, "Branch");
  await expect(branch.locator("option")).toHaveText(["Kathmandu Central"]);
  const roles = await input(page, "Role").locator("option").allTextContents();
  // The roles whose permissions a Branch Admin holds: not Super Admin, not Marketing.
  expect(roles).toEqual(expect.arrayContaining(["Branch Admin", "Branch Manager", "Branch Staff"]));
  expect(roles).not.toContain("Super Admin");
  expect(roles).not.toContain("Marketing");

  // A post made by hand with another branch and a role it lacks: refused under the fields, nothing saved.
  const sneaky = `sneaky.${unique()}@example.test`;
  const res = await page.request.post("/admin/user/create", {
    headers: SAME_SITE,
    form: {
      branch_id: "2",
      first_name: "Sneaky",
      email: sneaky,
      phone: "9841234567",
      sex: "MALE",
      role_id: String(roleId("super-admin")),
      password: "Sneaky-Pass-99",
      password_confirmation: "Sneaky-Pass-99",
    },
  });
  expect(res.status()).toBe(422);
  const html = await res.text();
  expect(html).toContain("You can only manage users of your own branch.");
  expect(html).toContain("You cannot give a role with permissions you do not hold yourself");
  expect(html).not.toContain("Sneaky-Pass-99");
  expect(readDb((db) => db.prepare("select count(*) n from users where email = ?").get(sneaky))).toEqual({ n: 0 });
});

test("nobody deletes themselves: no Delete on one's own page, and a post is refused", async ({ page }) => {
  await login(page, BRANCH_ADMIN);
  const slug = readDb(
    (db) => (db.prepare("select slug from users where email = ?").get(BRANCH_ADMIN) as { slug: string }).slug,
  );
  await page.goto(`/admin/user/${slug}`);
  await expect(page.locator(".details")).toContainText(BRANCH_ADMIN);
  await expect(page.getByRole("link", { name: "Edit" })).toBeVisible();
  await expect(page.locator("summary", { hasText: "Delete" })).toHaveCount(0);
  const res = await page.request.post(`/admin/user/${slug}`, { form: { intent: "delete" }, headers: SAME_SITE });
  expect(res.status()).toBe(200); // followed back to the detail, with the reason
  expect(await res.text()).toContain("You cannot delete your own account.");
  expect(readDb((db) => db.prepare("select deleted_at from users where slug = ?").get(slug))).toEqual({
    deleted_at: null,
  });
});

test("the role matrix: Super Admin locked; a new role and a change to it are saved", async ({ page }, info) => {
  const title = `E2E ${tag(info.project.name)} ${unique()}`;
  await login(page, USERS.admin);
  await page.goto("/admin/user");
  await page.getByRole("link", { name: "Roles and permissions" }).click();
  await expect(page).toHaveURL(/\/admin\/role$/);
  await expect(page.getByLabel("Super Admin: View users")).toBeDisabled();
  await expect(page.getByLabel("Super Admin: View users")).toBeChecked();
  await expect(page.getByLabel("Branch Staff: View registrations")).toBeChecked();

  await page.getByLabel("Title").fill(title);
  await page.locator(".role-new").getByLabel("View videos").check();
  await page.getByRole("button", { name: "Create role" }).click();
  await expect(page.locator(".toast")).toContainText(`Role ${title} created.`);
  await expect(page.getByRole("columnheader", { name: new RegExp(title) })).toBeVisible();
  await expect(page.getByLabel(`${title}: View videos`)).toBeChecked();

  await page.getByLabel(`${title}: Send SMS and view analytics`).check();
  await page.getByRole("button", { name: "Save permissions" }).click();
  await expect(page.locator(".toast")).toContainText(`Permissions saved: ${title}.`);
  await expect(page.getByLabel(`${title}: Send SMS and view analytics`)).toBeChecked();
  // This role's own change (the other project's run saves its role at the same time).
  const audit = readDb(
    (db) =>
      db
        .prepare(
          `select changes from audit_log where action = 'role.update'
             and entity_type = 'role' and entity_id = (select slug from roles where title = ?) order by id desc limit 1`,
        )
        .get(title) as { changes: string },
  );
  expect(JSON.parse(audit.changes).added.after).toEqual(["send-sms"]);
});
