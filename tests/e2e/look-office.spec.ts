/**
 * The back office as staff see it: screenshots at 1366 and 360 px wide, the
 * registration list's toolbar and scrolling table, toasts, the day inputs
 * (yyyy/MM/dd), and axe over every list and form with JavaScript on and off.
 */
import crypto from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { AUDIT_ACTION } from "../../app/utils/labels";
import { PERMISSIONS } from "../../app/utils/permissions";
import { apiRegistration, tokenFor } from "./counter-helpers";
import { makeVideo, removeVideo } from "./data";
import { isJs, lastCode, login, loginThroughForm, readDb, USERS } from "./helpers";

/** A stored audit action ("registration.create", "auth.login_failed"): the trail's areas, then a dot. */
const ACTION_CODE = new RegExp(
  `\\b(${[...new Set(Object.keys(AUDIT_ACTION).map((a) => a.split(".")[0]))].join("|")})\\.[a-z_]+\\b`,
);
/** A permission's name ("read-user", "manage-allocation"). */
const PERMISSION_CODE = new RegExp(`\\b(${PERMISSIONS.join("|")})\\b`);

type Slugs = {
  prereg: string;
  unverified: string;
  verifiedOpen: string;
  registration: string;
  /** A registration waiting for the customer's code (its verify screen), and one whose coupon is not drawn yet (its draw screen). */
  pending: string;
  confirmed: string;
  branch: string;
  bikeModel: string;
  user: string;
  video: string;
  allocation: number;
  broadcast: number;
  testRide: string;
  flag: number;
};

/** Records of the demo seed to open, read from the test server's database. */
function slugs(): Slugs {
  return readDb((db) => {
    const one = <T>(sql: string) => (db.prepare(sql).pluck().get() as T) ?? (null as T);
    const registration = (status: string) =>
      one<string>(
        // The seed's own (the lowest ids): no other test draws or confirms them.
        `select slug from registrations where deleted_at is null and status = '${status}' order by id limit 1`,
      );
    return {
      prereg: one<string>(
        "select slug from preregistrations where deleted_at is null and branch_id = 1 order by id limit 1",
      ),
      unverified: one<string>(
        "select slug from preregistrations where deleted_at is null and status = 'unverified' and branch_id = 1 order by id limit 1",
      ),
      verifiedOpen: one<string>(
        "select slug from preregistrations where deleted_at is null and status = 'verified' and branch_id = 1 order by id limit 1",
      ),
      registration: one<string>(
        "select slug from registrations where deleted_at is null and status = 'drawn' and branch_id = 1 order by id limit 1",
      ),
      pending: registration("pending"),
      confirmed: registration("confirmed"),
      branch: one<string>("select slug from branches order by id limit 1"),
      bikeModel: one<string>("select slug from bike_models order by id limit 1"),
      user: one<string>(`select slug from users where email = '${USERS.manager}'`),
      video: one<string>("select slug from videos where deleted_at is null order by id limit 1"),
      allocation: one<number>("select id from allocations order by id limit 1"),
      broadcast: one<number>("select id from sms_broadcasts order by id limit 1"),
      testRide: one<string>("select slug from test_rides where deleted_at is null order by id limit 1"),
      flag: one<number>("select id from integrity_flags order by id limit 1"),
    };
  });
}

/** Who opens a screen: a demo login, or a visitor (the login and password-reset screens). */
type Viewer = keyof typeof USERS | "visitor";

