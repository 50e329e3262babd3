/**
 * What visitors, counter staff and head office meet, with JavaScript on ("js") and off ("nojs"):
 * an image refused or made smaller the moment it is chosen, with its limit said before; a branch's
 * places chosen from Nepal's list.
 */
import crypto from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import sharp from "sharp";
import { apiToken, isJs, login, USERS } from "./helpers";
import { PHONE_VIEWPORT } from "./public-helpers";

/** The pre-registration form with "shared" ticked, so the screenshot field shows. */
async function screenshotField(page: Page, lang: "en" | "ne" = "en") {
  await page.setViewportSize(PHONE_VIEWPORT);
  await page.goto("/enquiry");
  if (lang === "ne") await page.getByRole("link", { name: "नेपाली" }).click();
  const form = page.locator("form[data-prereg]");
  await form.locator("input[name=shared]").check();
  return form.locator("input[name=screenshot]");
}

test("the screenshot's limit is said beside the field before a file is picked, in English and Nepali", async ({
  page,
}) => {
  const input = await screenshotField(page);
  await expect(input).toBeVisible();
  await expect(page.locator(`#${await input.getAttribute("id")}-hint`)).toHaveText("JPEG, PNG or WebP, at most 10 MB.");
  await expect(input).toHaveAttribute("aria-describedby", /-hint/);
  const ne = await screenshotField(page, "ne");
  await expect(page.locator(`#${await ne.getAttribute("id")}-hint`)).toHaveText("JPEG, PNG वा WebP, बढीमा १० MB।");
});

