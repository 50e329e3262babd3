// Page transitions as the spec asks (500 ms) that need no script: the stylesheet every page loads opts into
// cross-document view transitions with a 500 ms fade, and turns them off under prefers-reduced-motion; the
// back office's client navigations use the same (NavLink viewTransition). No navigation logs an error.
import { expect, test, type Page } from "@playwright/test";
import { isJs, login, USERS } from "./helpers";

/** Records, on every page the browser reveals, whether a view transition runs and how long its animations last. */
async function watchReveals(page: Page) {
  await page.addInitScript(() => {
    const seen: { path: string; transition: boolean; durations: number[] }[] = [];
    (window as unknown as { reveals: typeof seen }).reveals = seen;
    addEventListener("pagereveal", (e) => {
      const vt = (e as Event & { viewTransition: ViewTransition | null }).viewTransition;
      const entry = { path: location.pathname, transition: !!vt, durations: [] as number[] };
      seen.push(entry);
      sessionStorage.setItem("reveals", JSON.stringify(seen));
      vt?.ready
        .then(() => {
          entry.durations = document.getAnimations().map((a) => Number(a.effect?.getTiming().duration));
          sessionStorage.setItem("reveals", JSON.stringify([entry]));
        })
        .catch(() => {});
    });
  });
}

const lastReveal = (page: Page) =>
  page.evaluate(() => JSON.parse(sessionStorage.getItem("reveals") ?? "[]").at(-1) ?? null);

test("a page fades in 500 ms when reached by a link, and not at all with reduced motion", async ({ page }, info) => {
  test.skip(!isJs(info.project.name), "the reveal is watched by a script; the pages themselves need none");
  await watchReveals(page);
  await page.goto("/");
  await page.getByRole("link", { name: "Fair draws" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Fair draws" })).toBeVisible();
  await expect.poll(() => lastReveal(page)).toMatchObject({ path: "/fair-draws", transition: true });
  await expect.poll(async () => (await lastReveal(page)).durations).toContain(500);

  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/");
  await page.getByRole("link", { name: "Fair draws" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Fair draws" })).toBeVisible();
  await expect.poll(() => lastReveal(page)).toMatchObject({ path: "/fair-draws", transition: false });
});

test("navigating the public site and the back office logs no error (no aborted view transition)", async ({ page }) => {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" || /transition/i.test(m.text())) errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto("/");
  await page.getByRole("link", { name: "Fair draws" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Fair draws" })).toBeVisible();
  await page.goBack();
  await page.getByRole("link", { name: "Winners" }).first().click();
  await page.waitForLoadState("load");
  await login(page, USERS.admin);
  const nav = page.getByRole("navigation", { name: "Back office" });
  for (const name of ["Analytics", "Branches", "Dashboard"]) {
    await nav.getByRole("link", { name, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await page.waitForTimeout(600); // the fade's whole length
  }
  expect(errors).toEqual([]);
});