/** Every back-office list and form, as head office (admin), a branch manager or a visitor sees it (paths from the seed's records). */
const SCREENS: { path: (s: Slugs) => string; as: Viewer }[] = [
  { path: () => "/admin", as: "admin" },
  { path: () => "/admin/preregistration", as: "admin" },
  { path: () => "/admin/preregistration/create", as: "admin" },
  { path: (s) => `/admin/preregistration/${s.prereg}`, as: "admin" },
  { path: (s) => `/admin/preregistration/${s.unverified}/edit`, as: "admin" },
  { path: (s) => `/admin/preregistration/${s.unverified}/verify`, as: "manager" },
  { path: () => "/admin/registration", as: "admin" },
  { path: (s) => `/admin/registration/create/${s.verifiedOpen}`, as: "manager" },
  { path: (s) => `/admin/registration/${s.registration}`, as: "admin" },
  { path: (s) => `/admin/registration/${s.registration}/edit`, as: "admin" },
  { path: (s) => `/admin/registration/${s.pending}/verify`, as: "admin" },
  { path: (s) => `/admin/registration/${s.confirmed}/draw`, as: "admin" },
  { path: (s) => `/admin/registration/${s.registration}/draw`, as: "admin" },
  { path: () => "/admin/registration/deleted", as: "admin" },
  { path: () => "/admin/print?preview=1", as: "admin" },
  { path: () => "/admin/test-ride", as: "admin" },
  { path: (s) => `/admin/test-ride/${s.testRide}`, as: "admin" },
  { path: () => "/admin/branch", as: "admin" },
  { path: () => "/admin/branch/create", as: "admin" },
  { path: (s) => `/admin/branch/${s.branch}`, as: "admin" },
  { path: (s) => `/admin/branch/${s.branch}/edit`, as: "admin" },
  { path: () => "/admin/bike-model", as: "admin" },
  { path: () => "/admin/bike-model/create", as: "admin" },
  { path: (s) => `/admin/bike-model/${s.bikeModel}`, as: "admin" },
  { path: (s) => `/admin/bike-model/${s.bikeModel}/edit`, as: "admin" },
  { path: () => "/admin/user", as: "admin" },
  { path: () => "/admin/user/create", as: "admin" },
  { path: (s) => `/admin/user/${s.user}`, as: "admin" },
  { path: (s) => `/admin/user/${s.user}/edit`, as: "admin" },
  { path: () => "/admin/role", as: "admin" },
  { path: () => "/admin/video", as: "admin" },
  { path: () => "/admin/video/create", as: "admin" },
  { path: (s) => `/admin/video/${s.video}`, as: "admin" },
  { path: (s) => `/admin/video/${s.video}/edit`, as: "admin" },
  { path: () => "/admin/scheme", as: "admin" },
  { path: () => "/admin/scheme/create", as: "admin" },
  { path: (s) => `/admin/scheme/${s.allocation}`, as: "admin" },
  { path: () => "/admin/scheme/draws", as: "admin" },
  { path: () => "/admin/scheme/settings", as: "admin" },
  { path: () => "/admin/settings", as: "admin" },
  { path: () => "/admin/sms", as: "admin" },
  { path: (s) => `/admin/sms/${s.broadcast}`, as: "admin" },
  { path: () => "/admin/referrer", as: "admin" },
  { path: () => "/admin/preregistration/grants", as: "admin" },
  { path: () => "/admin/audit", as: "admin" },
  { path: () => "/admin/outbox", as: "admin" },
  { path: () => "/admin/analytics", as: "admin" },
  { path: () => "/admin/integrity", as: "admin" },
  { path: (s) => `/admin/integrity/${s.flag}`, as: "admin" },
  { path: () => "/admin/profile", as: "admin" },
  { path: () => "/login", as: "visitor" },
  { path: () => "/reset-password", as: "visitor" },
  { path: () => `/reset-password?step=code&email=${encodeURIComponent(USERS.admin)}`, as: "visitor" },
];

/** Screens per test: each test has a time budget of its own, so a slow machine does not run one long test out of time. */
const PER_TEST = 5;

/** axe's WCAG A and AA violations (2.2's target size too) and its best practices (a heading one, named table headers…) on the page as it stands. */
async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
    .analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/**
 * Where axe reads a screen. With JavaScript on: the page itself. Without: axe's run never
 * finishes in a page whose scripts are disabled (Playwright's evaluate starts it, but its
 * timers never fire), so the screens as served without JavaScript are read in a page of a
 * context with scripts on, the same cookies, and every <script> taken out of each document
 * (as tests/e2e/look-public.spec.ts does for the public pages).
 */
