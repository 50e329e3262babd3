// The SMS form shows the inputs of the chosen category only (a `hidden` section stays hidden whatever
// its own display rule): as it is picked with JavaScript; without it, once the form comes back from the
// server (a first plain load shows every category's inputs, each labelled with its category).
import { expect, test } from "@playwright/test";
import { isJs, login, USERS } from "./helpers";

test("only the chosen category's inputs show", async ({ page }, info) => {
  await login(page, USERS.admin);
  await page.goto("/admin/sms");
  const branches = page.locator(".for-branch");
  const customers = page.locator(".for-customer");
  const mobiles = page.locator(".for-mobile");
  if (isJs(info.project.name)) {
    await expect(branches).toBeHidden();
    await expect(mobiles).toBeHidden();
    await page.getByLabel("Category", { exact: true }).selectOption("MOBILE");
    await expect(mobiles).toBeVisible();
    await expect(branches).toBeHidden();
    await expect(customers).toBeHidden();
    await page.getByLabel("Category", { exact: true }).selectOption("BRANCH");
    await expect(branches).toBeVisible();
    await expect(mobiles).toBeHidden();
    await page.getByLabel("Category", { exact: true }).selectOption("ALL");
    await expect(branches).toBeHidden();
    await expect(customers).toBeHidden();
    await expect(mobiles).toBeHidden();
  } else {
    // Nothing can react to the choice on a plain page: every category's inputs, labelled.
    await expect(page.getByLabel("Branches (category Branch)")).toBeVisible();
    await expect(page.getByLabel("Mobile numbers (category Mobile)")).toBeVisible();
    // Sent back (here: no message), the form shows the chosen category's inputs only.
    await page.getByLabel("Category", { exact: true }).selectOption("MOBILE");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await expect(page.getByText("Please enter the message.").first()).toBeVisible();
    await expect(mobiles).toBeVisible();
    await expect(branches).toBeHidden();
    await expect(customers).toBeHidden();
  }
});
