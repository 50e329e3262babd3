// A page opened as a dialog is inserted without running its scripts: an injected <script> in the
// fetched HTML never runs with this page's authority, and the landing page's own scripts still set
// the dialog's form up (the Book a Ride cascade).
import { expect, test } from "@playwright/test";
import { isJs } from "./helpers";

test("a fetched dialog's scripts never run; the host page's scripts enhance it", async ({ page }, info) => {
  test.skip(!isJs(info.project.name), "dialogs are made by JavaScript");
  await page.route("**/book-a-ride*", async (route) => {
    if (route.request().resourceType() !== "fetch") return route.continue();
    const response = await route.fetch();
    const html = (await response.text()).replace(
      'class="modal"',
      'class="modal"><script>window.__injected = (window.__injected || 0) + 1</script><div hidden',
    );
    return route.fulfill({ response, body: html });
  });
  await page.goto("/");
  await page.getByRole("link", { name: "Book a Ride" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Book a Ride" });
  await expect(dialog).toBeVisible();
  // The fetched page's inline scripts are removed, the injected one among them.
  await expect(dialog.locator("script")).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __injected?: number }).__injected)).toBeUndefined();
  // The landing page's cascade script set the dialog's form up: choosing a province narrows the districts.
  const form = dialog.locator("form[data-cascade]");
  await expect(form).toHaveAttribute("data-ready", "");
});
