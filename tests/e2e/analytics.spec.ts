// The analytics page, with JavaScript on and off: every chart is an SVG image with its title, beside its
// table; the figures of the seeded history match the database; a range chosen in the form; a date that
// does not read shows its message and the campaign so far; staff without send-sms are turned away.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { kathmanduToday } from "../clock";
import { makeBikeModel } from "./data";
import { isJs, login, readDb, USERS } from "./helpers";

const CHARTS = [
  /^Daily pre-registrations, verifications, registrations and test rides/,
  /^Funnel of the pre-registrations made/,
  /^Prize money paid by thrill/,
  /^Prize money by scheme type against the schemes' allowance/,
  /^Pre-registrations, registrations and test rides by branch/,
  /^Pre-registrations, registrations and test rides by bike model/,
  /^Pre-registrations by source of information/,
  /^Registrations by payment mode/,
];

const TABLES = [
  "Figures by Kathmandu day",
  "Funnel steps and rates",
  "Prize money by thrill",
  "Prize money by scheme type",
  "Figures by branch",
  "Figures by bike model",
  "Pre-registrations by source of information",
  "Registrations by payment mode",
];

/** The UTC bounds of Kathmandu days from..to, by hand (a day starts at 18:15Z the day before). */
function utcBounds(from: string, to: string): [string, string] {
  const at = (date: string, shift: number) => {
    const [y, m, d] = date.split("-").map(Number);
    return new Date(Date.UTC(y, m - 1, d + shift, 18, 15)).toISOString();
  };
  return [at(from, -1), at(to, 0)];
}

const slash = (date: string) => date.replaceAll("-", "/");

/** Opens every chart's folded table ("Show the figures", a native disclosure: with or without JavaScript). */
async function showFigures(page: Page) {
  for (const summary of await page.getByText("Show the figures", { exact: true }).all()) await summary.click();
}

test("head office sees every chart as an SVG image with its title, each with its table", async ({ page }) => {
  await login(page, USERS.admin);
  const res = await page.goto("/admin/analytics");
  expect(res?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: "Analytics", level: 1 })).toBeVisible();
  await expect(page.getByText(/^The campaign so far:/)).toBeVisible();

  const svgs = page.locator("svg[role=img]");
  await expect(svgs).toHaveCount(CHARTS.length);
  for (const name of CHARTS) {
    const chart = page.getByRole("img", { name });
    await expect(chart).toBeVisible();
    await expect(chart.locator("> title")).toHaveText(name);
    const labelledBy = (await chart.getAttribute("aria-labelledby"))!.split(" ");
    expect(labelledBy).toHaveLength(2);
    for (const id of labelledBy) await expect(chart.locator(`#${id}`)).toHaveCount(1);
  }
  // Each table folded under its chart, there when asked for.
  for (const caption of TABLES) await expect(page.getByRole("table", { name: caption })).toBeHidden();
  await showFigures(page);
  for (const caption of TABLES) await expect(page.getByRole("table", { name: caption })).toBeVisible();
  for (const card of ["Pre-Registrations", "Verifications", "Registrations (sales)", "Test Rides", "Prize Money"]) {
    await expect(page.getByRole("region", { name: card }).locator(".pct")).toHaveText(/^([+-]?\d+\.\d{2}%|—)$/);
    // Against a previous period with figures, or said to have none: never "vs previous period (0)".
    await expect(page.getByRole("region", { name: card }).locator(".change small")).toHaveText(
      /^(vs previous period \((?!0\)|Rs\. 0\)).+\)|nothing in the previous period)$/,
    );
  }
  // At 1366 px no chart text is drawn under 12 px (its size in the drawing times the drawing's scale).
  await page.setViewportSize({ width: 1366, height: 768 });
  const small = await svgs.evaluateAll((charts) =>
    charts.flatMap((svg) => {
      const scale = svg.getBoundingClientRect().width / (svg as SVGSVGElement).viewBox.baseVal.width;
      return Array.from(svg.querySelectorAll("text"))
        .map((t) => ({ text: t.textContent ?? "", px: parseFloat(getComputedStyle(t).fontSize) * scale }))
        .filter((t) => t.px < 11.95)
        .map((t) => `${svg.getAttribute("aria-label") ?? svg.id}: "${t.text}" at ${t.px.toFixed(1)} px`);
    }),
  );
  expect(small).toEqual([]);
  // The seeded history draws something: lines with points, bars.
  await expect(page.getByRole("img", { name: CHARTS[0] }).locator("polyline")).toHaveCount(4);
  expect(await page.getByRole("img", { name: CHARTS[4] }).locator("rect").count()).toBeGreaterThan(3);
});

