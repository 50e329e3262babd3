// Winner videos (spec 001 §2.7, §2.14), with JavaScript on and off: create (the server's first error
// under each field), the row in the list with the prize filter and the search, the detail, edit, delete
// after "Are you sure?", and /winner-list showing each change on the next request.
import { expect, test, type Page } from "@playwright/test";
import { login, USERS } from "./helpers";
import { chooseImage, confirm, errorUnder, successToast, unique } from "./catalogue-helpers";

async function winnerGroup(page: Page, group: "Won Rs. 10 lakh" | "Won Rs. 1 lakh" | "Won Rs. 50,000") {
  await page.goto("/winner-list");
  return page.getByRole("region", { name: group });
}

test("create, filter, open, edit and delete a winner video; the winner list follows", async ({ page }, info) => {
  const title = unique(info.project.name, "Winner");
  await login(page, USERS.admin);
  await page.goto("/admin/video");
  await expect(page.getByRole("heading", { name: "Videos" })).toBeVisible();
  await expect(page.getByRole("columnheader")).toHaveText(["Title", "Registration ID", "Amount"]);
  await expect(page.getByLabel("Prize").locator("option")).toHaveText([
    "All prizes",
    "Fifty Thousand",
    "One Lakh",
    "Ten Lakh",
  ]);
  await page.getByRole("link", { name: "Create" }).click();
  await expect(page).toHaveURL(/\/admin\/video\/create$/);
  await expect(page.getByLabel("Amount").locator("option")).toHaveText([
    "Choose a prize",
    "Fifty Thousand",
    "One Lakh",
    "Ten Lakh",
  ]);

  // An invalid submit: the first server error under each field.
  await page.getByLabel("Url").fill("javascript:alert(1)");
  await page.getByLabel("Phone").fill("12345");
  await page.getByLabel("Registration ID").fill("27-01-75-99999");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(await errorUnder(page, "Title")).toHaveText("Enter the video title.");
  await expect(await errorUnder(page, "Url")).toHaveText("Enter the video address, starting with http:// or https://.");
  await expect(await errorUnder(page, "Amount")).toHaveText("Choose the prize amount.");
  await expect(await errorUnder(page, "Phone")).toHaveText("Enter a 10-digit mobile number starting with 9.");
  await expect(page.getByLabel("Registration ID")).toHaveValue("27-01-75-99999");

  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Url").fill("https://www.youtube.com/watch?v=e2e");
  await page.getByLabel("Amount").selectOption({ label: "One Lakh" });
  await page.getByLabel("Phone").fill("9841000099");
  await chooseImage(page, info.project.name, "Hari wins One Lakh.png");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/admin\/video\/[A-Za-z0-9_-]{16}$/);
  await expect(successToast(page)).toContainText("Video created.");
  await expect(page.getByRole("heading", { name: title })).toBeVisible();
  await expect(page.locator("dl.details")).toContainText("27-01-75-99999");
  await expect(page.locator("dl.details")).toContainText("One Lakh");
  await expect(page.locator("img.record-image")).toHaveAttribute("src", /^\/files\//);
  const detailUrl = page.url();

  // On the winner list at once, under One Lakh, opening the video in a new tab; the phone never shows.
  const lakh = await winnerGroup(page, "Won Rs. 1 lakh");
  const link = lakh.getByRole("link", { name: title });
  await expect(link).toHaveAttribute("href", "https://www.youtube.com/watch?v=e2e");
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(page.locator("body")).not.toContainText("9841000099");

  // The list: the prize filter and the search.
  await page.goto("/admin/video");
  await page.getByLabel("Prize").selectOption({ label: "One Lakh" });
  await page.getByRole("searchbox").fill(title);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/amount=100000/);
  const row = page.getByRole("row", { name: new RegExp(title) });
  await expect(row).toContainText("27-01-75-99999");
  await expect(row).toContainText("One Lakh");
  await page.getByLabel("Prize").selectOption({ label: "Fifty Thousand" });
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("Showing 0 - 0 of 0 entries")).toBeVisible();
  await page.goto(`/admin/video?search=${encodeURIComponent(title)}`);
  await page
    .getByRole("row", { name: new RegExp(title) })
    .getByRole("link")
    .click();
  await expect(page).toHaveURL(detailUrl);

  // Edit: now a Ten Lakh winner.
  await page.getByRole("link", { name: "Edit" }).click();
  await expect(page.getByLabel("Title")).toHaveValue(title);
  await page.getByLabel("Url").fill("ftp://example.com/video");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(await errorUnder(page, "Url")).toHaveText("Enter the video address, starting with http:// or https://.");
  await page.getByLabel("Url").fill("https://www.youtube.com/watch?v=e2e2");
  await page.getByLabel("Amount").selectOption({ label: "Ten Lakh" });
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(detailUrl);
  await expect(successToast(page)).toContainText("Video updated.");
  await expect(page.locator("dl.details")).toContainText("Ten Lakh");
  const tenLakhs = await winnerGroup(page, "Won Rs. 10 lakh");
  await expect(tenLakhs.getByRole("link", { name: title })).toHaveAttribute(
    "href",
    "https://www.youtube.com/watch?v=e2e2",
  );
  await expect(page.getByRole("region", { name: "One Lakh" }).getByRole("link", { name: title })).toHaveCount(0);

  // Delete after "Are you sure?": gone from the list and the winner list.
  await page.goto(detailUrl);
  await confirm(page, "Delete");
  await expect(page).toHaveURL(/\/admin\/video$/);
  await expect(successToast(page)).toContainText(`Video "${title}" deleted.`);
  await page.goto(`/admin/video?search=${encodeURIComponent(title)}`);
  await expect(page.getByText("Showing 0 - 0 of 0 entries")).toBeVisible();
  await page.goto("/winner-list");
  await expect(page.getByRole("link", { name: title })).toHaveCount(0);
  expect((await page.goto(detailUrl))?.status()).toBe(404);
});

test("branch staff without read-video are sent back with the reason", async ({ page }) => {
  await login(page, USERS.staff);
  await page.goto("/admin/video");
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.locator(".toast")).toContainText("You do not have permission to open Videos.");
});
