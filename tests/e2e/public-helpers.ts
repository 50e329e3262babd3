/** Helpers of the public-site end-to-end specs: fresh numbers, the campaign switch, a cross-worker lock, the pre-registration steps. */
import { expect, type Locator, type Page } from "@playwright/test";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { setSetting } from "./data";
import { dbFile, lastCode } from "./helpers";

export const PHONE_VIEWPORT = { width: 390, height: 844 };

/** A random Nepali mobile number nobody else in the run uses. */
export const freshPhone = () => `98${String(crypto.randomInt(0, 100_000_000)).padStart(8, "0")}`;
export const freshCitizenship = () => String(crypto.randomInt(10_000_000, 2_000_000_000));

export function setRegistrationOpen(open: boolean) {
  setSetting("registration_open", open);
}

const LOCK = path.join(path.dirname(dbFile), "registration-state.lock");

/**
 * The registration switch is global: the closed-state test holds this lock while
 * the campaign is closed, and every test that submits a public pre-registration
 * holds it around its submit, across workers.
 */
export async function withRegistrationLock<T>(fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      fs.mkdirSync(LOCK);
      break;
    } catch {
      try {
        if (Date.now() - fs.statSync(LOCK).mtimeMs > 60_000) fs.rmSync(LOCK, { recursive: true, force: true });
      } catch {
        // gone meanwhile
      }
      if (Date.now() > deadline) throw new Error("registration lock not released");
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(LOCK, { recursive: true, force: true });
  }
}

export type Visitor = { name: string; address: string; phone: string; citizenship: string; showroom: string };

export const newVisitor = (over: Partial<Visitor> = {}): Visitor => ({
  name: "Sita Kumari Shrestha",
  address: "Baneshwor Kathmandu",
  phone: freshPhone(),
  citizenship: freshCitizenship(),
  showroom: "Kathmandu Central",
  ...over,
});

/** Fills the pre-registration form on the current page. */
export async function fillPreregistration(page: Page, v: Visitor) {
  const form = page.locator("form[data-prereg]");
  await form.getByLabel("Full Name").fill(v.name);
  await form.getByLabel("Address").fill(v.address);
  await form.getByLabel(/^Phone Number/).fill(v.phone);
  await form.getByLabel("Citizenship No/PAN").fill(v.citizenship);
  await form.getByLabel("Nearest Showroom").selectOption({ label: v.showroom });
  await form.getByLabel("Source of Information").selectOption("SOCIAL MEDIA");
}

/** Save, then "Please Confirm Your Phone Number." (a dialog with JavaScript, a page step without) and Save. */
export async function saveAndConfirm(page: Page, v: Visitor) {
  await withRegistrationLock(async () => {
    await page.locator("form[data-prereg]").getByRole("button", { name: "Save" }).click();
    const confirm = page.locator("dialog[open][data-confirm], form.confirm-step");
    await expect(confirm.getByRole("heading", { name: "Please Confirm Your Phone Number." })).toBeVisible();
    await expect(confirm).toContainText(v.phone);
    await confirm.getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveURL(/\/enquiry\/[^/]+\/verify#otp$/);
  });
  await expect(page.getByRole("heading", { name: "Verify OTP" })).toBeVisible();
  return page.url().match(/\/enquiry\/([^/]+)\/verify#otp$/)![1];
}

/**
 * Clicks Save, and Save again when the form asks to confirm the phone, waiting for one or the other:
 * the confirm step, or `settled` (the error or banner the test expects instead).
 */
export async function saveThroughConfirm(page: Page, settled: Locator) {
  await page.locator("form[data-prereg]").getByRole("button", { name: "Save" }).click();
  const save = page.locator("dialog[open][data-confirm], form.confirm-step").getByRole("button", { name: "Save" });
  await expect(save.or(settled).first()).toBeVisible();
  if (await save.isVisible()) await save.click();
}

export async function enterCode(page: Page, code: string) {
  await page.getByRole("textbox", { name: "OTP", exact: true }).fill(code);
  await page.getByRole("button", { name: "Verify", exact: true }).click();
}

export { lastCode };