test("with JavaScript a chosen file is checked at once: a wrong type or an undecodable file over 10 MB is refused before Save, a decodable one is made smaller", async ({
  page,
}, info) => {
  test.skip(!isJs(info.project.name), "the browser checks a chosen file with JavaScript only");
  test.setTimeout(90_000);
  const input = await screenshotField(page);
  const id = await input.getAttribute("id");
  const error = page.locator(`#${id}-error`);

  // 11.5 MB the browser cannot decode: refused where it was chosen, and taken out of the form.
  await input.setInputFiles({ name: "post.jpg", mimeType: "image/jpeg", buffer: crypto.randomBytes(11_500_000) });
  await expect(error).toHaveText("The image may not be larger than 10 MB.");
  expect(await input.evaluate((el: HTMLInputElement) => el.files?.length ?? 0)).toBe(0);
  await page.locator("form[data-prereg]").getByRole("button", { name: "Save" }).click();
  await expect(page.locator("dialog[open][data-confirm]")).toHaveCount(0);
  await expect(error).toHaveText("The image may not be larger than 10 MB.");

  // Not an image type the site takes.
  await input.setInputFiles({ name: "post.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4") });
  await expect(error).toHaveText("Only JPEG, PNG or WebP images are accepted.");

  // A real photo over 10 MB (noise, so PNG cannot pack it): sent as a smaller JPEG, and the hint says so.
  const png = await sharp(crypto.randomBytes(2000 * 2000 * 3), { raw: { width: 2000, height: 2000, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
  expect(png.length).toBeGreaterThan(10 * 1024 * 1024);
  await input.setInputFiles({ name: "post.png", mimeType: "image/png", buffer: png });
  await expect(page.locator(`#${id}-hint`)).toHaveText(
    "This image is over 10 MB: a smaller copy (at most 720 x 1280) will be sent.",
  );
  await expect(error).toHaveCount(0);
  const sent = await input.evaluate((el: HTMLInputElement) => ({
    name: el.files?.[0]?.name,
    type: el.files?.[0]?.type,
    size: el.files?.[0]?.size ?? 0,
  }));
  expect(sent).toMatchObject({ name: "post.jpg", type: "image/jpeg" });
  expect(sent.size).toBeLessThan(10 * 1024 * 1024);

  // A small image chosen after: the hint reads as before.
  await input.setInputFiles({
    name: "small.png",
    mimeType: "image/png",
    buffer: await sharp({ create: { width: 40, height: 40, channels: 3, background: "#c8102e" } })
      .png()
      .toBuffer(),
  });
  await expect(page.locator(`#${id}-hint`)).toHaveText("JPEG, PNG or WebP, at most 10 MB.");
});

test("a branch's state and district are chosen from Nepal's seven provinces and 77 districts; the server takes nothing else", async ({
  page,
  request,
}, info) => {
  await login(page, USERS.admin);
  await page.goto("/admin/branch/create");
  const state = page.getByLabel("State");
  const district = page.getByLabel("District");
  expect(await state.locator("option").allTextContents()).toEqual([
    "Choose a province",
    "Koshi",
    "Madhesh",
    "Bagmati",
    "Gandaki",
    "Lumbini",
    "Karnali",
    "Sudurpashchim",
  ]);
  await expect(district.locator("option")).toHaveCount(78);
  await expect(district.locator("optgroup")).toHaveCount(7);
  await state.selectOption("Bagmati");
  if (isJs(info.project.name)) {
    // The chosen state's districts only.
    await expect(district.locator("option")).toHaveCount(14);
    await expect(district.locator("option[value=Kaski]")).toHaveCount(0);
  } else {
    // Without JavaScript every district can be chosen: the server refuses one of another state.
    await page.getByLabel("Name").fill(`Lakeside ${crypto.randomBytes(4).toString("hex")}`);
    await district.selectOption("Kaski");
    await page.getByLabel("City").fill("Pokhara");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.locator(`#${await district.getAttribute("id")}-error`)).toHaveText(
      "Choose a district of the chosen state.",
    );
    await expect(page).toHaveURL(/\/admin\/branch\/create$/);
  }

  // Made-up places never become the public site's choices, whatever sends them.
  const token = await apiToken(request, USERS.admin);
  const post = (data: Record<string, string>) =>
    request.post("/api/v1/branch", {
      headers: { Authorization: `Bearer ${token}` },
      data: { title: `Chitwan Riders ${crypto.randomBytes(4).toString("hex")}`, city: "Bharatpur", ...data },
    });
  const made = await post({ state: "Chitwan Riders", district: "Nowhere" });
  expect(made.status()).toBe(422);
  expect((await made.json()).errors).toEqual({
    state: ["Choose one of Nepal's seven provinces."],
    district: ["Choose one of Nepal's 77 districts."],
  });
  const elsewhere = await post({ state: "Koshi", district: "Chitwan" });
  expect(elsewhere.status()).toBe(422);
  expect((await elsewhere.json()).errors).toEqual({ district: ["Choose a district of the chosen state."] });
});

test("analytics: source labels in people's words; the page is questions one can jump between", async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await login(page, USERS.admin, { to: "/admin/analytics" });
  // Less than a scroll of seven screens at 1366 x 768 (5,376 px; it was 7,800 with every table open beside its
  // chart). About 4,800 on the demo data; the charts' rows are capped, so data the other tests add grow it a little.
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  expect(height, "the page's height in px").toBeLessThan(7 * 768);
  // Each question a section under its heading, listed at the top as links to it.
  const toc = page.getByRole("navigation", { name: "Questions on this page" });
  const links = toc.getByRole("link");
  await expect(links).toHaveText(["Overview", "Funnel", "Prizes", "Branches and models", "Sources and payment"]);
  const questions = page.locator("section.analytics-question > h2");
  await expect(questions).toHaveText([
    "How is the campaign going?",
    "How many pre-registrations become sales?",
    "What have the prizes cost?",
    "Which branches and bike models sell?",
    "How did buyers hear of the campaign, and how did they pay?",
  ]);
  for (const link of await links.all()) {
    const target = (await link.getAttribute("href"))!.replace(/^[^#]*/, "");
    await link.click();
    await expect(page).toHaveURL(new RegExp(`/admin/analytics${target}$`));
    await expect(page.locator(target)).toBeInViewport();
    await page.locator(target).getByRole("link", { name: "Back to the questions" }).click();
    await expect(toc).toBeInViewport();
  }
  // The sources as the export says them, never the stored codes (the table is folded under its chart).
  const sources = page.getByRole("table", { name: "Pre-registrations by source of information" });
  await expect(sources).toBeHidden();
  await page
    .locator("section.chart-section", { has: page.getByRole("img", { name: /^Pre-registrations by source/ }) })
    .getByText("Show the figures")
    .click();
  await expect(sources.locator("tbody th").first()).toBeVisible();
  const names = await sources.locator("tbody th").allTextContents();
  expect(names).toContain("Social media");
  for (const name of names) expect(name, name).not.toMatch(/^[A-Z _]{3,}$/);
  const chart = page.getByRole("img", { name: /^Pre-registrations by source of information/ });
  await expect(chart).not.toContainText("SOCIAL MEDIA");
  await expect(chart).toContainText("Social media");
});

test("the small ones: the tiles' › is not underlined, the login's name stays whole on a phone, staff have their landing page in the sidebar, From/To show yyyy/mm/dd whole", async ({
  page,
}) => {
  // The landing tiles: the words underlined, the link itself (and so its "›") not.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto("/");
  for (const tile of await page.locator(".tiles a").all()) {
    expect(await tile.evaluate((a) => getComputedStyle(a).textDecorationLine)).toBe("none");
    expect(await tile.locator("> span").evaluate((s) => getComputedStyle(s).textDecorationLine)).toBe("underline");
    expect(await tile.evaluate((a) => getComputedStyle(a, "::after").content)).toBe('"›"');
  }

  // The login on a phone: the name on its two lines (Thrill Scheme, Back Office), none squeezed.
  await page.goto("/login");
  const name = page.locator(".auth-brand .brand-name");
  const lines = await name.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  });
  expect(lines).toBe(2);
  const card = await page.locator(".auth-brand").evaluate((el) => el.scrollWidth <= el.clientWidth);
  expect(card).toBe(true);

  // Branch staff (no send-sms) land on the dashboard: the sidebar has it, as Home, marked as the page.
  await page.setViewportSize({ width: 1366, height: 768 });
  await login(page, USERS.staff);
  const home = page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Home", exact: true });
  await expect(home).toHaveAttribute("href", "/admin");
  await expect(home).toHaveAttribute("aria-current", "page");

  // The lists' From and To at 1366 px: the placeholder fits inside the input.
  await page.context().clearCookies();
  await login(page, USERS.admin);
  const cut: string[] = [];
  for (const path of ["/admin", "/admin/registration", "/admin/preregistration", "/admin/test-ride", "/admin/audit"]) {
    await page.goto(path);
    for (const input of await page.locator(".filter-date input").all()) {
      const fit = await input.evaluate((el: HTMLInputElement) => {
        const style = getComputedStyle(el);
        const ctx = document.createElement("canvas").getContext("2d")!;
        ctx.font = `${style.fontSize} ${style.fontFamily}`;
        const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return { room, text: ctx.measureText(el.placeholder).width, name: el.name };
      });
      if (fit.text > fit.room) cut.push(`${path} ${fit.name}: ${fit.text} px of text in ${fit.room} px`);
    }
  }
  expect(cut).toEqual([]);
});