async function axePage(page: Page, browser: Browser, js: boolean): Promise<Page> {
  if (js) return page;
  const context = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    javaScriptEnabled: true,
    viewport: page.viewportSize(),
  });
  await context.addCookies(await page.context().cookies());
  await context.route("**/*", async (route) => {
    if (route.request().resourceType() !== "document") return route.continue();
    const response = await route.fetch({ maxRedirects: 0 });
    if (!(response.headers()["content-type"] ?? "").includes("text/html")) return route.fulfill({ response });
    const body = (await response.text()).replace(/<script\b[\s\S]*?<\/script>/gi, "");
    return route.fulfill({ response, body });
  });
  return context.newPage();
}

test.describe("axe over every back-office list and form, JavaScript on and off", () => {
  for (const who of ["admin", "manager", "visitor"] as const) {
    const mine = SCREENS.filter((x) => x.as === who);
    for (let first = 0; first < mine.length; first += PER_TEST) {
      const group = mine.slice(first, first + PER_TEST);
      test(`no violations as ${who}, screens ${first + 1}-${first + group.length}`, async ({ page, browser }, info) => {
        // axe reads every node of a large back-office page: seconds each on a busy machine.
        test.slow();
        const s = slugs();
        await page.setViewportSize({ width: 1366, height: 768 });
        if (who !== "visitor") await login(page, USERS[who]);
        const probe = await axePage(page, browser, isJs(info.project.name));
        const found: string[] = [];
        for (const path of group.map((x) => x.path(s))) {
          const res = await probe.goto(path);
          if ((res?.status() ?? 500) >= 400 || new URL(probe.url()).pathname !== path.split("?")[0]) {
            found.push(`${path} answered ${res?.status()} at ${probe.url()}`);
            continue;
          }
          for (const v of await axeViolations(probe)) found.push(`${path} ${v}`);
        }
        if (probe !== page) await probe.context().close();
        expect(found).toEqual([]);
      });
    }
  }
});

test.describe("screenshots", () => {
  for (const width of [1366, 360]) {
    test(`registration list, details, dashboard and login at ${width} px`, async ({ page }, info) => {
      const project = info.project.name;
      const s = slugs();
      await page.setViewportSize({ width, height: 768 });
      // With JavaScript: test-results/screenshots/<screen>-<width>.png; without: <screen>-<width>-nojs.png.
      const shot = (name: string) =>
        page.screenshot({
          path: `test-results/screenshots/${name}-${width}${isJs(project) ? "" : `-${project}`}.png`,
          fullPage: true,
        });
      await page.goto("/login");
      await shot("login");
      await login(page, USERS.admin);
      await page.goto("/admin/registration");
      await expect(page.locator(".table-scroll tbody tr").first()).toBeVisible();
      await shot("registration-list");
      if (!isJs(project)) return;
      await page.goto("/admin");
      await shot("dashboard");
      await page.goto(`/admin/registration/${s.registration}`);
      await shot("registration-details");
      await page.goto("/admin/print?preview=1");
      await shot("print");
    });
  }
});

test("the audit trail and the role matrix show labels, never an action or permission code", async ({ page }) => {
  // Signed in through the form, so this test has a sign-in of its own in the trail.
  await loginThroughForm(page, USERS.admin);
  /** The page's text (options and accessible names included), e-mail and web addresses taken out. */
  const shown = async () => {
    const text = await page
      .locator("main")
      .evaluate((main) =>
        [
          main.textContent ?? "",
          ...Array.from(main.querySelectorAll("[aria-label], [title]"), (el) =>
            [el.getAttribute("aria-label"), el.getAttribute("title")].join(" "),
          ),
        ].join(" "),
      );
    return text.replace(/\S+@\S+|https?:\/\/\S+/g, " ");
  };
  await page.goto("/admin/audit");
  await expect(page.locator("main tbody tr").first()).toBeVisible();
  const audit = await shown();
  expect(audit).not.toMatch(ACTION_CODE);
  for (const code of Object.keys(AUDIT_ACTION)) expect(audit).not.toContain(code);
  // Sign-ins, read as words (other tests' rows may fill the unfiltered first page).
  await page.goto("/admin/audit?action=auth.login");
  await expect(page.locator("main tbody tr").first()).toBeVisible();
  const logins = await shown();
  expect(logins).toContain("Logged in");
  expect(logins).not.toContain("auth.login");
  // The record by name, linked: the admin's own user page, not its reference.
  const record = page.locator('main tbody td[data-label="Record"] a', { hasText: "(admin@demo.test)" }).first();
  await expect(record).toHaveText(/^User: .+ \(admin@demo\.test\)$/);
  await expect(record).toHaveAttribute("href", /^\/admin\/user\/[\w-]+$/);
  await page.goto("/admin/role");
  const roles = await shown();
  expect(roles).toContain("View users");
  expect(roles).not.toMatch(PERMISSION_CODE);
});

