// A stranger must not reach another person's entry, with JavaScript on ("js") and off ("nojs"): the
// form's messages for a taken phone or a pending purchase carry no slug (page, body, headers); the
// owner of a taken phone gets back in with a code sent to that phone; the verify and draw pages show
// the entry's details only to the browser that created or proved it.
import { expect, test, type APIRequestContext, type Page, type Response } from "@playwright/test";
import { port, readDb } from "./helpers";
import { maskCitizenship } from "../../app/utils/citizenship";
import {
  enterCode,
  fillPreregistration,
  lastCode,
  newVisitor,
  PHONE_VIEWPORT,
  saveAndConfirm,
  withRegistrationLock,
  type Visitor,
  saveThroughConfirm,
} from "./public-helpers";

test.use({ viewport: PHONE_VIEWPORT });

const masked = (phone: string) => `${phone.slice(0, 2)}XXXXXX${phone.slice(-2)}`;

/** An entry made by someone else (its own API client, not this browser); verified when asked. */
async function someoneElse(request: APIRequestContext, verify: boolean) {
  const v = newVisitor({ name: "Bimala Tamang", address: "Dharan Sunsari" });
  const res = await withRegistrationLock(() =>
    request.post("/api/v1/enquiry", {
      multipart: {
        name: v.name,
        address: v.address,
        phone: v.phone,
        citizenship_no: v.citizenship,
        nearest_branch_id: "1",
      },
    }),
  );
  expect(res.status(), await res.text()).toBe(201);
  const slug = (await res.json()).data.slug as string;
  if (verify) {
    const ok = await request.post(`/api/v1/enquiry/${slug}/verify`, { data: { code: lastCode(v.phone) } });
    expect(ok.status()).toBe(200);
  }
  return { ...v, slug };
}

/** Save (and the confirmation, when the form gets that far); the POST answers the form with its errors. */
async function submitExpectingError(page: Page): Promise<Response[]> {
  const answers: Response[] = [];
  const collect = (r: Response) => {
    if (r.request().method() === "POST" && new URL(r.url()).pathname === "/enquiry") answers.push(r);
  };
  page.on("response", collect);
  await withRegistrationLock(async () => {
    await saveThroughConfirm(page, page.locator("form[data-prereg] .field-error").first());
    await expect(page.locator("form[data-prereg] .field-error").first()).toBeVisible();
  });
  page.off("response", collect);
  expect(answers.length).toBeGreaterThan(0);
  return answers;
}

async function expectNoTrace(page: Page, answers: Response[], other: { slug: string } & Visitor) {
  for (const r of answers) {
    expect(r.status()).toBe(422);
    expect(await r.text()).not.toContain(other.slug);
    expect(JSON.stringify(await r.allHeaders())).not.toContain(other.slug);
  }
  const html = await page.content();
  for (const secret of [other.slug, other.name, other.address]) expect(html).not.toContain(secret);
  await expect(page.locator(`a[href*="${other.slug}"]`)).toHaveCount(0);
}

test("another entry's phone or citizenship number: the message alone, no slug in the page, body or headers", async ({
  page,
  request,
}) => {
  const other = await someoneElse(request, true);

  await page.goto("/enquiry");
  await fillPreregistration(page, newVisitor({ phone: other.phone }));
  const phoneAnswers = await submitExpectingError(page);
  const phoneField = page.locator("form[data-prereg] .field", { has: page.getByLabel(/^Phone Number/) });
  await expect(phoneField.getByRole("alert")).toHaveText("This phone number is already pre-registered.");
  await expect(page.locator(".continue-offer")).toContainText(
    `We can send a code to ${masked(other.phone)} to continue.`,
  );
  await expectNoTrace(page, phoneAnswers, other);

  await page.goto("/enquiry");
  await fillPreregistration(page, newVisitor({ citizenship: other.citizenship }));
  const citizenshipAnswers = await submitExpectingError(page);
  const citizenshipField = page.locator("form[data-prereg] .field", { has: page.getByLabel("Citizenship No/PAN") });
  await expect(citizenshipField.getByRole("alert")).toHaveText("This citizenship/pan has pending purchase.");
  await expect(page.getByRole("link", { name: "View" })).toHaveCount(0);
  await expectNoTrace(page, citizenshipAnswers, other);
});

