// The SMS outbox by reach, as a branch manager whose role was given send-sms sees it: its own branch's
// customers' messages only (a code for a visitor naming its showroom), never another branch's.
import { expect, test } from "@playwright/test";
import { login, readDb, USERS, writeDb } from "./helpers";
import { freshCitizenship, freshPhone, withRegistrationLock } from "./public-helpers";

test("a branch user's outbox holds its own customers' messages, not another branch's", async ({ page, request }) => {
  const manager = readDb((db) => db.prepare("select * from users where email = ?").get(USERS.manager)) as {
    id: number;
    branch_id: number;
  };
  const other = readDb((db) =>
    db.prepare("select id from branches where id <> ? order by id limit 1").get(manager.branch_id),
  ) as {
    id: number;
  };
  const tag = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const email = `outbox-${tag}@demo.test`;
  // A manager of the same branch whose role may send SMS (the role screen allows it).
  writeDb((db) => {
    const role = db
      .prepare("insert into roles (slug, title) values (?, ?) returning id")
      .get(`sms-manager-${tag}`, `SMS Manager ${tag}`) as { id: number };
    db.prepare(
      `insert into role_permissions (role_id, permission_id)
       select ?, id from permissions where name in ('send-sms', 'read-registration')`,
    ).run(role.id);
    db.prepare(
      `insert into users (slug, name, first_name, last_name, email, phone, sex, address, branch_id, role_id, password_hash)
       select ?, 'Sms Manager', 'Sms', 'Manager', ?, null, sex, null, branch_id, ?, password_hash from users where id = ?`,
    ).run(`sms-${tag}`, email, role.id, manager.id);
  });

  const enquire = async (branchId: number) => {
    const phone = freshPhone();
    const res = await withRegistrationLock(() =>
      request.post("/api/v1/enquiry", {
        multipart: {
          name: "Outbox Visitor",
          address: "Kathmandu",
          phone,
          citizenship_no: freshCitizenship(),
          nearest_branch_id: String(branchId),
        },
      }),
    );
    expect(res.status(), await res.text()).toBe(201);
    return phone;
  };
  const mine = await enquire(manager.branch_id);
  const theirs = await enquire(other.id);

  await login(page, email);
  await page.goto(`/admin/outbox?search=${mine}`);
  await expect(page.getByRole("cell", { name: mine })).toBeVisible();
  await page.goto(`/admin/outbox?search=${theirs}`);
  await expect(page.getByText("No matching records found")).toBeVisible();
  await expect(page.getByRole("cell", { name: theirs })).toHaveCount(0);

  await page.context().clearCookies();
  await login(page, USERS.admin);
  await page.goto(`/admin/outbox?search=${theirs}`);
  await expect(page.getByRole("cell", { name: theirs })).toBeVisible();
});