test("the audit trail: a change of several fields opens from the names of the fields", async ({ page }, info) => {
  const title = `Audit Video ${info.project.name} ${Date.now().toString(36)}`;
  const video = makeVideo({ title, url: "https://www.example.com/watch?v=audit", amount: 50000 });
  try {
    await login(page, USERS.admin, { to: "/admin/audit?entity_type=video" });
    const row = page.locator("main tbody tr", { hasText: title });
    await expect(row).toHaveCount(1);
    const changes = row.locator("details.audit-changes");
    await expect(changes.locator("summary")).toHaveText(/^\d+ changes: Title, /);
    const line = changes.locator("li", { hasText: `Title: ${title}` });
    await expect(line).toBeHidden();
    await changes.locator("summary").click();
    await expect(line).toBeVisible();
    expect(await changes.locator("li").count()).toBeGreaterThan(1);
  } finally {
    removeVideo(video.slug);
  }
});

test("the print sheet: each coupon carries the logo; a coupon not drawn yet is left out and listed, not printed", async ({
  page,
}) => {
  const s = slugs();
  const code = (slug: string) =>
    readDb((db) => db.prepare("select coupon_code from registrations where slug = ?").pluck().get(slug) as string);
  await login(page, USERS.admin);
  // The demo seed sets a logo: every coupon, customer and dealer copy, carries it.
  await page.goto("/admin/print?preview=1");
  const coupons = page.locator(".print-page .coupon");
  const printed = await coupons.count();
  expect(printed).toBeGreaterThan(0);
  await expect(coupons.locator("img.coupon-logo")).toHaveCount(printed);
  const logos = await coupons.locator("img.coupon-logo").evaluateAll((imgs) => imgs.map((i) => i.getAttribute("src")));
  expect(new Set(logos).size).toBe(1);
  expect(logos[0]).toMatch(/^\/files\//);

  await page.goto(`/admin/print?preview=1&slug=${s.registration}`);
  await expect(coupons).toHaveCount(2);
  await expect(coupons.locator(".code")).toHaveText([code(s.registration), code(s.registration)]);
  await expect(page.locator(".print-pending")).toHaveCount(0);

  for (const slug of [s.confirmed, s.pending]) {
    await page.goto(`/admin/print?preview=1&slug=${slug}`);
    await expect(coupons).toHaveCount(0);
    const left = page.getByRole("region", { name: "Left out: coupon not drawn yet" });
    await expect(left).toContainText("1 registration is left out: the coupon is not drawn yet.");
    await expect(left.locator(`a[href="/admin/registration/${slug}"]`)).toHaveCount(1);
    await expect(page.locator("body")).not.toContainText(code(slug));
  }
});

test("no back-office list clips its columns at 1366 px: long text wraps in its cell", async ({ page, request }) => {
  // A purchase as long as real ones come (a long name, 17-character chassis numbers), newest in the lists.
  const hex = () => crypto.randomBytes(4).toString("hex").toUpperCase();
  const letters = Array.from(crypto.randomBytes(6), (b) => String.fromCharCode(97 + (b % 26))).join("");
  const NAME = `Bishnu Prasad Shrestha ${letters}`;
  await apiRegistration(request, await tokenFor(request, USERS.staff), {
    name: NAME,
    bill_no: `BL-2083-${hex()}`,
    engine_no: `HA10EJ9A${hex()}`,
    chasis_no: `MBLHA10EJ${hex()}`,
  });
  await page.setViewportSize({ width: 1366, height: 768 });
  await login(page, USERS.admin);
  const clipped: string[] = [];
  for (const path of [
    // The purchases lists narrowed to this test's purchase: other tests add odd ones on purpose (a formula as a name).
    `/admin?search=${encodeURIComponent(NAME)}`,
    `/admin/registration?search=${encodeURIComponent(NAME)}`,
    "/admin/registration/deleted",
    "/admin/preregistration",
    "/admin/test-ride",
    "/admin/referrer",
    "/admin/branch",
    "/admin/bike-model",
    "/admin/video",
    "/admin/user",
    "/admin/scheme",
    "/admin/scheme/draws",
    "/admin/sms",
    "/admin/outbox",
    "/admin/audit",
  ]) {
    await page.goto(path);
    await expect(page.locator(".table-scroll").first()).toBeVisible();
    if (path.includes("search=")) await expect(page.locator(".table-scroll tbody tr")).toHaveCount(1);
    for (const size of await page
      .locator(".table-scroll")
      .evaluateAll((els) => els.map((el) => ({ scroll: el.scrollWidth, client: el.clientWidth })))) {
      if (size.scroll > size.client + 1) clipped.push(`${path}: ${size.scroll} px of table in ${size.client} px`);
    }
  }
  expect(clipped).toEqual([]);
});

test("the registration list's toolbar keeps one line and its table shows that it scrolls", async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await login(page, USERS.admin);
  await page.goto("/admin/registration");
  // Search, Filter, Download and Print share one line.
  const bar = page.locator(".table-bar");
  const items = bar.locator(":scope > label, :scope > button, .table-actions > *");
  const tops = await items.evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().bottom)));
  expect(tops.length).toBeGreaterThanOrEqual(4);
  expect(new Set(tops).size, `bottoms ${tops.join(", ")}`).toBe(1);
  // The key columns fit at 1366 px: Name to Status and the total prize are in view without scrolling.
  const scroller = page.locator(".table-scroll");
  const box = (await scroller.boundingBox())!;
  for (const header of ["Name", "Phone", "Bill No", "Model", "Payment Mode", "Branch", "Status", "Total Prize"]) {
    const th = (await page.getByRole("columnheader", { name: header, exact: true }).boundingBox())!;
    expect(th.x + th.width, `${header} in view`).toBeLessThanOrEqual(box.x + box.width + 1);
  }
  // The table is a focusable region whose edges are shaded and whose first column stays put.
  await expect(scroller).toHaveAttribute("tabindex", "0");
  const style = await scroller.evaluate((el) => getComputedStyle(el).backgroundImage);
  expect(style).toContain("gradient");
  const sticky = await page
    .locator(".table-scroll th")
    .first()
    .evaluate((el) => getComputedStyle(el).position);
  expect(sticky).toBe("sticky");
  // Narrow: the table scrolls and says so.
  await page.setViewportSize({ width: 360, height: 740 });
  const overflow = await scroller.evaluate((el) => el.scrollWidth > el.clientWidth);
  expect(overflow).toBe(true);
});

