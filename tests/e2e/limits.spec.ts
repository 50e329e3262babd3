// A visitor who meets a limit is told so on the page, with JavaScript on ("js") and off ("nojs"):
// a phone asked for "continue" codes again and again gets the code step with "Please wait N seconds".
// The limit's numbers are tested in tests/integration/limits.test.ts; here the requests go on until the
// server refuses one (the e2e server runs with a raised RATE_LIMIT_FACTOR), then the page shows it.
import { expect, test } from "@playwright/test";
import { freshPhone, PHONE_VIEWPORT } from "./public-helpers";

test.use({ viewport: PHONE_VIEWPORT });

test("codes asked for one phone too often: the page says how long to wait", async ({ page, request }) => {
  const phone = freshPhone();
  let refused = false;
  for (let i = 0; i < 500 && !refused; i++) {
    const res = await request.post("/api/v1/enquiry/continue", { data: { phone } });
    refused = res.status() === 429;
    if (refused) expect(Number(res.headers()["retry-after"])).toBeGreaterThan(0);
  }
  expect(refused, "the server refused a request within 500").toBe(true);

  await page.goto("/enquiry/continue");
  await page.getByRole("textbox", { name: "Phone" }).fill(phone);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByRole("alert").filter({ hasText: /^Please wait \d+ seconds/ })).toBeVisible();
  // The code step all the same: a code sent before still works.
  await expect(page.getByRole("button", { name: "Open my pre-registration" })).toBeVisible();
});
