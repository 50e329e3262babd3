// The counter journey of a branch staff member, with JavaScript on and off: a pre-registration at
// the counter, the customer's code (from the SMS outbox), the second-thrill draw, the purchase, its
// confirmation code, the coupon draw with the prize breakdown and total, and the print sheet.
import { expect, test } from "@playwright/test";
import { isJs, lastCode, login, USERS } from "./helpers";
import {
  apiRegistration,
  ENTER_CODE,
  freshCode,
  freshDigits,
  freshPhone,
  MISMATCH,
  otherCode,
  tokenFor,
  verifiedPreregistration,
} from "./counter-helpers";

test("branch staff: pre-registration at the counter to a printed coupon", async ({ page, context }) => {
  test.setTimeout(120_000);
  const phone = freshPhone();
  await login(page, USERS.staff);

  // 1. The pre-registration, with the phone confirmation step.
  await page.goto("/admin/preregistration");
  await page.getByRole("link", { name: "Create" }).click();
  await expect(page).toHaveURL(/\/admin\/preregistration\/create$/);
  await page.getByLabel("Full Name").fill("Counter Customer");
  await page.getByLabel("Address").fill("Jawalakhel 5");
  await page.getByLabel("Phone Number").fill(phone);
  await page.getByLabel("Citizenship No/PAN").fill(freshDigits());
  await page.getByLabel("Bike Model").selectOption({ label: "Street 125" });
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Please Confirm Your Phone Number." })).toBeVisible();
  await expect(page.locator(".confirm-step .phone")).toHaveText(phone);
  await page.getByRole("button", { name: "Save and Notify" }).click();
  await expect(page).toHaveURL(/\/admin\/preregistration\/[^/]+\/verify$/);
  const preUrl = page.url().replace(/\/verify$/, "");

  // 2. A wrong code: the spec's message, a fresh code, Retry and Go Back.
  const code = lastCode(phone);
  await page.getByLabel(ENTER_CODE).fill(otherCode(code));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByText(MISMATCH)).toBeVisible();
  await expect(page.getByRole("link", { name: "Go Back" })).toHaveAttribute("href", /\/edit$/);
  await page.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByLabel(ENTER_CODE)).toHaveValue("");

  // 3. The customer's code verifies and draws the second thrill.
  await page.getByLabel(ENTER_CODE).fill(lastCode(phone));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/draw$/);
  await expect(page.locator(".draw-congrats")).toContainText("Congratulations Counter Customer!");
  await expect(page.getByRole("row", { name: /Second Thrill/ })).toContainText("Rs.");

  // 4. The purchase.
  await page.getByRole("link", { name: "Proceed with Registration" }).click();
  await expect(page.getByRole("heading", { name: "Register Purchase" })).toBeVisible();
  await expect(page.locator(".prefix")).toHaveText("B2-");
  await expect(page.getByLabel("Payment Mode")).toHaveValue("CASH");
  const engine = freshCode("en-");
  await page.getByLabel("Bill/Chalan No").fill(freshDigits(6));
  await page.getByLabel("Engine No").fill(engine);
  await page.getByLabel("Chassis No").fill(freshCode("CH"));
  await page.getByLabel("Vehicle Registration No").fill(freshCode("BA"));
  await page.getByRole("button", { name: "Save" }).click();

  // 5. The confirmation code the customer received: a wrong one first.
  await expect(page.getByRole("heading", { name: "Confirm Purchase" })).toBeVisible();
  const regUrl = page.url().replace(/\/verify$/, "");
  const purchaseCode = lastCode(phone, "purchase-code");
  await page.getByLabel(ENTER_CODE).fill(otherCode(purchaseCode));
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByText("Incorrect Code. Please Try again")).toBeVisible();
  await page.getByLabel(ENTER_CODE).fill(lastCode(phone, "purchase-code"));
  await page.getByRole("button", { name: "Confirm" }).click();

  // 6. The coupon draw, with the prize breakdown and the total.
  await expect(page).toHaveURL(/\/draw$/);
  await page.getByRole("button", { name: "Draw the Coupon" }).click();
  await expect(page.locator(".draw-total")).toContainText("Total prize:");
  const breakdown = page.locator(".prize-breakdown");
  await expect(breakdown.getByRole("row", { name: /Third Thrill/ })).toBeVisible();
  await expect(breakdown.getByRole("row", { name: /Total Prize/ })).toContainText("Rs.");
  const couponCode = (await page.getByRole("heading", { name: /coupon TH-/ }).textContent())!.match(
    /TH-[A-Z0-9]{4}-[A-Z0-9]{4}/,
  )![0];

  // The detail shows the same registration with its upper-cased engine number.
  await page.goto(regUrl);
  await expect(page.getByText(engine.toUpperCase())).toBeVisible();
  await expect(page.getByText(couponCode)).toBeVisible();
  await page.goto(preUrl);
  await expect(page.getByRole("link", { name: "View Registration" })).toBeVisible();

  // 7. The print sheet: the registration twice, customer copy (masked phone) and dealer copy.
  await page.goto(`${regUrl}/draw`);
  const [sheet] = await Promise.all([
    context.waitForEvent("page"),
    page.getByRole("link", { name: "Print Coupon" }).click(),
  ]);
  await sheet.waitForLoadState();
  await expect(sheet.locator(".coupon")).toHaveCount(2);
  await expect(sheet.locator(".coupon-customer")).toContainText(couponCode);
  await expect(sheet.locator(".coupon-dealer")).toContainText(couponCode);
  await expect(sheet.locator(".coupon-dealer")).toContainText(phone);
  await expect(sheet.locator(".coupon-customer")).not.toContainText(phone);
  await expect(sheet.locator(".coupon-customer")).toContainText(`${phone.slice(0, 2)}XXXXXX${phone.slice(-2)}`);
});

