// The visitor journey on a phone, with JavaScript on ("js") and off ("nojs"):
// pre-register → confirm the phone → verify with the SMS code → the draw.
import { expect, test } from "@playwright/test";
import { ageCodes, failSms } from "./data";
import { readDb } from "./helpers";
import {
  enterCode,
  fillPreregistration,
  lastCode,
  newVisitor,
  PHONE_VIEWPORT,
  saveAndConfirm,
  withRegistrationLock,
  saveThroughConfirm,
} from "./public-helpers";

test.use({ viewport: PHONE_VIEWPORT });

test("from the landing page to the form, confirm, verify with the SMS code and see the draw", async ({ page }) => {
  const visitor = newVisitor();
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Share It. Win It." })).toBeVisible();
  await page.locator(".hero").getByRole("link", { name: "Pre-register" }).click();
  await expect(page).toHaveURL(/\/enquiry$/);
  await fillPreregistration(page, visitor);
  const slug = await saveAndConfirm(page, visitor);
  await expect(page.getByText(`${visitor.phone.slice(0, 2)}XXXXXX${visitor.phone.slice(-2)}`)).toBeVisible();
  await expect(page.locator("body")).not.toContainText(lastCode(visitor.phone));

  await enterCode(page, lastCode(visitor.phone));
  await expect(page).toHaveURL(new RegExp(`/enquiry/${slug}/draw$`));
  const prize = readDb((db) => db.prepare("select prize from preregistrations where slug = ?").get(slug)) as {
    prize: number;
  };
  expect(prize.prize).toBeGreaterThan(0);
  const reveal = page.locator("[data-draw-reveal]");
  await expect(reveal.locator(".draw-cell")).toHaveCount(6);
  await expect(reveal).toHaveAttribute("data-digits", String(prize.prize).padStart(6, "0"));
  await expect(reveal.locator(".draw-amount")).toHaveText(`Rs. ${prize.prize.toLocaleString("en-IN")}`);
  await expect(reveal.locator(".draw-congrats")).toContainText("Congratulations!");
  await expect(reveal.locator(".draw-result")).toHaveCSS("opacity", "1", { timeout: 9_000 });

  // Verified: the verify page sends on to the draw; Close goes home.
  await page.goto(`/enquiry/${slug}/verify`);
  await expect(page).toHaveURL(new RegExp(`/enquiry/${slug}/draw$`));
  await page.getByRole("link", { name: "Close" }).last().click();
  await expect(page).toHaveURL(/\/$/);
});

test("an address keeps its comma, full stop, hyphen and slash, as typed", async ({ page }) => {
  const visitor = newVisitor({ address: "Baneshwor-10, Kathmandu / Ward 3." });
  await page.goto("/enquiry");
  await fillPreregistration(page, visitor);
  await expect(page.locator("form[data-prereg]").getByLabel("Address")).toHaveValue(visitor.address);
  const slug = await saveAndConfirm(page, visitor);
  const row = readDb((db) => db.prepare("select address from preregistrations where slug = ?").get(slug)) as {
    address: string;
  };
  expect(row.address).toBe(visitor.address);
});

test("empty code, wrong code, the fifth said to be the last try, and the sixth refused", async ({ page }) => {
  const visitor = newVisitor();
  await page.goto("/enquiry");
  await fillPreregistration(page, visitor);
  const slug = await saveAndConfirm(page, visitor);
  const code = lastCode(visitor.phone);
  const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");

  await page.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(page.locator("#e-code")).toHaveText("OTP is required");

  for (let i = 0; i < 4; i++) {
    await enterCode(page, wrong);
    await expect(page.locator("#e-code")).toHaveText("Invalid OTP");
  }
  await enterCode(page, wrong);
  await expect(page.locator("#e-code")).toHaveText(
    "Invalid OTP. That was the last try for this code: please ask for a new one with Resend code.",
  );
  await expect(page.getByRole("button", { name: "Resend code" })).toBeVisible();
  await enterCode(page, code);
  await expect(page.locator("#e-code")).toHaveText(
    "This OTP was entered wrongly too many times. Please ask for a new code.",
  );
  await expect(page).toHaveURL(new RegExp(`/enquiry/${slug}/verify$`));
  const row = readDb((db) => db.prepare("select is_verified from preregistrations where slug = ?").get(slug)) as {
    is_verified: number;
  };
  expect(row.is_verified).toBe(0);
});

test("a code whose SMS could not be sent: the page says so and Resend code sends a new one", async ({ page }) => {
  const visitor = newVisitor();
  await page.goto("/enquiry");
  await fillPreregistration(page, visitor);
  const slug = await saveAndConfirm(page, visitor);
  const masked = `${visitor.phone.slice(0, 2)}XXXXXX${visitor.phone.slice(-2)}`;
  await expect(page.getByText(`We have sent a 6-digit code by SMS to ${masked}.`)).toBeVisible();

  // The gateway gave up on it (after the worker's send, so nothing overwrites it); a minute has passed.
  const entry = readDb((db) =>
    db.prepare("select id from preregistrations where slug = ?").pluck().get(slug),
  ) as number;
  const codeSms = "select id, status from sms_messages where purpose = 'otp' and subject_id = ? order by id desc";
  const sms = () => readDb((db) => db.prepare(codeSms).get(entry)) as { id: number; status: string };
  await expect.poll(() => sms().status).toBe("sent");
  failSms(sms().id, "SMS gateway answered HTTP 503 (gave up after 5 attempts)");
  ageCodes("preregistration", { subjectId: entry }, 120_000);
  await page.goto(`/enquiry/${slug}/verify`);
  const notSent = page.getByRole("alert").filter({ hasText: `The code could not be sent to ${masked}.` });
  await expect(notSent).toContainText("Please tap Resend code to get a new one.");
  await expect(page.getByText("We have sent a 6-digit code")).toHaveCount(0);

  await page.getByRole("button", { name: "Resend code" }).click();
  await expect(page.getByRole("status").filter({ hasText: "A new code has been sent." })).toBeVisible();
  await expect(notSent).toHaveCount(0);
  await expect(page.getByText(`We have sent a 6-digit code by SMS to ${masked}.`)).toBeVisible();
  await enterCode(page, lastCode(visitor.phone));
  await expect(page).toHaveURL(new RegExp(`/enquiry/${slug}/draw$`));
});

