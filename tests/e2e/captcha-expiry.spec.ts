// reCAPTCHA resets when its answer expires: a fake widget script, like Google's, calls the function the
// widget names in data-expired-callback; the page's common script answers with grecaptcha.reset().
import { expect, test } from "@playwright/test";
import { isJs } from "./helpers";

test("an expired captcha answer resets the widget", async ({ page }, info) => {
  test.skip(!isJs(info.project.name), "the widget is a script");
  await page.goto("/enquiry");
  const resets = await page.evaluate(() => {
    const w = window as unknown as Record<string, unknown> & { grecaptcha?: { reset: () => void } };
    let count = 0;
    w.grecaptcha = { reset: () => void count++ };
    // The fake widget: the markup the Captcha component renders, expiring once.
    const widget = document.createElement("div");
    widget.className = "g-recaptcha";
    widget.dataset.sitekey = "site-key";
    widget.dataset.expiredCallback = "captchaExpired";
    document.body.append(widget);
    const callback = w[widget.dataset.expiredCallback] as () => void;
    callback();
    return count;
  });
  expect(resets).toBe(1);
});
