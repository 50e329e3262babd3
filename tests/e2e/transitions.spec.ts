// Page transitions of at most 500 ms that need no script: the stylesheet every page loads opts into
// cross-document view transitions with a 250 ms fade, and turns them off under prefers-reduced-motion.
// The back office's client navigations use the same (NavLink viewTransition).
import { expect, test } from "@playwright/test";

test("pages fade in 250 ms on navigation, and not at all with reduced motion", async ({ page }) => {
  await page.goto("/");
  const css = await page.evaluate(async () => {
    const sheets = Array.from(document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]'));
    const texts = await Promise.all(sheets.map((l) => fetch(l.href).then((r) => r.text())));
    return texts.join("\n");
  });
  const flat = css.replace(/\s+/g, "");
  // Checked as booleans: a failure names the rule, not the whole stylesheet.
  expect(flat.includes("@view-transition{navigation:auto}"), "cross-document transitions").toBe(true);
  const fade = /::view-transition-old\(root\),::view-transition-new\(root\)\{animation-duration:(250ms|\.25s)\}/;
  expect(fade.test(flat), "a 250 ms fade").toBe(true);
  const reduced = /@media\(prefers-reduced-motion:reduce\)\{@view-transition\{navigation:none\}/;
  expect(reduced.test(flat), "none under reduced motion").toBe(true);
  // A page is usable at once: nothing waits for the animation (the landing page's links answer now).
  await page.getByRole("link", { name: "Fair draws" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Fair draws" })).toBeVisible();
});