test("the owner of a taken phone: a code to that phone, the entry only after the right code", async ({
  page,
  request,
}) => {
  const mine = await someoneElse(request, false);
  const lastSmsId = () =>
    (readDb((db) => db.prepare("select coalesce(max(id), 0) as id from sms_messages").get()) as { id: number }).id;

  await page.goto("/enquiry");
  await fillPreregistration(page, newVisitor({ phone: mine.phone }));
  await submitExpectingError(page);
  const before = lastSmsId();
  await page.locator(".continue-offer").getByRole("button", { name: "Send code" }).click();
  await expect(page).toHaveURL(/\/enquiry\/continue$/);
  await expect(page.getByRole("heading", { name: "Continue your pre-registration" })).toBeVisible();
  await expect(page.getByText(`If ${masked(mine.phone)} is pre-registered`)).toBeVisible();
  // Nothing of the entry before the code.
  let html = await page.content();
  for (const secret of [mine.slug, mine.name, mine.address, mine.citizenship]) expect(html).not.toContain(secret);

  // One code, to the stored phone (other workers' messages may be in the outbox too).
  const sent = readDb((db) =>
    db.prepare(`select "to", text from sms_messages where id > ? and "to" = ?`).all(before, mine.phone),
  ) as { to: string; text: string }[];
  expect(sent).toHaveLength(1);
  expect(sent[0].text).toMatch(/open your pre-registration/);
  const code = lastCode(mine.phone);

  await page
    .getByRole("textbox", { name: "OTP", exact: true })
    .fill(String((Number(code) + 1) % 1_000_000).padStart(6, "0"));
  await page.getByRole("button", { name: "Open my pre-registration" }).click();
  await expect(page.locator("#e-code")).toHaveText("Invalid OTP");
  await expect(page).toHaveURL(/\/enquiry\/continue$/);
  html = await page.content();
  for (const secret of [mine.slug, mine.name, mine.citizenship]) expect(html).not.toContain(secret);

  await page.getByRole("textbox", { name: "OTP", exact: true }).fill(code);
  await page.getByRole("button", { name: "Open my pre-registration" }).click();
  // It was unverified: the code proved the phone, so it is verified and drawn.
  await expect(page).toHaveURL(new RegExp(`/enquiry/${mine.slug}/draw$`));
  await expect(page.locator("[data-draw-reveal] .draw-congrats")).toContainText("Congratulations!");
  const details = page.getByRole("region", { name: "Your details" });
  await expect(details).toContainText(mine.name);
  // The citizenship number masked, as the phone is: the full number is in no page.
  await expect(details).toContainText(maskCitizenship(mine.citizenship));
  expect(await page.content()).not.toContain(mine.citizenship);
});

test("verify and draw pages: a fresh browser sees no name, citizenship number or address; the creating browser does", async ({
  page,
  browser,
}, testInfo) => {
  const visitor = newVisitor({ name: "Kamala Rai", address: "Itahari Sunsari" });
  await page.goto("/enquiry");
  await fillPreregistration(page, visitor);
  const slug = await saveAndConfirm(page, visitor);
  await expect(page.getByRole("region", { name: "Your details" })).toContainText(visitor.name);

  const stranger = await browser.newContext({
    javaScriptEnabled: testInfo.project.use.javaScriptEnabled,
    viewport: PHONE_VIEWPORT,
    baseURL: `http://localhost:${port}`,
  });
  try {
    const other = await stranger.newPage();
    const secretsAbsent = async () => {
      const text = (await other.locator("body").innerText()) + (await other.content());
      for (const secret of [visitor.name, visitor.address, visitor.citizenship, visitor.phone]) {
        expect(text).not.toContain(secret);
      }
      await expect(other.getByRole("region", { name: "Your details" })).toHaveCount(0);
    };
    await other.goto(`/enquiry/${slug}/verify`);
    await expect(other.getByRole("heading", { name: "Verify OTP" })).toBeVisible();
    await expect(other.getByText(masked(visitor.phone))).toBeVisible();
    await secretsAbsent();

    await enterCode(page, lastCode(visitor.phone));
    await expect(page).toHaveURL(new RegExp(`/enquiry/${slug}/draw$`));
    await expect(page.getByRole("region", { name: "Your details" })).toContainText(
      maskCitizenship(visitor.citizenship),
    );
    expect(await page.content()).not.toContain(visitor.citizenship);

    await other.goto(`/enquiry/${slug}/draw`);
    await expect(other.locator("[data-draw-reveal] .draw-amount")).toContainText("Rs.");
    await expect(other.locator(".draw-phone")).toContainText(masked(visitor.phone));
    await secretsAbsent();
  } finally {
    await stranger.close();
  }
});
