/** Helpers of the catalogue end-to-end specs (branches, bike models, videos, the file picker). */
import { expect, type Locator, type Page } from "@playwright/test";
import crypto from "node:crypto";
import sharp from "sharp";
import { isJs } from "./helpers";

/** A name no other test (or the other project, running at the same time) uses. */
export const unique = (project: string, what: string) =>
  `${what} ${isJs(project) ? "Js" : "NoJs"} ${crypto.randomBytes(3).toString("hex")}`;

/** The first server error shown under a labelled field (Field's `${id}-error`). */
export async function errorUnder(page: Page, label: string): Promise<Locator> {
  const id = await page.getByLabel(label).first().getAttribute("id");
  if (!id) throw new Error(`no id on ${label}`);
  return page.locator(`[id="${id}-error"]`);
}

/** The file picker's error (under the Thumbnail legend). */
export const pickerError = (page: Page, name = "thumbnail") => page.locator(`#picker-${name}-error`);

/** Opens a ConfirmSubmit disclosure, checks the question and answers yes. */
export async function confirm(page: Page, summary: string, question = "Are you sure?", yes = "Yes") {
  await page.locator("summary", { hasText: summary }).click();
  const box = page.getByRole("alertdialog", { name: question });
  await expect(box).toBeVisible();
  await expect(box.getByText(question)).toBeVisible();
  await box.getByRole("button", { name: yes }).click();
}

export const successToast = (page: Page) => page.locator(".toast").filter({ hasText: "Success!" });

export async function pngBytes(color: string, width = 640, height = 400): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();
}

/**
 * Chooses an image in the picker: with JavaScript through the "Select Or Upload File" modal (a click on
 * the image confirms itself after 200 ms), without it by its radio thumbnail.
 */
export async function chooseImage(page: Page, project: string, filename: string) {
  if (isJs(project)) {
    await page.getByRole("button", { name: "Select Or Upload File" }).click();
    const modal = page.getByRole("dialog", { name: "Select Or Upload File" });
    await expect(modal).toBeVisible();
    // A single-select choice confirms itself after 200 ms (spec 001 §9).
    const clicked = Date.now();
    // (Its pressed state lasts those 200 ms only: a busy machine may be past it before a check could
    // look, so the choice is checked by the dialog closing no sooner and the picker showing the image.)
    await modal.getByRole("button", { name: filename, exact: true }).click();
    await expect(modal).toBeHidden();
    expect(Date.now() - clicked).toBeGreaterThanOrEqual(190);
    await expect(page.locator(".picker-current img")).toHaveAttribute("alt", new RegExp(escape(filename)));
  } else {
    await page.getByRole("radio", { name: filename, exact: true }).check();
  }
}

/**
 * Uploads an image through the picker: with JavaScript in the modal's uploads area (the new image
 * is chosen), without it by the form's own file input (stored when the form is sent).
 */
export async function uploadImage(
  page: Page,
  project: string,
  file: { name: string; mimeType: string; buffer: Buffer },
) {
  if (isJs(project)) {
    await page.getByRole("button", { name: "Select Or Upload File" }).click();
    const modal = page.getByRole("dialog", { name: "Select Or Upload File" });
    await modal.getByLabel("Upload images").setInputFiles(file);
  } else {
    await page.getByLabel(/Upload a new image/).setInputFiles(file);
  }
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