test("every day input reads yyyy/MM/dd: its placeholder, its value after a filter, a bad date's message under it", async ({
  page,
}) => {
  const DAY_MESSAGE = "Enter the date as yyyy/MM/dd.";
  const DAY = /^\d{4}\/\d{2}\/\d{2}$/;
  await login(page, USERS.admin);
  // A text input, not the browser's date input (which shows the browser's locale, mm/dd/yyyy).
  const dayInputs: [string, string[]][] = [
    ["/admin/registration", ["from", "to"]],
    ["/admin/audit", ["from", "to"]],
    ["/admin/scheme", ["date", "preview_date"]],
    ["/admin/scheme/create", ["date"]],
    ["/admin/scheme/draws", ["from", "to"]],
    ["/admin/analytics", ["from", "to"]],
    ["/admin/referrer", ["from", "to"]],
  ];
  for (const [path, names] of dayInputs) {
    await page.goto(path);
    for (const name of names) {
      const input = page.locator(`form input[name="${name}"]`);
      await expect(input, `${path} ${name}`).toHaveAttribute("type", "text");
      await expect(input, `${path} ${name}`).toHaveAttribute("placeholder", "yyyy/mm/dd");
      await expect(input, `${path} ${name}`).toHaveAttribute("inputmode", "numeric");
    }
  }
  // Days a page fills in itself read yyyy/MM/dd too.
  await page.goto("/admin/scheme/create");
  await expect(page.getByLabel("Date", { exact: true })).toHaveValue(DAY);
  await page.goto("/admin/analytics");
  await expect(page.getByRole("form", { name: "Date range" }).getByLabel("From")).toHaveValue(DAY);
  await page.goto("/admin/scheme");
  await expect(page.locator(".scheme-preview").getByLabel("Date")).toHaveValue(DAY);

  // A filter typed yyyy/MM/dd keeps its value as typed; an old link's yyyy-MM-dd shows as yyyy/MM/dd.
  await page.goto("/admin/audit");
  await page.getByLabel("From", { exact: true }).fill("2026/01/05");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/from=2026%2F01%2F05/);
  await expect(page.getByLabel("From", { exact: true })).toHaveValue("2026/01/05");
  await expect(page.locator("#filter-from-error")).toHaveCount(0);
  await page.goto("/admin/scheme/draws?from=2032-01-14");
  await expect(page.getByLabel("From", { exact: true })).toHaveValue("2032/01/14");

  // A day that does not read: its message under its field.
  await page.goto("/admin/audit");
  await page.getByLabel("To", { exact: true }).fill("2026/02/30");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.locator("#filter-to-error")).toHaveText(DAY_MESSAGE);
  await expect(page.getByLabel("To", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("To", { exact: true })).toHaveValue("2026/02/30");

  await page.goto("/admin/scheme/draws");
  await page.getByLabel("From", { exact: true }).fill("2032/13/01");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.locator("#filter-from-error")).toHaveText(DAY_MESSAGE);

  await page.goto("/admin/scheme");
  await page.getByLabel("Date", { exact: true }).first().fill("2032/02/30");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.locator("#filter-date-error")).toHaveText(DAY_MESSAGE);
  const preview = page.locator(".scheme-preview");
  await preview.getByLabel("Date").fill("2032/04/31");
  await preview.getByRole("button", { name: "Preview" }).click();
  await expect(preview.locator("#preview-date-error")).toHaveText(DAY_MESSAGE);
  await expect(preview.getByLabel("Date")).toHaveValue("2032/04/31");

  await page.goto("/admin/scheme/create");
  await page.getByLabel("Date", { exact: true }).fill("2032/02/30");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(
    page.locator(".field", { has: page.getByLabel("Date", { exact: true }) }).locator(".field-error"),
  ).toHaveText(DAY_MESSAGE);
  await expect(page).toHaveURL(/\/admin\/scheme\/create/);
});

