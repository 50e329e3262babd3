// A branch user cannot see, edit, print or download another branch's records, by page or by API.
import { expect, test } from "@playwright/test";
import XLSX from "sheetjs-style";
import { login, USERS } from "./helpers";
import { apiRegistration, freshDigits, freshPhone, tokenFor } from "./counter-helpers";

test("another branch's registration and pre-registration stay out of reach", async ({ page, request }) => {
  const managerToken = await tokenFor(request, USERS.manager); // Kathmandu Central
  const theirs = await apiRegistration(request, managerToken, { name: "Other Branch Buyer" });
  const created = await request.post("/api/v1/preregistration", {
    headers: { Authorization: `Bearer ${managerToken}` },
    data: { name: "Other Branch Customer", address: "Baneshwor", phone: freshPhone(), citizenship_no: freshDigits() },
  });
  const theirPre = (await created.json()).data as { slug: string };

  await login(page, USERS.staff); // Lalitpur Motors
  for (const path of [
    `/admin/registration/${theirs.slug}`,
    `/admin/registration/${theirs.slug}/edit`,
    `/admin/registration/${theirs.slug}/draw`,
  ]) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(404);
  }
  await page.goto(`/admin/preregistration/${theirPre.slug}`);
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto(`/admin/print?slug=${theirs.slug}&preview=1`);
  await expect(page.locator(".coupon")).toHaveCount(0);
  await expect(page.getByText("No registrations match these filters.")).toBeVisible();
  await page.goto(`/admin/registration?search=${theirs.engine_no}`);
  await expect(page.getByText("Showing 0 - 0 of 0 entries")).toBeVisible();

  const staffToken = await tokenFor(request, USERS.staff);
  const auth = { Authorization: `Bearer ${staffToken}` };
  expect((await request.get(`/api/v1/registration/${theirs.slug}`, { headers: auth })).status()).toBe(404);
  const edit = {
    bill_no: "1",
    name: "x",
    address: "y",
    citizenship_no: "1",
    bike_model_id: 1,
    engine_no: "E1X",
    chasis_no: "C1X",
    registration_no: "R1X",
  };
  expect((await request.post(`/api/v1/registration/${theirs.slug}`, { headers: auth, data: edit })).status()).toBe(404);
  expect((await request.post(`/api/v1/registration/${theirs.slug}/draw`, { headers: auth })).status()).toBe(404);
  expect((await request.get(`/api/v1/preregistration/${theirPre.slug}`, { headers: auth })).status()).toBe(404);
  const print = await (await request.get(`/api/v1/registration/print?slug=${theirs.slug}`, { headers: auth })).json();
  expect(print.data.data).toEqual([]);
  const file = await request.get(`/api/v1/registration/download?search=${theirs.engine_no}`, { headers: auth });
  const rows = XLSX.utils.sheet_to_json(XLSX.read(await file.body(), { type: "buffer" }).Sheets.Registrations);
  expect(rows).toEqual([]);
});
