/**
 * The print sheet's data: the registrations of the list's filters (or one by
 * slug), newest first, as coupons (customer copy with the phone masked,
 * dealer copy with it in full), at most `limit` of them with how many matched.
 */
import { entryReference } from "@db/reference";
import { db } from "@db/index";
import type { RegistrationStatus } from "~/schemas/registration";
import { publicBaseUrl } from "~/utils/share-link.server";
import { maskPhone } from "~/utils/phone";
import { bsOfDate, displayDay } from "~/utils/time";
import {
  countMatching,
  exportRegistrations,
  type RegistrationFilters,
  type RegistrationRow,
} from "./registration-list.server";
import { prizeHoldsOf } from "./integrity-flags.server";
import type { Scope } from "./scope.server";

/** Registrations printed at most on one sheet by default; narrower filters print the rest. */
const PRINT_LIMIT = 1000;
/** The most a `limit` may ask for. */
const PRINT_LIMIT_MAX = 5000;

/** The sheet's size from the query's `limit` (1 to 5,000; the default otherwise). */
export function printLimit(asked: string | null): number {
  const n = Number(asked);
  return Number.isInteger(n) && n > 0 ? Math.min(n, PRINT_LIMIT_MAX) : PRINT_LIMIT;
}

export type PrintCoupon = {
  slug: string;
  coupon_code: string;
  name: string;
  phone: string;
  phone_masked: string;
  model: string;
  engine_no: string;
  chasis_no: string;
  registration_no: string;
  bill_no: string;
  branch: string;
  date: string;
  /** The purchase date in Bikram Sambat (yyyy/MM/dd). */
  date_bs: string;
  status: RegistrationStatus;
  prizes: { first: number; second: number; third: number; total: number };
  /** The coupon draw's public id, and where the buyer checks it (decision 19). */
  draw_id: string;
  check_url: string;
};

export function toPrintCoupon(r: RegistrationRow): PrintCoupon {
  return {
    slug: r.slug,
    coupon_code: r.coupon_code,
    name: r.name,
    phone: r.phone,
    phone_masked: maskPhone(r.phone),
    model: r.bike_model.title,
    engine_no: r.engine_no,
    chasis_no: r.chasis_no,
    registration_no: r.registration_no,
    bill_no: r.bill_no,
    branch: r.branch.title,
    date: displayDay(r.purchase_date),
    date_bs: bsOfDate(r.purchase_date),
    status: r.status,
    prizes: r.prizes,
    draw_id: entryReference(r.slug),
    check_url: `${publicBaseUrl()}/fair-draws`,
  };
}

/**
 * The print sheet's rows (the filters, at most `limit`), with how many matched in all. A registration
 * whose prize is under review or voided by head office (decision 21) is not among them: it is listed
 * in `held` with why, and its coupon is not printed until head office clears it.
 */
export function printRegistrations(scope: Scope, filters: RegistrationFilters, limit = PRINT_LIMIT) {
  const rows = [...exportRegistrations(scope, filters, { limit })];
  const total = rows.length < limit ? rows.length : countMatching(scope, filters);
  const holds = prizeHoldsOf(
    db,
    rows.map((r) => r.preregistration_id),
  );
  const held = rows.flatMap((r) => {
    const hold = holds.get(r.preregistration_id);
    return hold ? [{ slug: r.slug, name: r.name, bill_no: r.bill_no, hold }] : [];
  });
  return { data: rows.filter((r) => !holds.has(r.preregistration_id)), held, total, limit };
}

/**
 * The print sheet as the page prints it (decision 17): only registrations
 * whose coupon is drawn become coupons; the others are left out and listed,
 * so no coupon leaves the counter without its third-thrill amount; nor one
 * whose prize head office holds (decision 21).
 */
export function printSheet(scope: Scope, filters: RegistrationFilters, limit = PRINT_LIMIT) {
  const sheet = printRegistrations(scope, filters, limit);
  const all = sheet.data.map(toPrintCoupon);
  return {
    coupons: all.filter((c) => c.status === "drawn"),
    pending: all.filter((c) => c.status !== "drawn"),
    held: sheet.held,
    total: sheet.total,
    limit: sheet.limit,
  };
}
