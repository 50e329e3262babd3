import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Captcha, CAPTCHA_EXPIRED_CALLBACK } from "./PreregistrationForm";

describe("the captcha widget", () => {
  it("names the common script's reset as its expired callback, and is absent without a site key", () => {
    const html = renderToStaticMarkup(<Captcha siteKey="site-key" lang="en" />);
    expect(html).toContain(`data-expired-callback="${CAPTCHA_EXPIRED_CALLBACK}"`);
    expect(html).toContain('data-sitekey="site-key"');
    expect(renderToStaticMarkup(<Captcha siteKey={null} lang="en" />)).toBe("");
  });
});
