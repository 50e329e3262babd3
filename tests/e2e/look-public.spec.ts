// How the public site looks and feels on a phone, with JavaScript on ("js") and off ("nojs"):
// screenshots of the landing, the form with an error and the reveal at 360 px and 1366 px
// (test-results/screenshots/), axe over every public page, 44 x 44 px tap targets and no
// sideways scrolling, and the behaviour behind them (the error summary, the checks before
// the phone confirmation, "Wrong number? Change it", tries left, the draw seen again, the
// thank-you page naming the booking).
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { BASE_TABLE_KEYS, DEFAULT_BASE_TABLES } from "../../app/utils/base-tables";
import { kathmanduToday } from "../clock";
import { ageCodes } from "./data";
import { isJs, login, readDb, USERS } from "./helpers";
import {
  enterCode,
  fillPreregistration,
  lastCode,
  newVisitor,
  saveAndConfirm,
  withRegistrationLock,
} from "./public-helpers";

const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1366, height: 900 };
const shot = (page: Page, name: string, project: string, width: number) =>
  page.screenshot({ path: `test-results/screenshots/${name}-${width}-${project}.png`, fullPage: true });

/** A verified visitor: their entry's slug, after the draw page opened once. */
async function verifiedVisitor(page: Page) {
  const visitor = newVisitor();
  await withRegistrationLock(() => page.goto("/enquiry")); // opened while the campaign is open
  await fillPreregistration(page, visitor);
  const slug = await saveAndConfirm(page, visitor);
  await enterCode(page, lastCode(visitor.phone));
  await expect(page).toHaveURL(new RegExp(`/enquiry/${slug}/draw$`));
  return { visitor, slug };
}

/** Posts the form empty past the browser's own checks: the server's refusal. */
async function serverRefusal(page: Page) {
  // The campaign stays open meanwhile (the closed-state test closes it under the same lock).
  await withRegistrationLock(async () => {
    await page.goto("/enquiry");
    await page.locator("form[data-prereg]").evaluate((f: HTMLFormElement) => (f.noValidate = true));
    await page
      .locator("form[data-prereg]")
      .getByLabel(/^Phone Number/)
      .fill("12345");
    await page.evaluate(() => {
      const form = document.querySelector<HTMLFormElement>("form[data-prereg]")!;
      const intent = document.createElement("input");
      intent.type = "hidden";
      intent.name = "intent";
      intent.value = "review";
      form.appendChild(intent);
      HTMLFormElement.prototype.submit.call(form);
    });
    await expect(page.locator("#form-errors")).toBeVisible();
  });
}

test("screenshots of the landing, the form with an error and the reveal at 360 and 1366 px", async ({ page }, info) => {
  test.setTimeout(120_000);
  const project = info.project.name;
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await withRegistrationLock(async () => {
      await page.goto("/");
      await expect(page.locator(".hero .prize")).toContainText(/Win up to Rs\.\s[\d,]+/);
      await shot(page, "landing", project, viewport.width);
    });
    await serverRefusal(page);
    await shot(page, "form-error", project, viewport.width);
  }
  await page.setViewportSize(PHONE);
  const { slug } = await verifiedVisitor(page);
  if (isJs(project)) await expect(page.locator("[data-draw-reveal]")).toHaveClass(/done/, { timeout: 9_000 });
  else await page.waitForTimeout(6_500);
  await shot(page, "reveal", project, PHONE.width);
  await page.setViewportSize(DESKTOP);
  await page.goto(`/enquiry/${slug}/draw`);
  await shot(page, "reveal", project, DESKTOP.width);
});