test("a forbidden screen is said in a toast that can be dismissed and covers no action", async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await login(page, USERS.staff);
  await page.goto("/admin/scheme");
  await expect(page).toHaveURL(/\/admin$/);
  const toast = page.locator(".toast");
  await expect(toast).toContainText("You do not have permission to open Schemes.");
  const t = (await toast.boundingBox())!;
  for (const el of await page.locator(".admin-content a, .admin-content button, .topbar a, .topbar button").all()) {
    if (!(await el.isVisible())) continue;
    if ((await el.evaluate((e) => e.closest(".toast") !== null)) === true) continue;
    const b = (await el.boundingBox())!;
    const overlaps = b.x < t.x + t.width && b.x + b.width > t.x && b.y < t.y + t.height && b.y + b.height > t.y;
    expect(overlaps, `toast covers ${await el.textContent()}`).toBe(false);
  }
  await toast.locator("summary").click();
  await expect(toast).toBeHidden();
});

/** A purchase of its own, confirmed with the customer's code and not drawn yet (no other test's records). */
async function confirmedPurchase(request: APIRequestContext) {
  const token = await tokenFor(request, USERS.staff);
  const reg = await apiRegistration(request, token);
  const confirmed = await request.post(`/api/v1/registration/${reg.slug}/verify`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { code: lastCode(reg.phone, "purchase-code") },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  return reg;
}

test("'Coupon drawn' is said once the reveal has finished", async ({ page, request }, info) => {
  test.skip(
    !isJs(info.project.name),
    "the reveal's end is watched with JavaScript; without it CSS holds the toast 5 s",
  );
  const reg = await confirmedPurchase(request);
  const slug = reg.slug;
  await login(page, USERS.staff);
  await page.goto(`/admin/registration/${slug}/draw`);
  await page.getByRole("button", { name: "Draw the Coupon" }).click();
  await expect(page.locator(".draw-reveal.flicker")).toBeAttached();
  await expect(page.locator(".toast")).toBeHidden();
  await expect(page.locator(".draw-reveal.done")).toBeAttached({ timeout: 8_000 });
  await expect(page.locator(".toast")).toContainText("Coupon drawn.");
  await expect(page.locator(".toast")).toBeVisible();
});

test("the coupon's prize breakdown waits for the reveal, and nothing moves the digits when it ends", async ({
  page,
  request,
}) => {
  const reg = await confirmedPurchase(request);
  await login(page, USERS.staff);
  await page.goto(`/admin/registration/${reg.slug}/draw`);
  await page.getByRole("button", { name: "Draw the Coupon" }).click();
  const breakdown = page.getByRole("region", { name: "Prize breakdown" });
  const cells = page.locator(".draw-cells");
  // While the digits roll (5 s, by script or by CSS alone) the breakdown, which names the amount, is hidden.
  await expect(cells).toBeVisible();
  await expect(breakdown).toBeHidden();
  await expect(page.locator(".draw-result")).toBeHidden();
  const rolling = (await cells.boundingBox())!;
  await expect(breakdown).toBeVisible({ timeout: 10_000 });
  await expect(breakdown).toContainText("Total");
  await expect(page.locator(".draw-result")).toBeVisible();
  await expect(page.locator(".toast")).toContainText("Coupon drawn.");
  const settled = (await cells.boundingBox())!;
  expect(Math.abs(settled.y - rolling.y), "the digits did not move when the reveal ended").toBeLessThan(1);
});

test("sign-in on a phone: both fields marked required, and a Remember Me box a thumb can hit", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto("/login");
  for (const name of ["Email", "Password"]) {
    await expect(page.locator(`label:has-text("${name}") .req`)).toHaveText("*");
  }
  const box = (await page.getByRole("checkbox", { name: "Remember Me" }).boundingBox())!;
  expect(box.width).toBeGreaterThanOrEqual(20);
  expect(box.height).toBeGreaterThanOrEqual(20);
});

