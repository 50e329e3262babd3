/** Helpers of the counter specs: fresh numbers, and records made quickly through the staff API. */
import { expect, type APIRequestContext, type Page } from "@playwright/test";
import crypto from "node:crypto";
import { apiToken, lastCode } from "./helpers";

export const freshPhone = () => `98${String(crypto.randomInt(0, 100_000_000)).padStart(8, "0")}`;
export const freshDigits = (n = 10) => String(crypto.randomInt(10 ** (n - 1), 10 ** n - 1));
export const freshCode = (prefix: string) => `${prefix}${crypto.randomBytes(5).toString("hex").toUpperCase()}`;
/** A 6-digit code that is not `code`. */
export const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

export const MISMATCH = "the code you have selected is incorrect. Please try again or resend the code";
export const ENTER_CODE = "Enter the registration code the customer received";

type Pre = { slug: string; id: number; phone: string };

/** A pre-registration made at the counter of the token's branch, verified with the customer's code. */
export async function verifiedPreregistration(
  request: APIRequestContext,
  token: string,
  over: Record<string, unknown> = {},
): Promise<Pre> {
  const phone = freshPhone();
  const res = await request.post("/api/v1/preregistration", {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      name: "Api Customer",
      address: "Counter Road",
      phone,
      citizenship_no: freshDigits(),
      bike_model_id: 1,
      ...over,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const pre = (await res.json()).data as Pre;
  const verify = await request.post(`/api/v1/preregistration/${pre.slug}/verify`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { code: lastCode(phone) },
  });
  expect(verify.status(), await verify.text()).toBe(200);
  return { ...pre, phone };
}

export type Reg = {
  slug: string;
  id: number;
  engine_no: string;
  chasis_no: string;
  registration_no: string;
  phone: string;
  coupon_code: string;
};

/** A registration made through the API from a fresh verified pre-registration. */
export async function apiRegistration(
  request: APIRequestContext,
  token: string,
  over: Record<string, unknown> = {},
): Promise<Reg> {
  const pre = await verifiedPreregistration(request, token);
  const res = await request.post("/api/v1/registration", {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      preregistration_id: pre.slug,
      bill_no: freshCode("BL"),
      name: "Api Buyer",
      address: "Counter Road",
      citizenship_no: freshDigits(),
      bike_model_id: 1,
      engine_no: freshCode("EN"),
      chasis_no: freshCode("CH"),
      registration_no: freshCode("BA"),
      payment_mode: "CASH",
      ...over,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).data as Reg;
}

export async function tokenFor(request: APIRequestContext, email: string) {
  return apiToken(request, email);
}

/** Fills a labelled field (labels carry a " *" for required fields). */
export async function fill(page: Page, label: string, value: string) {
  await page.getByLabel(label, { exact: false }).first().fill(value);
}