test("the landing is a campaign: top prize from the schemes, bikes with sized lazy thumbnails, actions and links", async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  // The most a visitor can win today: the largest public pool with prizes left, or the base table's largest
  // amount when that is larger. Other tests draw prizes meanwhile (a pool can run out between the page and
  // the read), so the page and the database are compared again until they agree.
  await expect(async () => {
    await page.goto("/");
    const top = readDb((db) => {
      const pool = db
        .prepare(
          "select max(amount) as a from allocations where type = 'preregistration_public' and date = ? and paid < count",
        )
        .get(kathmanduToday()) as { a: number | null };
      const stored = db.prepare("select value from settings where key = ?").pluck().get(BASE_TABLE_KEYS.second) as
        string | undefined;
      const base = stored ? (JSON.parse(stored) as { amount: number }[]) : DEFAULT_BASE_TABLES.second;
      return Math.max(pool.a ?? 0, ...base.map((r) => r.amount));
    });
    await expect(page.locator(".hero .prize")).toContainText(`Rs. ${top.toLocaleString("en-IN")}`, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  // The brand: the logo from settings, or the text mark when none is set.
  await expect(page.locator(".pub-head .pub-logo").locator("img[alt]:not([alt='']), .text-mark")).toHaveCount(1);
  await expect(page.locator(".pub-head .pub-logo").locator("img, .text-mark")).toBeVisible();
  await expect(page.locator(".hero").getByRole("link", { name: "Pre-Register" })).toHaveClass(/cta/);
  await expect(page.locator(".hero").getByRole("link", { name: "Book a Ride" })).toBeVisible();
  const bikes = page.locator(".bikes img");
  expect(await bikes.count()).toBeGreaterThan(0);
  for (const img of await bikes.all()) {
    await expect(img).toHaveAttribute("loading", "lazy");
    await expect(img).toHaveAttribute("width", /\d+/);
    await expect(img).toHaveAttribute("height", /\d+/);
    await expect(img).toHaveAttribute("srcset", /^\/files\/\S+ \d+w(, \/files\/\S+ \d+w)*$/);
    await expect(img).toHaveAttribute("sizes", /.+/);
    expect(await img.getAttribute("src")).toMatch(/^\/files\//);
  }
  // Four bikes show and the rest open under "See all" (no script needed), so the information links and the
  // page's end stay near on a phone.
  await page.evaluate(() => window.scrollTo(0, 0));
  const firstLink = (await page.locator(".tiles a").first().boundingBox())!;
  expect(firstLink.y + firstLink.height, "the information links start within the first screen").toBeLessThanOrEqual(
    PHONE.height,
  );
  // Measured with "See all" closed, as a visitor first meets the page.
  const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight);
  expect(pageHeight, "the landing at 360 px is at most three screens tall").toBeLessThanOrEqual(3 * PHONE.height);
  const bikeCount = await page.locator(".bikes li").count();
  await expect(page.locator(".bikes > ul > li")).toHaveCount(Math.min(bikeCount, 4));
  if (bikeCount > 4) {
    const more = page.locator(".bikes details");
    await expect(more.locator("summary")).toHaveText(`See all ${bikeCount} bikes`);
    await expect(more.locator("li").first()).toBeHidden();
    await more.locator("summary").click();
    await expect(more.locator("li")).toHaveCount(bikeCount - 4);
    await expect(more.locator("li").first()).toBeVisible();
  }
  const heights = await page.locator(".tiles a").evaluateAll((as) => as.map((a) => a.getBoundingClientRect().height));
  expect(new Set(heights.map((h) => Math.round(h))).size).toBe(1);
  // The information tiles read as links, not as the page's actions: no action class, not the actions' look, underlined.
  const look = (a: Element) => {
    const style = getComputedStyle(a);
    return {
      text: a.textContent,
      className: `${a.className} ${a.parentElement?.className ?? ""}`,
      look: [style.backgroundColor, style.color, style.textDecorationLine, style.fontWeight].join(" "),
      underline: style.textDecorationLine,
    };
  };
  const action = await page.locator(".hero .cta").first().evaluate(look);
  expect(action.underline).not.toContain("underline");
  for (const link of await page.locator(".tiles a").all()) {
    const tile = await link.evaluate(look);
    expect(tile.className, `${tile.text}`).not.toMatch(/\b(cta|button|primary|wide)\b/);
    expect(tile.look, `${tile.text}`).not.toBe(action.look);
    // The words are underlined, not the "›" after them (a decoration on the link would reach it).
    expect(tile.underline, `${tile.text}`).not.toContain("underline");
    expect(await link.locator("> span").evaluate((el) => getComputedStyle(el).textDecorationLine)).toContain(
      "underline",
    );
  }
});

test("a server refusal: a summary at the top linking to each field, focused (JS) or pointed at by the URL", async ({
  page,
}, info) => {
  await page.setViewportSize(PHONE);
  await serverRefusal(page);
  const summary = page.locator("#form-errors");
  await expect(summary.getByRole("link", { name: "Full Name" })).toHaveAttribute("href", /^#/);
  await expect(summary).toContainText("Full Name: Please enter your full name.");
  await expect(summary).toContainText("Phone Number: Please enter a valid mobile number");
  expect(page.url()).toMatch(/#form-errors$/);
  if (isJs(info.project.name)) await expect(summary).toBeFocused();
  // Every required field shows its star; the screenshot's once "I have shared" is ticked.
  for (const label of ["Full Name", "Address", "Phone Number", "Citizenship No/PAN", "Nearest Showroom"])
    await expect(page.locator("form[data-prereg] label", { hasText: label }).first().locator(".req")).toHaveCount(1);
  const star = page.locator(".screenshot-field .req");
  await page.locator("form[data-prereg]").getByLabel("I have shared").check();
  await expect(star).toBeVisible();
});

test("with JavaScript the phone confirmation opens only once the server's checks pass", async ({ page }, info) => {
  test.skip(!isJs(info.project.name), "the dialog is the script's");
  await page.setViewportSize(PHONE);
  const visitor = newVisitor();
  await page.goto("/enquiry");
  await fillPreregistration(page, { ...visitor, phone: "12345" });
  await page.locator("form[data-prereg]").getByRole("button", { name: "Save" }).click();
  await expect(page.locator("dialog[open][data-confirm]")).toHaveCount(0);
  await expect(page.locator("form[data-prereg] .field-error")).toContainText(
    "Please enter a valid mobile number (10 digits starting with 9).",
  );
  await expect(page.locator("form[data-prereg]").getByLabel(/^Phone Number/)).toBeFocused();
  await page.locator("form[data-prereg]").getByLabel("Full Name").fill("");
  await page
    .locator("form[data-prereg]")
    .getByLabel(/^Phone Number/)
    .fill(visitor.phone);
  await page.locator("form[data-prereg]").getByRole("button", { name: "Save" }).click();
  await expect(page.locator("dialog[open][data-confirm]")).toHaveCount(0);
  await expect(page.locator("form[data-prereg] .field-error")).toHaveText(["Please enter your full name."]);
  await page.locator("form[data-prereg]").getByLabel("Full Name").fill(visitor.name);
  await page.locator("form[data-prereg]").getByRole("button", { name: "Save" }).click();
  await expect(page.locator("dialog[open][data-confirm]")).toBeVisible();
});

test("OTP: tries left after a wrong code, and 'Wrong number? Change it' keeps the values and the one record", async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  const visitor = newVisitor();
  await withRegistrationLock(() => page.goto("/enquiry")); // opened while the campaign is open
  await fillPreregistration(page, visitor);
  const slug = await saveAndConfirm(page, visitor);
  const code = page.getByRole("textbox", { name: "OTP", exact: true });
  await expect(code).toHaveAttribute("autocomplete", "one-time-code");
  await expect(code).toHaveAttribute("inputmode", "numeric");
  expect(parseFloat(await code.evaluate((el) => getComputedStyle(el).fontSize))).toBeGreaterThanOrEqual(28);
  const wrong = lastCode(visitor.phone) === "000000" ? "111111" : "000000";
  await enterCode(page, wrong);
  await expect(page.getByText("Invalid OTP")).toBeVisible();
  await expect(page.getByText("4 tries left with this code.")).toBeVisible();

  // A minute later (the code rules allow one code a minute): the new number gets its code at once.
  ageCodes("preregistration", { phone: visitor.phone }, 120_000);
  await page.getByRole("link", { name: "Wrong number? Change it" }).click();
  const form = page.locator("form[data-prereg]");
  await expect(form.getByLabel("Full Name")).toHaveValue(visitor.name);
  await expect(form.getByLabel("Citizenship No/PAN")).toHaveValue(visitor.citizenship);
  const other = newVisitor().phone;
  await form.getByLabel(/^Phone Number/).fill(other);
  const slugAgain = await saveAndConfirm(page, { ...visitor, phone: other });
  expect(slugAgain).toBe(slug);
  const rows = readDb(
    (db) =>
      db
        .prepare("select count(*) as n from preregistrations where citizenship_no = ? or phone in (?, ?)")
        .get(visitor.citizenship, visitor.phone, other) as { n: number },
  );
  expect(rows.n).toBe(1);
  await enterCode(page, lastCode(visitor.phone));
  await expect(page.getByText("Invalid OTP")).toBeVisible();
  await enterCode(page, lastCode(other));
  await expect(page).toHaveURL(new RegExp(`/enquiry/${slug}/draw$`));
});

test("the reveal leads somewhere, and opening the draw again shows the result without a roll", async ({ page }) => {
  await page.setViewportSize(PHONE);
  const { slug, visitor } = await verifiedVisitor(page);
  await expect(page.locator("[data-draw-reveal]")).not.toHaveClass(/settled/);
  await expect(page.getByRole("heading", { name: "What next" })).toBeVisible();
  // One reference, short and case-free (read aloud at the counter), which also finds the draw on /fair-draws.
  const reference = page.locator(".reference code");
  await expect(reference).toHaveText(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
  expect(await page.locator(".reference").textContent()).not.toContain(slug);
  await expect(page.locator(".reference").getByRole("link")).toHaveAttribute(
    "href",
    `/fair-draws?ref=${await reference.textContent()}`,
  );
  await expect(page.getByRole("link", { name: "Book a test ride" })).toHaveAttribute("href", "/book-a-ride");
  await expect(page.locator("[data-share]")).toBeVisible();
  const close = page.getByRole("link", { name: "Close" }).last();
  const box = (await close.boundingBox())!;
  const text = await close.evaluate((el) => {
    const r = document.createRange();
    r.selectNodeContents(el);
    const b = r.getBoundingClientRect();
    return { x: b.x, width: b.width };
  });
  expect(Math.abs(text.x + text.width / 2 - (box.x + box.width / 2))).toBeLessThan(2);

  await page.goto(`/enquiry/${slug}/draw`);
  await expect(page.locator("[data-draw-reveal]")).toHaveClass(/settled/);
  await expect(page.locator(".draw-result")).toHaveCSS("opacity", "1", { timeout: 1_000 });
  // At the showroom the visitor reads the reference aloud; staff type it as heard and find the entry.
  const heard = (await reference.textContent())!.toLowerCase().replaceAll("-", " ");
  await login(page, USERS.manager, { to: "/admin/preregistration" });
  await page.getByRole("searchbox", { name: "Phone or reference" }).fill(heard);
  await page.getByRole("searchbox", { name: "Phone or reference" }).press("Enter");
  await expect(page.locator("tbody tr")).toHaveCount(1);
  await expect(page.locator("tbody tr")).toContainText(visitor.name);
});

test("the thank-you page names what was booked", async ({ page }) => {
  await page.goto("/thankyou-for-test-ride-booking");
  await expect(page.getByRole("heading", { name: "Thank You for Test Ride Booking." })).toBeVisible();
  await expect(page.getByText("You booked a test ride.")).toBeVisible();
  await page.goto("/thankyou-for-test-ride-booking?type=BOOKING");
  await expect(page.getByRole("heading", { name: "Thank You for Your Booking." })).toBeVisible();
  await expect(page.getByText("You booked a bike to buy.")).toBeVisible();
  await expect(page.locator("body")).not.toContainText(/dashboard/i);
});

test("a missing page keeps the site's frame and the language chosen", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("link", { name: "नेपाली" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "ne");
  const res = await page.goto("/no-such-page");
  expect(res?.status()).toBe(404);
  await expect(page.locator("html")).toHaveAttribute("lang", "ne");
  await expect(page.getByRole("heading", { name: "पृष्ठ भेटिएन" })).toBeVisible();
  await expect(page.locator(".pub-head .pub-logo")).toBeVisible();
  await expect(page.locator(".pub-head .lang-switch [aria-current=true]")).toHaveText("नेपाली");
  await expect(page.locator(".pub-foot")).toBeVisible();
});

test("showrooms are counted in the right number; the winners show the logo once and a play icon on each video", async ({
  page,
}) => {
  const one = readDb(
    (db) =>
      db
        .prepare(
          "select state, district from branches where closed_at is null and deleted_at is null group by state, district having count(*) = 1 limit 1",
        )
        .get() as { state: string; district: string } | undefined,
  );
  await page.goto("/showrooms");
  const all = await page.locator(".room").count();
  expect(all).toBeGreaterThan(1);
  await expect(page.locator(".modal [role=status]")).toHaveText(`${all} showrooms`);
  if (one) {
    await page.goto(`/showrooms?${new URLSearchParams(one)}`);
    await expect(page.locator(".room")).toHaveCount(1);
    await expect(page.locator(".modal [role=status]")).toHaveText("1 showroom");
  }

  await page.goto("/winner-list");
  await expect(page.locator(".pub-logo")).toHaveCount(1);
  const logo = await page.locator(".pub-logo img").getAttribute("src");
  if (logo) await expect(page.locator(`img[src="${logo}"]`)).toHaveCount(1);
  const videos = await page.locator(".videos li").count();
  expect(videos).toBeGreaterThan(0);
  await expect(page.locator(".videos li .thumb.play")).toHaveCount(videos);
  const icons = await page
    .locator(".videos li")
    .evaluateAll((lis) => lis.map((li) => li.querySelectorAll(".play, svg, .icon").length));
  expect(icons).toEqual(Array(videos).fill(1));
  const drawn = await page
    .locator(".videos .thumb.play")
    .evaluateAll((els) => els.map((el) => getComputedStyle(el, "::after").content));
  for (const content of drawn) expect(content).not.toBe("none");
});

/** Every public page, once a verified and an unverified entry exist. */
async function publicPages(page: Page) {
  const { slug: drawSlug } = await verifiedVisitor(page);
  const visitor = newVisitor();
  await page.goto("/enquiry");
  await fillPreregistration(page, visitor);
  const verifySlug = await saveAndConfirm(page, visitor);
  return [
    "/",
    "/enquiry",
    `/enquiry/${verifySlug}/verify`,
    `/enquiry/${drawSlug}/draw`,
    "/enquiry/continue",
    "/showrooms",
    "/scheme",
    "/terms",
    "/privacy-policy",
    "/winner-list",
    "/book-a-ride",
    "/thankyou-for-test-ride-booking",
    "/no-such-page",
  ];
}

test("axe finds no violation on any public page", async ({ page, browser }, info) => {
  test.setTimeout(180_000);
  await page.setViewportSize(PHONE);
  const pages = await publicPages(page);
  if (!isJs(info.project.name)) {
    // axe needs JavaScript: the pages as served without it are scanned in a page whose own scripts are removed.
    const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled: true });
    await context.route("**/*", async (route) => {
      if (route.request().resourceType() !== "document") return route.continue();
      const response = await route.fetch({ maxRedirects: 0 });
      const type = response.headers()["content-type"] ?? "";
      if (!type.includes("text/html")) return route.fulfill({ response });
      const body = (await response.text()).replace(/<script\b[\s\S]*?<\/script>/gi, "");
      return route.fulfill({ response, body });
    });
    page = await context.newPage();
  }
  const found: string[] = [];
  const check = async (label: string) => {
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa"]).analyze();
    for (const v of results.violations)
      found.push(`${label} ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  };
  for (const path of pages) {
    await page.goto(path);
    await page.waitForTimeout(path.includes("/draw") ? 5_600 : 0);
    await check(path);
  }
  await serverRefusal(page);
  await check("/enquiry (refused)");
  expect(found).toEqual([]);
});

test("tap targets are at least 44 x 44 px; no public page scrolls sideways at 360 px, loads a script file or says 'dashboard'", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize(PHONE);
  const pages = await publicPages(page);
  // The public pages ship no JavaScript bundle: their small scripts are inline (decision 10).
  const files: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "script" || /\.m?js(\?|$)/.test(new URL(r.url()).pathname)) files.push(r.url());
  });
  const small: string[] = [];
  for (const path of [...pages, "refused"]) {
    if (path === "refused") await serverRefusal(page);
    else await page.goto(path);
    const shipped = await page.locator("script[src], link[rel=modulepreload]").count();
    if (shipped) small.push(`${path}: ${shipped} script file(s) in the page`);
    if (/dashboard/i.test((await page.locator("body").textContent()) ?? "")) small.push(`${path}: says "dashboard"`);
    const found = await page.evaluate(() => {
      const out: string[] = [];
      const visible = (el: Element) => {
        const r = el.getBoundingClientRect();
        const s = getComputedStyle(el);
        return (
          r.width > 2 &&
          r.height > 2 &&
          s.visibility !== "hidden" &&
          !el.closest("[aria-hidden=true], dialog:not([open])")
        );
      };
      const targets = document.querySelectorAll<HTMLElement>(
        "a[href], button, input, select, textarea, summary, label",
      );
      for (const el of Array.from(targets)) {
        // Links inside running text (the settings' texts) are exempt, as WCAG 2.5.8 allows.
        if (el.closest(".rich")) continue;
        if (el instanceof HTMLInputElement && (el.type === "hidden" || el.type === "checkbox" || el.type === "radio"))
          continue;
        if (el.tagName === "LABEL" && !el.querySelector("input[type=checkbox], input[type=radio]")) continue;
        if (!visible(el)) continue;
        const r = el.getBoundingClientRect();
        if (r.width < 43.5 || r.height < 43.5)
          out.push(
            `${el.tagName.toLowerCase()} "${(el.textContent || el.getAttribute("name") || "").trim().slice(0, 30)}" ${Math.round(r.width)}x${Math.round(r.height)}`,
          );
      }
      const wide =
        document.scrollingElement!.scrollWidth > innerWidth
          ? [`scrolls sideways: ${document.scrollingElement!.scrollWidth}`]
          : [];
      return [...out, ...wide];
    });
    for (const f of found) small.push(`${path}: ${f}`);
  }
  expect(small).toEqual([]);
  expect(files).toEqual([]);
});

/** The lines a block's text takes, as the browser laid it out. */
const textLines = (page: Page, selector: string) =>
  page.locator(selector).evaluate((el) => {
    const lines: { top: number; text: string }[] = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < (node.textContent ?? "").length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const top = Math.round(range.getBoundingClientRect().top);
        const last = lines.at(-1);
        if (last && Math.abs(last.top - top) < 4) last.text += node.textContent![i];
        else lines.push({ top, text: node.textContent![i] });
      }
    }
    return lines.map((l) => l.text);
  });

test("verify: the wait before Resend code is said before the press, in the refusal's words; a long e-mail breaks after its @", async ({
  page,
}, info) => {
  await page.setViewportSize(PHONE);
  const visitor = newVisitor();
  const email = "ram.thapa@ktm.com.np";
  await withRegistrationLock(() => page.goto("/enquiry"));
  await fillPreregistration(page, visitor);
  await page.locator("form[data-prereg]").getByLabel("Email").fill(email);
  await saveAndConfirm(page, visitor);

  // The wait is on the page as it comes, JavaScript or not, before anything is pressed.
  const WAIT = /^Please wait \d+ seconds before asking for a new code\.$/;
  const wait = page.locator("p[data-wait]");
  await expect(wait).toBeVisible();
  await expect(wait).toHaveText(WAIT);
  if (isJs(info.project.name)) {
    await expect(page.getByRole("button", { name: "Resend code" })).toBeDisabled();
  } else {
    // Pressed anyway: the server's refusal says it in the same words.
    await page.getByRole("button", { name: "Resend code" }).click();
    await expect(page.getByText(WAIT).first()).toBeVisible();
  }

  // The visitor's own e-mail, too long for one line at 360 px: two lines, cut after the @, no word split.
  const dd = ".entry-details dd:has-text('@')";
  await expect(page.locator(dd)).toHaveText(email);
  expect(await textLines(page, dd)).toEqual(["ram.thapa@", "ktm.com.np"]);
});

/** What each reel of the reveal shows at rest: the line of its strip its transform stops on ("" past the strip). */
const reels = (page: Page) =>
  page.locator(".draw-cell").evaluateAll((cells) =>
    cells.map((cell) => {
      const strip = cell.querySelector(".draw-strip")!;
      // The computed content: "0\a 1\a 2…" (each line ends in the escaped line feed).
      const lines = getComputedStyle(strip, "::before").content.slice(1, -1).split(/\\a ?/i);
      const offset = -new DOMMatrix(getComputedStyle(strip).transform).m42;
      return lines[Math.round(offset / cell.getBoundingClientRect().height)] ?? "";
    }),
  );

test("the reels read the amount as written, no padding zeros; the Nepali draw page writes every figure in Devanagari", async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  const { slug } = await verifiedVisitor(page);
  const result = page.locator(".draw-result");
  await expect(result).toBeVisible({ timeout: 10_000 });
  // The strips have stopped (by script or by CSS), then read the reels as the eye does.
  await page.waitForFunction(() =>
    [...document.querySelectorAll(".draw-strip")].every((s) =>
      s.getAnimations().every((a) => a.playState !== "running"),
    ),
  );
  const amount = (await page.locator(".draw-amount").textContent())!.replace(/[^0-9]/g, "");
  expect(Number(amount)).toBeGreaterThan(0);
  const shown = await reels(page);
  expect(shown.join(""), `reels ${JSON.stringify(shown)}`).toBe(amount);
  expect(shown.slice(0, 6 - amount.length)).toEqual(Array(6 - amount.length).fill(""));

  // The same draw in Nepali: the reels, the amount, the total and every other figure in one numeral system.
  await page.getByRole("link", { name: "नेपाली" }).click();
  await expect(page).toHaveURL(new RegExp(`/enquiry/${slug}/draw`));
  await expect(page.locator("[data-draw-reveal]")).toHaveClass(/settled/);
  // (The phone and the numbers the visitor typed stay as typed; amounts are the page's own figures.)
  const text = await page.locator("main").innerText();
  const amounts = text.match(/रु\.\s*[0-9०-९][0-9०-९,]*/g) ?? [];
  expect(amounts.length, text).toBeGreaterThanOrEqual(2);
  for (const a of amounts) expect(a, "an amount on the Nepali draw page").toMatch(/^रु\.\s*[०-९][०-९,]*$/);
  const nepali = (await reels(page)).join("");
  expect(nepali).toBe(amount.replace(/[0-9]/g, (d) => "०१२३४५६७८९".charAt(Number(d))));

  // The Nepali landing: its amounts and its count of bikes in the same digits.
  await page.goto("/");
  const landing = await page.locator("main").innerText();
  for (const a of landing.match(/रु\.\s*[0-9०-९][0-9०-९,]*/g) ?? [])
    expect(a, "an amount on the landing").toMatch(/^रु\.\s*[०-९]/);
  const all = page.locator("main summary").filter({ hasText: /[0-9०-९]/ });
  await expect(all.first()).toHaveText(/[०-९]/);
  await expect(all.first()).not.toHaveText(/[0-9]/);
});
