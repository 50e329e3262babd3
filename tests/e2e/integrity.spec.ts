// The integrity desk, with JavaScript on and off: head office finds the demo's planted cheats, opens one,
// is asked for a note, and holds it with one (a plain form post); a branch's manager is refused the desk.
import { expect, test } from "@playwright/test";
import { isJs, login, readDb, USERS } from "./helpers";

test("head office holds a planted cheat with a note; a branch never sees the desk", async ({ page }, info) => {
  await login(page, USERS.admin);
  await page.goto("/admin");
  await expect(page.getByRole("link", { name: /Integrity: \d+ open flags?/ })).toBeVisible();
  const reason = isJs(info.project.name) ? "shared-citizenship" : "address-burst";
  const search = isJs(info.project.name) ? "7711223344" : "203.0.113.0";
  await page.goto(`/admin/integrity?reason=${reason}&status=all&search=${search}`);
  const rows = page.locator("tbody tr");
  await expect(rows).toHaveCount(1);
  await rows.first().getByRole("link").first().click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(
    isJs(info.project.name) ? "citizenship" : "address range",
  );
  await expect(page.getByRole("region", { name: "Evidence" })).toBeVisible();
  // Without a note, the decision is refused under the note's field.
  await page.getByRole("button", { name: "Hold for review" }).click();
  await expect(page.locator(".field-error")).toContainText("Write a note");
  await page.getByLabel("Note (why)").fill("Asking the branch about these numbers.");
  await page.getByRole("button", { name: "Hold for review" }).click();
  await expect(page.locator(".toast")).toContainText("Prizes held for review.");
  const id = Number(new URL(page.url()).pathname.split("/").pop());
  expect(readDb((db) => db.prepare("select status from integrity_flags where id = ?").pluck().get(id))).toBe("held");
  expect(
    readDb((db) =>
      db
        .prepare("select count(*) from audit_log where action = 'integrity.hold' and entity_id = ?")
        .pluck()
        .get(String(id)),
    ),
  ).toBe(1);

  await page.context().clearCookies();
  await login(page, USERS.manager);
  const refused = await page.goto("/admin/integrity");
  expect(refused?.status() === 403 || new URL(page.url()).pathname !== "/admin/integrity").toBe(true);
  await page.goto("/admin");
  await expect(page.getByText(/open flags?/)).toHaveCount(0);
});
