// The SMS outbox, with JavaScript on and off: codes shown to head office (who may see codes), a failed notice
// sent again from the list (the worker sends it), a failed code without a "Send again" button.
import { expect, test } from "@playwright/test";
import { refusedSms } from "./data";
import { isJs, login, readDb, USERS } from "./helpers";

test("head office sends a failed notice again from the outbox; a failed code cannot be", async ({ page }, info) => {
  const phone = isJs(info.project.name) ? "9866600001" : "9866600002";
  const notice = (await refusedSms({ to: phone, text: "Dear customer, your prizes are ready", purpose: "notify" })).id;
  await refusedSms({ to: phone, text: "Your code is 246810", purpose: "otp" });
  await login(page, USERS.admin);
  await page.goto(`/admin/outbox?search=${phone}`);
  const rows = page.locator("tbody tr");
  await expect(rows).toHaveCount(2);
  const code = rows.filter({ hasText: "Your code is" });
  await expect(code).toContainText("Your code is 246810"); // the Super Admin holds read-user
  await expect(code.getByRole("button", { name: "Send again" })).toHaveCount(0);
  const notify = rows.filter({ hasText: "your prizes are ready" });
  await expect(notify).toContainText("invalid receiver");
  await notify.getByRole("button", { name: "Send again" }).click();
  await expect(page.locator(".toast")).toContainText("The message is queued to be sent again.");
  await expect
    .poll(() => readDb((db) => db.prepare("select status from sms_messages where id = ?").pluck().get(notice)))
    .toBe("sent");
  const audit = readDb((db) =>
    db
      .prepare("select user_email from audit_log where action = 'sms.retry' and entity_id = ?")
      .pluck()
      .get(String(notice)),
  );
  expect(audit).toBe(USERS.admin);
});