test("a duplicate engine number is a field error and nothing is saved", async ({ page, request }) => {
  const token = await tokenFor(request, USERS.staff);
  const first = await apiRegistration(request, token);
  const pre = await verifiedPreregistration(request, token);
  await login(page, USERS.staff);
  await page.goto(`/admin/registration/create/${pre.slug}`);
  const chassis = freshCode("CH");
  await page.getByLabel("Bill/Chalan No").fill(freshDigits(6));
  await page.getByLabel("Engine No").fill(first.engine_no.toLowerCase());
  await page.getByLabel("Chassis No").fill(chassis);
  await page.getByLabel("Vehicle Registration No").fill(freshCode("BA"));
  await page.getByRole("button", { name: "Save" }).click();
  const engineField = page.locator(".field", { has: page.getByLabel("Engine No") });
  await expect(engineField.getByRole("alert")).toHaveText("Engine No has already been taken.");
  await expect(page).toHaveURL(new RegExp(`/admin/registration/create/${pre.slug}$`));
  // The other values come back with the error.
  await expect(page.getByLabel("Chassis No")).toHaveValue(chassis);
  // The pre-registration is still open for its purchase.
  await page.goto(`/admin/preregistration/${pre.slug}`);
  await expect(page.getByRole("link", { name: "Proceed with Registration" })).toBeVisible();
});

test("the purchase form's read-only date and phone read as values, not boxes to type in", async ({ page, request }) => {
  const token = await tokenFor(request, USERS.staff);
  const pre = await verifiedPreregistration(request, token);
  await login(page, USERS.staff);
  await page.goto(`/admin/registration/create/${pre.slug}`);
  for (const [label, hint] of [
    ["Date of Purchase", "Today, set by the system."],
    ["Phone Number", "The verified phone of the pre-registration."],
  ] as const) {
    const input = page.getByLabel(label, { exact: true });
    await expect(input).not.toBeEditable();
    await expect(input).toHaveCSS("border-top-color", "rgba(0, 0, 0, 0)");
    await expect(input).toHaveCSS("background-color", "rgba(0, 0, 0, 0)");
    await expect(page.locator(".field", { has: input })).toContainText(hint);
    await expect(page.locator(".field", { has: input }).locator(".req")).toHaveCount(0);
  }
  // A field to fill keeps its box.
  await expect(page.getByLabel("Engine No")).not.toHaveCSS("border-top-color", "rgba(0, 0, 0, 0)");
});

