// Bike models (spec 001 §2.5) and the file picker (§2.13), with JavaScript on and off: create (the
// server's error under the field, the image choice kept), the row with its thumbnail and the search,
// the detail, edit, delete after "Are you sure?", the refusal to delete a model in use, and an upload
// refused with the spec's message while what was typed stays.
import { expect, test } from "@playwright/test";
import { isJs, login, readDb, USERS } from "./helpers";
import {
  chooseImage,
  confirm,
  errorUnder,
  pickerError,
  pngBytes,
  successToast,
  unique,
  uploadImage,
} from "./catalogue-helpers";

const UPLOAD_FAILED = "Something went wrong! Please check the file and try again.";

test("create, find, open, edit and delete a bike model, its image through the picker", async ({ page }, info) => {
  const js = isJs(info.project.name);
  const title = unique(info.project.name, "Model");
  await login(page, USERS.admin);
  await page.goto("/admin/bike-model");
  await expect(page.getByRole("heading", { name: "Bike Models" })).toBeVisible();
  await page.getByRole("link", { name: "Create" }).click();
  await expect(page).toHaveURL(/\/admin\/bike-model\/create$/);

  // An invalid submit (no title) with an image chosen: the error under Title, the image still chosen.
  await chooseImage(page, info.project.name, "Trail 200.png");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(await errorUnder(page, "Title")).toHaveText("Enter the model name.");
  if (js) await expect(page.locator(".picker-current img")).toHaveAttribute("alt", /Trail 200\.png/);
  else await expect(page.getByRole("radio", { name: "Trail 200.png", exact: true })).toBeChecked();

  // A taken title: its own error.
  await page.getByLabel("Title").fill("thunder 150");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(await errorUnder(page, "Title")).toHaveText("A bike model with this name already exists.");

  // A new image uploaded instead (JavaScript: in the modal, chosen by itself; without: the form's file input).
  await page.getByLabel("Title").fill(title);
  await uploadImage(page, info.project.name, {
    name: `${title}.png`,
    mimeType: "image/png",
    buffer: await pngBytes("#884422", 1600, 1000),
  });
  if (js) {
    await expect(page.getByRole("dialog", { name: "Select Or Upload File" })).toBeHidden();
    await expect(page.locator(".picker-current img")).toHaveAttribute("alt", new RegExp(title));
  }
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/admin\/bike-model\/[A-Za-z0-9_-]{16}$/);
  await expect(successToast(page)).toContainText(`Bike model "${title}" created.`);
  await expect(page.getByRole("heading", { name: title })).toBeVisible();
  const image = page.locator("img.record-image");
  await expect(image).toHaveAttribute("src", /^\/files\/[A-Za-z0-9_-]+$/);
  const stored = readDb((db) =>
    db
      .prepare("select f.width, f.height from bike_models m join files f on f.id = m.thumbnail_id where m.title = ?")
      .get(title),
  );
  expect(stored).toEqual({ width: 720, height: 450 });
  const detailUrl = page.url();

  // The row, with its thumbnail, found by the search.
  await page.goto("/admin/bike-model");
  await page.getByRole("searchbox").fill(title);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("Showing 1 - 1 of 1 entries")).toBeVisible();
  const row = page.getByRole("row", { name: new RegExp(title) });
  await expect(row.locator("img")).toHaveAttribute("src", /^\/files\//);
  await row.getByRole("link").click();
  await expect(page).toHaveURL(detailUrl);

  // Edit: a new title, the image kept.
  await page.getByRole("link", { name: "Edit" }).click();
  await expect(page.getByLabel("Title")).toHaveValue(title);
  await page.getByLabel("Title").fill(`${title} Mk2`);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(detailUrl);
  await expect(successToast(page)).toContainText("Bike model updated.");
  await expect(page.getByRole("heading", { name: `${title} Mk2` })).toBeVisible();
  await expect(page.locator("img.record-image")).toHaveAttribute("src", /^\/files\//);

  // Delete after "Are you sure?".
  await confirm(page, "Delete");
  await expect(page).toHaveURL(/\/admin\/bike-model$/);
  await expect(successToast(page)).toContainText(`Bike model "${title} Mk2" deleted.`);
  expect((await page.goto(detailUrl))?.status()).toBe(404);
  await expect(page.getByRole("navigation", { name: "Back office" })).toBeVisible();
});

test("a model in use is not deleted: the page says why and offers to retire it", async ({ page }) => {
  const slug = readDb((db) => db.prepare("select slug from bike_models where title = 'Street 125'").get()) as {
    slug: string;
  };
  await login(page, USERS.admin);
  await page.goto(`/admin/bike-model/${slug.slug}`);
  await confirm(page, "Delete");
  const alert = page.getByRole("alert").filter({ hasText: "cannot be deleted" });
  await expect(alert).toContainText("This bike model cannot be deleted: it has ");
  await expect(alert).toContainText(
    "Retire it instead: a retired model leaves the public forms at once, and its records keep its name.",
  );
  await expect(alert.getByRole("button", { name: "Retire this model" })).toBeVisible();
  await page.goto("/admin/bike-model?search=Street%20125");
  await expect(page.getByRole("row", { name: /Street 125/ })).toBeVisible();
});

test("a refused upload shows the spec's message and keeps what was typed", async ({ page }, info) => {
  const title = unique(info.project.name, "Kept");
  await login(page, USERS.admin);
  await page.goto("/admin/bike-model/create");
  await page.getByLabel("Title").fill(title);
  // This test's own file name: other workers upload files meanwhile.
  const filename = `brochure-${title.replace(/\W+/g, "-")}.jpg`;
  const files = () => readDb((db) => db.prepare("select count(*) n from files where filename = ?").get(filename));
  await uploadImage(page, info.project.name, {
    name: filename,
    mimeType: "image/jpeg",
    buffer: Buffer.from("%PDF-1.4\n% a brochure, not a photo\n%%EOF\n"),
  });
  if (isJs(info.project.name)) {
    const modal = page.getByRole("dialog", { name: "Select Or Upload File" });
    await expect(modal.getByRole("alert")).toContainText(UPLOAD_FAILED);
    await expect(modal.getByRole("alert")).toContainText("Only JPEG, PNG or WebP images are accepted.");
    await modal.getByRole("button", { name: "Close" }).click();
  } else {
    await page.getByRole("button", { name: "Save" }).click();
    await expect(pickerError(page)).toHaveText(UPLOAD_FAILED);
  }
  await expect(page.getByLabel("Title")).toHaveValue(title);
  expect(files()).toEqual({ n: 0 });
  expect(readDb((db) => db.prepare("select count(*) n from bike_models where title = ?").get(title))).toEqual({ n: 0 });
});