test("a prize pool is not saved at 0 in 100 by mistake: the form says what the number means and asks once", async ({
  page,
}, info) => {
  const month = isJs(info.project.name) ? "03" : "04";
  await login(page, USERS.admin);
  await page.goto("/admin/scheme/create");
  await expect(page.getByRole("heading", { name: "Create Scheme" })).toBeVisible();
  const probability = page.getByLabel("Probability (in 100)");
  const id = await probability.getAttribute("id");
  await expect(page.locator(`#${id}-hint`)).toContainText("The chance, out of 100,");
  await page.getByLabel("Date").fill(`2034/${month}/12`);
  await page.getByLabel("Amount").selectOption("4000");
  await probability.fill("0");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.locator(`#${id}-error`)).toHaveText(
    '0 in 100 means no entry ever wins this pool. Enter a chance from 1 to 100, or tick "Never pays" to save it so.',
  );
  await expect(page).toHaveURL(/\/admin\/scheme\/create/);
  await page.getByRole("checkbox", { name: /^Never pays/ }).check();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/admin\/scheme$/);
  await expect(page.locator("main")).toContainText("0 in 100: never pays");
});

test("the coupon sheet says the true count; the pre-registration list and its .xls carry the Reference", async ({
  page,
}) => {
  await login(page, USERS.admin);
  await page.goto("/admin/print?preview=1");
  const head = page.locator("main");
  await expect(head).toContainText(/\d+ registrations? match(es)? the filters/);
  await expect(head).not.toContainText(/newest 1000 of \d+/);

  await page.goto("/admin/preregistration");
  await expect(page.getByRole("columnheader").first()).toHaveText("Reference");
  const reference = (await page.locator(".table-scroll tbody tr").first().locator("td").first().textContent())!.trim();
  expect(reference).toMatch(/^[A-Z0-9-]{4,}$/);
  const href = await page.getByRole("link", { name: "Download" }).getAttribute("href");
  const xls = await page.request.get(href!);
  expect(xls.status()).toBe(200);
  const body = await xls.text();
  expect(body).toContain("Reference");
  expect(body).toContain(reference);
});