test("a registration is deleted and restored; a pre-registration delete asks first", async ({ page, request }) => {
  const token = await tokenFor(request, USERS.manager);
  const reg = await apiRegistration(request, token, { name: "Deletable Buyer" });
  await login(page, USERS.manager);
  await page.goto(`/admin/registration/${reg.slug}`);
  await page.locator("summary", { hasText: "Delete" }).click();
  await expect(page.getByText("Are you sure?")).toBeVisible();
  await page.getByRole("button", { name: "Yes" }).click();
  await expect(page).toHaveURL(/\/admin\/registration$/);
  await expect(page.getByText("Registration deleted.")).toBeVisible();
  await page.getByRole("searchbox").fill(reg.engine_no);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("Showing 0 - 0 of 0 entries")).toBeVisible();

  await page.goto("/admin/registration/deleted");
  await page.getByRole("searchbox").fill(reg.engine_no);
  await page.getByRole("button", { name: "Filter" }).click();
  await page.getByRole("link", { name: "Deletable Buyer" }).click();
  await expect(page.getByText("Deleted", { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Edit" })).toHaveCount(0);
  await page.getByRole("button", { name: "Restore" }).click();
  await expect(page.getByText("Registration restored.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Edit" })).toBeVisible();

  // A pre-registration (unverified, so it has no purchase) is deleted after the spec's question.
  const phone = freshPhone();
  const created = await request.post("/api/v1/preregistration", {
    headers: { Authorization: `Bearer ${token}` },
    data: { name: "Deletable Customer", address: "Kupondole", phone, citizenship_no: freshDigits() },
  });
  const pre = (await created.json()).data as { slug: string };
  await page.goto(`/admin/preregistration/${pre.slug}`);
  await expect(page.getByRole("link", { name: "Proceed with Verification" })).toBeVisible();
  await page.locator("summary", { hasText: "Delete" }).click();
  await expect(page.getByText("Are you sure you want to delete this preregistration?")).toBeVisible();
  await page.getByRole("button", { name: "Yes" }).click();
  await expect(page).toHaveURL(/\/admin\/preregistration$/);
  await expect(page.getByText("Pre-registration deleted.")).toBeVisible();
});

test("the coupon draw stays a draw until it ends: Print Coupon and Notify come with the result, and no empty band sits above the title", async ({
  page,
  request,
}, info) => {
  const token = await tokenFor(request, USERS.staff);
  const reg = await apiRegistration(request, token);
  const confirmed = await request.post(`/api/v1/registration/${reg.slug}/verify`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { code: lastCode(reg.phone, "purchase-code") },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  await page.setViewportSize({ width: 1366, height: 768 });
  await login(page, USERS.staff);
  await page.goto(`/admin/registration/${reg.slug}/draw`);
  await page.getByRole("button", { name: "Draw the Coupon" }).click();
  await expect(page).toHaveURL(/\/draw$/);

  // While the digits roll (by script, or by CSS alone without JavaScript) there is nothing to press.
  const print = page.getByRole("link", { name: "Print Coupon" });
  const notify = page.getByRole("button", { name: "Notify" });
  const view = page.getByRole("link", { name: "View Registration" });
  await expect(page.locator(".draw-cells")).toBeVisible();
  if (isJs(info.project.name)) await expect(page.locator(".draw-reveal.flicker")).toBeAttached();
  await expect(page.locator(".draw-result")).toBeHidden();
  for (const action of [print, notify, view]) await expect(action).toBeHidden();
  // The title is the first thing in the page's content: no room kept above it for the toast meanwhile.
  const gap = await page.locator(".admin-content").evaluate((content) => {
    const title = content.querySelector("h1")!.getBoundingClientRect().top;
    return title - content.getBoundingClientRect().top - parseFloat(getComputedStyle(content).paddingTop);
  });
  expect(gap, "the space between the top of the page's content and the title").toBeLessThan(16);

  // With the result, the actions: shown and usable.
  await expect(page.locator(".draw-result")).toBeVisible({ timeout: 10_000 });
  for (const action of [print, notify, view]) {
    await expect(action).toBeVisible();
    await expect(action).toBeEnabled();
  }
  await expect(print).toHaveAttribute("href", `/admin/print?slug=${reg.slug}`);
  await expect(page.locator(".toast")).toContainText("Coupon drawn.");
  // The toast came after the content, so the title has not moved.
  const title = (await page.getByRole("heading", { name: "Coupon Draw" }).boundingBox())!;
  const result = (await page.locator(".draw-result").boundingBox())!;
  expect(title.y).toBeLessThan(result.y);
});