test("words, not codes: the counter form's sources are labels; the user menu names the role and the branch, never 'Head Office' twice", async ({
  page,
  request,
}) => {
  // A scheme of its own, on a day of its own, that can still be deleted.
  const day = `2031-${String(1 + Math.floor(Math.random() * 12)).padStart(2, "0")}-${String(1 + Math.floor(Math.random() * 28)).padStart(2, "0")}`;
  const token = await tokenFor(request, USERS.admin);
  const made = await request.post("/api/v1/allocation", {
    headers: { Authorization: `Bearer ${token}` },
    data: { type: "preregistration_public", date: day, amount: 4000, count: 1, probability: 0 },
  });
  expect(made.status()).toBe(201);
  await login(page, USERS.admin, { to: "/admin/preregistration/create" });
  const sources = await page.getByLabel("Source of information").locator("option").allTextContents();
  expect(sources).toContain("Social media");
  expect(sources.filter((s) => /^[A-Z ]{4,}$/.test(s.trim()))).toEqual([]);
  await expect(page.locator(".user-menu summary small")).toHaveText("Super Admin · All branches");
  // A Delete on every scheme row is outlined, not a solid red block.
  await page.goto(`/admin/scheme?date=${day}`);
  const remove = page.locator("summary", { hasText: "Delete" }).first();
  await expect(remove).toBeVisible();
  expect(await remove.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe("rgb(255, 255, 255)");
  await page.context().clearCookies();
  await login(page, USERS.staff);
  await expect(page.locator(".user-menu summary small")).toHaveText("Branch Staff · Lalitpur Motors");
});