test("two visitors cannot take the same phone; its owner continues with a code sent to it", async ({ page }) => {
  const first = newVisitor();
  await page.goto("/enquiry");
  await fillPreregistration(page, first);
  const slug = await saveAndConfirm(page, first);

  const second = newVisitor({ phone: first.phone, name: "Hari Prasad" });
  await page.goto("/enquiry");
  await fillPreregistration(page, second);
  const phoneField = page.locator("form[data-prereg] .field", { has: page.getByLabel(/^Phone Number/) });
  await withRegistrationLock(() => saveThroughConfirm(page, phoneField.getByRole("alert")));
  await expect(phoneField.getByRole("alert")).toContainText("already pre-registered");
  await expect(page.locator(`a[href*="${slug}"]`)).toHaveCount(0);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page).toHaveURL(/\/enquiry\/continue$/);
  await page.getByRole("textbox", { name: "OTP", exact: true }).fill(lastCode(first.phone));
  await page.getByRole("button", { name: "Open my pre-registration" }).click();
  await expect(page).toHaveURL(new RegExp(`/enquiry/${slug}/draw$`));
  const count = readDb((db) =>
    db.prepare("select count(*) as n from preregistrations where phone = ?").get(first.phone),
  ) as { n: number };
  expect(count.n).toBe(1);
});

test("a double-submitted form creates one record", async ({ page, request }) => {
  const visitor = newVisitor();
  await page.goto("/enquiry");
  const token = await page.locator("form[data-prereg] input[name=form_token]").inputValue();
  const fields = {
    name: visitor.name,
    address: visitor.address,
    phone: visitor.phone,
    citizenship_no: visitor.citizenship,
    nearest_branch_id: "1",
    form_token: token,
    intent: "save",
  };
  const [a, b] = await withRegistrationLock(() =>
    Promise.all([
      request.post("/enquiry", { multipart: fields, maxRedirects: 0 }),
      request.post("/enquiry", { multipart: fields, maxRedirects: 0 }),
    ]),
  );
  expect(a.status()).toBe(302);
  expect(b.status()).toBe(302);
  expect(a.headers().location).toBe(b.headers().location);
  const count = readDb((db) =>
    db.prepare("select count(*) as n from preregistrations where form_token = ?").get(token),
  ) as { n: number };
  expect(count.n).toBe(1);
});

test("a pending purchase met at the verify step: the message, what it means and where to go, in English and Nepali", async ({
  page,
  request,
}) => {
  const visitor = newVisitor();
  await page.goto("/enquiry");
  await fillPreregistration(page, visitor);
  await saveAndConfirm(page, visitor);

  // Meanwhile the same citizenship number is pre-registered and verified elsewhere: a pending purchase.
  const other = newVisitor({ citizenship: visitor.citizenship });
  const res = await withRegistrationLock(() =>
    request.post("/api/v1/enquiry", {
      multipart: {
        name: other.name,
        address: other.address,
        phone: other.phone,
        citizenship_no: other.citizenship,
        nearest_branch_id: "1",
      },
    }),
  );
  expect(res.status(), await res.text()).toBe(201);
  const slug = (await res.json()).data.slug as string;
  expect(
    (await request.post(`/api/v1/enquiry/${slug}/verify`, { data: { code: lastCode(other.phone) } })).status(),
  ).toBe(200);

  await enterCode(page, lastCode(visitor.phone));
  await expect(page.locator("#e-code")).toHaveText("This citizenship/pan has pending purchase.");
  const help = page.locator(".pending-help");
  await expect(help).toContainText("already waiting for its purchase");
  await expect(help.getByRole("link", { name: "Find a showroom" })).toHaveAttribute("href", "/showrooms");

  await page.goto(`/language?lang=ne&redirectTo=${new URL(page.url()).pathname}`);
  await page.getByRole("textbox", { name: "OTP", exact: true }).fill(lastCode(visitor.phone));
  await page.getByRole("button", { name: "प्रमाणित गर्नुहोस्", exact: true }).click();
  await expect(page.locator(".pending-help")).toContainText("खरिदको पर्खाइमा");
});

test("every error on the first post: 'I have shared' ticked without a screenshot is said beside the others", async ({
  page,
}) => {
  await page.goto("/enquiry");
  const form = page.locator("form[data-prereg]");
  await form.evaluate((f: HTMLFormElement) => (f.noValidate = true));
  await form.getByLabel("I have shared").check();
  await form.getByLabel(/^Phone Number/).fill("12345");
  // A plain post, past any script: the server's answer alone.
  await withRegistrationLock(async () => {
    await form.evaluate((f: HTMLFormElement) => {
      const intent = document.createElement("input");
      intent.type = "hidden";
      intent.name = "intent";
      intent.value = "review";
      f.appendChild(intent);
      HTMLFormElement.prototype.submit.call(f);
    });
    await expect(page.locator("#form-errors")).toBeVisible();
  });
  const summary = page.locator("#form-errors");
  await expect(summary).toContainText("Full Name: Please enter your full name.");
  await expect(summary).toContainText("Please upload a screenshot of your post.");
  await expect(page.locator(".screenshot-field .field-error")).toHaveText("Please upload a screenshot of your post.");
});