test("a bike model with nothing in the range is folded out of its chart, named in the note, kept in the table", async ({
  page,
}, info) => {
  const quiet = makeBikeModel(`Quiet Model ${info.project.name} ${Date.now().toString(36)}`);
  await login(page, USERS.admin, { to: "/admin/analytics" });
  const chart = page.getByRole("img", { name: CHARTS[5] });
  await expect(chart).toBeVisible();
  await expect(chart.locator("text", { hasText: quiet.title })).toHaveCount(0);
  const section = page.getByRole("region", { name: "By bike model" });
  await expect(section.locator(".chart-note")).toContainText(/Nothing in the range, so not drawn: .+/);
  await expect(section.locator(".chart-note")).toContainText(quiet.title);
  await showFigures(page);
  await expect(
    page.getByRole("table", { name: "Figures by bike model" }).getByRole("row", { name: quiet.title }),
  ).toHaveCount(1);
  // A model with something in the range is drawn.
  const busy = readDb((db) =>
    db
      .prepare(
        "select m.title from bike_models m join preregistrations p on p.bike_model_id = m.id and p.deleted_at is null group by m.id order by count(*) desc limit 1",
      )
      .pluck()
      .get(),
  ) as string;
  await expect(chart.locator("text", { hasText: busy }).first()).toBeVisible();
});

test("the figures of a chosen range match the database; the range is chosen in the form", async ({ page }) => {
  // The seeded history (twenty days before yesterday): other tests only add records for today.
  const from = kathmanduToday(-15);
  const to = kathmanduToday(-2);
  await login(page, USERS.admin);
  await page.goto("/admin/analytics");
  const range = page.getByRole("form", { name: "Date range" });
  await range.getByLabel("From").fill(slash(from));
  await range.getByLabel("To").fill(slash(to));
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(
    new RegExp(`from=${encodeURIComponent(slash(from))}&to=${encodeURIComponent(slash(to))}`),
  );
  await expect(range.getByLabel("From")).toHaveValue(slash(from));
  await expect(page.getByText(`${slash(from)} to ${slash(to)} (14 days, Kathmandu days)`)).toBeVisible();

  const [start, end] = utcBounds(from, to);
  const expected = readDb((db) => {
    const n = (sql: string, ...p: unknown[]) =>
      Number(
        db
          .prepare(sql)
          .pluck()
          .get(...p),
      );
    return {
      pre: n(
        `select count(*) from preregistrations where deleted_at is null and created_at >= ? and created_at < ?`,
        start,
        end,
      ),
      verified: n(
        `select count(*) from preregistrations where deleted_at is null and verified_at >= ? and verified_at < ?`,
        start,
        end,
      ),
      sales: n(
        `select count(*) from registrations where deleted_at is null and created_at >= ? and created_at < ?`,
        start,
        end,
      ),
      rides: n(
        `select count(*) from test_rides where deleted_at is null and created_at >= ? and created_at < ?`,
        start,
        end,
      ),
    };
  });
  expect(expected.pre).toBeGreaterThan(0);
  await showFigures(page);
  const daily = page.getByRole("table", { name: "Figures by Kathmandu day" });
  await expect(daily.locator("tbody tr")).toHaveCount(14);
  await expect(daily.locator("tbody tr").first().locator("th")).toHaveText(slash(from));
  const fmt = (x: number) => x.toLocaleString("en-IN");
  await expect(daily.locator("tfoot tr > *")).toHaveText([
    "Total",
    fmt(expected.pre),
    fmt(expected.verified),
    fmt(expected.sales),
    fmt(expected.rides),
  ]);
  await expect(page.getByRole("region", { name: "Pre-Registrations" }).locator(".value")).toHaveText(fmt(expected.pre));
  await expect(page.getByRole("img", { name: /^Daily pre-registrations/ }).locator("desc")).toContainText(
    `${fmt(expected.pre)} pre-registrations`,
  );
});

test("a date that does not read shows its message and the campaign so far", async ({ page }) => {
  await login(page, USERS.admin);
  const res = await page.goto("/admin/analytics?from=2026/13/40&to=2026-11-01");
  expect(res?.status()).toBe(422);
  await expect(page.locator("#range-from-error")).toHaveText("Enter the date as yyyy/MM/dd.");
  await expect(page.getByRole("form", { name: "Date range" }).getByLabel("From")).toHaveValue("2026/13/40");
  // An old link's yyyy-MM-dd shows as yyyy/MM/dd.
  await expect(page.getByRole("form", { name: "Date range" }).getByLabel("To")).toHaveValue("2026/11/01");
  await expect(page.getByText("The dates could not be read, so the campaign so far is shown.")).toBeVisible();
  await expect(page.getByText(/^The campaign so far:/)).toBeVisible();
  await expect(page.getByRole("form", { name: "Date range" }).getByLabel("From")).toHaveAttribute(
    "aria-invalid",
    "true",
  );
  await expect(page.locator("svg[role=img]")).toHaveCount(CHARTS.length);

  await page.goto("/admin/analytics?from=2026-11-20&to=2026-11-10");
  await expect(page.locator("#range-to-error")).toHaveText("The end date must be on or after the start date.");
  await expect(page.getByText(/^The campaign so far:/)).toBeVisible();
});

test("staff without send-sms are sent to the dashboard", async ({ page }) => {
  await login(page, USERS.staff);
  await page.goto("/admin/analytics");
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.locator(".toast")).toContainText("permission");
});

test("the page has no accessibility violations that axe finds", async ({ page }, info) => {
  test.skip(!isJs(info.project.name), "axe runs as a script in the page; the markup is the same without JavaScript");
  await login(page, USERS.admin);
  await page.goto("/admin/analytics");
  const check = async () => {
    const results = await new AxeBuilder({ page }).include(".analytics").withTags(["wcag2a", "wcag2aa"]).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  };
  await check();
  // And with every folded table open.
  await showFigures(page);
  await check();
});
