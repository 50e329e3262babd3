// A branch and a bike model made in the back office appear on the public site on the next request (the
// pre-registration form, the book-a-ride cascade, the showrooms); closed and retired, they leave it at
// once while the records that name them keep their names. With JavaScript on and off.
import { expect, test, type Page } from "@playwright/test";
import { isJs, login, USERS } from "./helpers";
import { freshPhone } from "./public-helpers";
import { confirm, successToast, unique } from "./catalogue-helpers";

const optionTexts = (page: Page, label: string) => page.getByLabel(label).locator("option").allTextContents();

test("a new branch and model show on the public forms; closed and retired they leave, old records keep their names", async ({
  page,
}, info) => {
  const js = isJs(info.project.name);
  const branch = unique(info.project.name, "Showroom");
  // A district no other test's branch is in, one for each project (the runs share the database).
  const zone = "Karnali";
  const district = js ? "Humla" : "Mugu";
  const model = unique(info.project.name, "Roadster");
  await login(page, USERS.admin);

  // Head office adds a dealer and a model.
  await page.goto("/admin/branch/create");
  await page.getByLabel("Name").fill(branch);
  await page.getByLabel("State").selectOption(zone);
  await page.getByLabel("District").selectOption(district);
  await page.getByLabel("City").fill("Far City");
  await page.getByLabel("Phone").fill("099-520521");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(successToast(page)).toBeVisible();
  const branchUrl = page.url();
  await page.goto("/admin/bike-model/create");
  await page.getByLabel("Title").fill(model);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(successToast(page)).toBeVisible();
  const modelUrl = page.url();

  // The pre-registration form offers both on the next request.
  await page.goto("/enquiry");
  expect(await optionTexts(page, "Nearest Showroom")).toContain(branch);
  expect(await optionTexts(page, "Bike Model")).toContain(model);

  // The showrooms list it under its zone and district.
  await page.goto(`/showrooms?state=${zone}&district=${district}`);
  await expect(page.locator(".room h2")).toHaveText([branch]);

  // The book-a-ride cascade leads to it; a booking made there is an old record later.
  const phone = freshPhone();
  await page.goto("/book-a-ride");
  const form = page.getByRole("dialog", { name: "Book a Ride" }).locator("form");
  const update = async () => {
    if (!js) await form.getByRole("button", { name: "Update choices" }).click();
  };
  await form.getByLabel("Full Name").fill("Old Customer");
  await form.getByLabel("Province").selectOption(zone);
  await update();
  await form.getByLabel("District").selectOption(district);
  await update();
  await form.getByLabel("City").selectOption("Far City");
  await update();
  await expect(form.getByLabel("Branch").locator("option:checked")).toHaveText(branch);
  await form.getByLabel("Phone Number").fill(phone);
  await form.getByLabel("Model").selectOption({ label: model });
  await form.getByRole("button", { name: "Submit" }).click();
  await expect(page).toHaveURL(/\/thankyou-for-test-ride-booking$/);

  // Head office closes the branch and retires the model.
  await page.goto(branchUrl);
  await confirm(
    page,
    "Close branch",
    "Close this branch? It leaves the public site and the forms at once.",
    "Yes, close it",
  );
  await expect(successToast(page)).toContainText("Branch closed.");
  await page.goto(modelUrl);
  await confirm(page, "Retire", "Retire this model? It leaves the public forms at once.", "Yes, retire it");
  await expect(successToast(page)).toContainText("Bike model retired.");

  // Gone from the public forms at once.
  await page.goto("/enquiry");
  expect(await optionTexts(page, "Nearest Showroom")).not.toContain(branch);
  expect(await optionTexts(page, "Bike Model")).not.toContain(model);
  await page.goto("/book-a-ride");
  const again = page.getByRole("dialog", { name: "Book a Ride" }).locator("form");
  await again.getByLabel("Province").selectOption(zone);
  if (!js) await again.getByRole("button", { name: "Update choices" }).click();
  expect(await again.getByLabel("District").locator("option").allTextContents()).not.toContain(district);
  expect(await again.getByLabel("Model").locator("option").allTextContents()).not.toContain(model);
  await page.goto(`/showrooms?state=${zone}&district=${district}`);
  await expect(page.locator(".room h2", { hasText: branch })).toHaveCount(0);

  // The booking still names them.
  await page.goto(`/admin/test-ride?search=${phone}`);
  const row = page.getByRole("row", { name: /Old Customer/ });
  await expect(row).toContainText(branch);
  await expect(row).toContainText(model);
  await row.getByRole("link").first().click();
  await expect(page.locator("dl.details")).toContainText(branch);
  await expect(page.locator("dl.details")).toContainText(model);
});
