// The closed campaign: "Registration Closed", the Save button disabled, the banner, and the
// server refusing a form that was opened before closing. Restores the open state.
import { expect, test } from "@playwright/test";
import { readDb } from "./helpers";
import {
  fillPreregistration,
  newVisitor,
  PHONE_VIEWPORT,
  setRegistrationOpen,
  withRegistrationLock,
  saveThroughConfirm,
} from "./public-helpers";

test.use({ viewport: PHONE_VIEWPORT });
test.describe.configure({ mode: "serial" });

const BANNER = "Registration is closed. Please contact the admin for more information.";

test("a closed campaign refuses public pre-registrations", async ({ page }) => {
  const visitor = newVisitor();
  await withRegistrationLock(async () => {
    try {
      await page.goto("/enquiry");
      await fillPreregistration(page, visitor);
      setRegistrationOpen(false);
      await saveThroughConfirm(page, page.getByText(BANNER).first());
      await expect(page.getByText(BANNER).first()).toBeVisible();
      await expect(page.locator("form[data-prereg]").getByRole("button", { name: "Save" })).toBeDisabled();
      const count = readDb((db) =>
        db.prepare("select count(*) as n from preregistrations where phone = ?").get(visitor.phone),
      ) as { n: number };
      expect(count.n).toBe(0);

      await page.goto("/");
      await expect(page.getByText("Registration Closed").first()).toBeVisible();
      await expect(page.getByText(BANNER)).toBeVisible();
      await expect(page.getByRole("heading", { name: "Share It. Win It." })).toBeVisible();
      await expect(page.locator(".hero").getByRole("link", { name: "Pre-register" })).toHaveCount(0);
      // No prize promised beside "Registration Closed".
      await expect(page.locator(".hero .prize, .hero .bonus")).toHaveCount(0);
      await page.goto("/enquiry");
      await expect(page.locator("form[data-prereg]").getByRole("button", { name: "Save" })).toBeDisabled();
    } finally {
      setRegistrationOpen(true);
    }
  });
  await page.goto("/");
  await expect(page.locator(".hero").getByRole("link", { name: "Pre-register" })).toBeVisible();
  await expect(page.locator(".hero .bonus")).toBeVisible();
  await page.goto("/enquiry");
  await expect(page.locator("form[data-prereg]").getByRole("button", { name: "Save" })).toBeEnabled();
});
