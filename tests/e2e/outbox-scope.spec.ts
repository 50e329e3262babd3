// The SMS outbox by reach, as a branch manager whose role was given send-sms sees it: its own branch's
// customers' messages only (a code for a visitor naming its showroom), never another branch's.
import { expect, test } from "@playwright/test";
import { makeRole, makeStaff } from "./data";
import { login, PASSWORD, readDb, USERS } from "./helpers";
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
  const role = makeRole(`SMS Manager ${tag}`, ["send-sms", "read-registration"]);
  await makeStaff({ email, role_id: role.id, branch_id: manager.branch_id, password: PASSWORD });

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
