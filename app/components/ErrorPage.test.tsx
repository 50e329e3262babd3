// Refusals say why, in the frame of the part of the site they come from.
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ErrorPage } from "./ErrorPage";

const render = (status: number, reason: string | null, path: string) =>
  renderToString(<ErrorPage status={status} reason={reason} path={path} lang="en" />);

describe("ErrorPage", () => {
  it("a refused public form: the reason in the public frame (logo, language switch, footer)", () => {
    const html = render(403, "This form was sent from another site, so it was not accepted.", "/enquiry");
    expect(html).toContain("Not allowed");
    expect(html).toContain("This form was sent from another site");
    expect(html).toContain('class="pub-head"');
    expect(html).toContain('class="lang-switch"');
    expect(html).toContain('class="pub-foot"');
    expect(html).not.toContain("Back Office");
  });

  it("a refused back-office form: the reason in the back-office frame", () => {
    const html = render(403, "This form was sent from another site, so it was not accepted.", "/admin/scheme/create");
    expect(html).toContain('class="sidebar"');
    expect(html).toContain("Thrill Back Office");
    expect(html).toContain("This form was sent from another site");
    expect(html).not.toContain("pub-head");
  });

  it("413, 415 and 429 say why; a crash never shows its details", () => {
    expect(render(413, "The request body is too large.", "/")).toContain("The request body is too large.");
    expect(render(415, "Unsupported content type.", "/")).toContain("Unsupported content type.");
    expect(render(429, "Too many attempts. Try again in 60 seconds.", "/login")).toContain("Too many attempts");
    const crash = render(500, null, "/");
    expect(crash).toContain("Oops!");
    expect(render(404, null, "/nowhere")).toContain("Page not found");
  });
});
