// Showrooms, scheme texts, the winner gallery and the language switch, with JavaScript on and off.
import { expect, test } from "@playwright/test";
import crypto from "node:crypto";
import { isJs } from "./helpers";
import { makeVideo, removeVideo } from "./data";
import { PHONE_VIEWPORT } from "./public-helpers";

test.use({ viewport: PHONE_VIEWPORT });

test("Nearby Showrooms filters by zone, then location, with tappable phone numbers", async ({ page }, info) => {
  await page.goto("/");
  await page.getByRole("link", { name: "Nearby Showrooms" }).click();
  const dialog = page.getByRole("dialog", { name: "Nearby Showrooms" });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/\/showrooms$/);
  const filter = async () => {
    if (!isJs(info.project.name)) await dialog.getByRole("button", { name: "Filter" }).click();
  };
  await dialog.getByLabel("Zone").selectOption("Gandaki");
  await filter();
  await expect(dialog.locator(".room h2")).toHaveText(["Pokhara Lakeside"]);
  const card = dialog.locator(".room").first();
  await expect(card).toContainText("Kaski, Pokhara");
  await expect(card.getByRole("link", { name: "061-456789" })).toHaveAttribute("href", "tel:061456789");
  await expect(card.getByRole("link", { name: "9856012345" })).toHaveAttribute("href", "tel:9856012345");

  await dialog.getByLabel("Zone").selectOption("Bagmati");
  await filter();
  await expect(dialog.getByLabel("Location").locator("option")).toHaveText([
    "All",
    "Bhaktapur",
    "Kathmandu",
    "Lalitpur",
  ]);
  await dialog.getByLabel("Location").selectOption("Lalitpur");
  await filter();
  await expect(dialog.locator(".room h2")).toHaveText(["Lalitpur Motors"]);
  await expect(page).toHaveURL(/\/showrooms\?state=Bagmati&district=Lalitpur$/);
});

test("scheme details, terms and privacy policy show the settings texts", async ({ page }) => {
  for (const [link, heading, text] of [
    ["Scheme Details", "Scheme Details", "The Thrill Scheme"],
    ["Terms and Conditions", "Terms and Conditions", "One pre-registration per phone number."],
    ["Privacy Policy", "Privacy Policy", "We do not sell your data."],
  ]) {
    await page.goto("/");
    await page.locator(".tiles").getByRole("link", { name: link }).click();
    const dialog = page.getByRole("dialog", { name: heading });
    await expect(dialog).toContainText(text);
    await dialog.getByRole("link", { name: "Close" }).click();
    await expect(page).toHaveURL(/\/$/);
  }
});

test("the winner list groups videos, each opening in a new tab", async ({ page }) => {
  const title = `Winner ${crypto.randomBytes(4).toString("hex")}`;
  const { slug } = makeVideo({ title, url: "https://www.example.com/watch?v=one-lakh", amount: 100000 });
  try {
    await page.goto("/");
    await page.getByRole("link", { name: "Winners" }).click();
    await expect(page).toHaveURL(/\/winner-list$/);
    await expect(page.getByRole("link", { name: "← Back" })).toHaveAttribute("href", "/");
    // Grouped by the prize won, said against this campaign's top prize.
    await expect(
      page.getByText(
        /grouped by the prize they won\. Earlier campaigns had larger prizes; this campaign's prizes go up to Rs\.\s[\d,]+\./,
      ),
    ).toBeVisible();
    const group = page.getByRole("region", { name: "Won Rs. 1 lakh" });
    const video = group.getByRole("link", { name: title });
    await expect(video).toHaveAttribute("href", "https://www.example.com/watch?v=one-lakh");
    await expect(video).toHaveAttribute("target", "_blank");
    await expect(page.locator("footer").getByRole("link", { name: "Privacy Policy" })).toHaveAttribute(
      "href",
      "/privacy-policy",
    );
    await expect(page.locator("footer .social a").first()).toHaveAttribute("target", "_blank");
  } finally {
    removeVideo(slug);
  }
});

test("switching to Nepali is remembered on every page", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("link", { name: "नेपाली" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "ne");
  await expect(page.getByRole("heading", { name: "सेयर गर्नुहोस्। जित्नुहोस्।" })).toBeVisible();
  await expect(page.locator(".hero .prize")).toContainText("सम्म जित्नुहोस्");
  await page.goto("/enquiry");
  await expect(page.locator("form[data-prereg]").getByLabel("पूरा नाम")).toBeVisible();
  await page.goto("/winner-list");
  await expect(page.getByRole("heading", { name: "विजेताहरू" })).toBeVisible();
  await page.goto("/book-a-ride");
  await expect(page.getByRole("dialog", { name: "राइड बुक गर्नुहोस्" })).toBeVisible();
  await page.getByRole("link", { name: "English" }).click();
  await expect(page).toHaveURL(/\/book-a-ride$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("dialog", { name: "Book a Ride" })).toBeVisible();
});
