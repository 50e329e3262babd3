/**
 * The analytics figures' shapes and their one rate rule, client-safe (no
 * database): the model (analytics.server.ts) fills them, the page and
 * GET /api/v1/analytics hand them out.
 */
import type { AllocationType } from "~/utils/prize-constants";
import type { PaymentMode } from "~/schemas/registration";

/** a / b in percent, 2 decimals; null when b is 0. */
export function rate(a: number, b: number): number | null {
  return b === 0 ? null : Math.round((a / b) * 10000) / 100;
}

/** A range of Kathmandu days, both included. */
export type DayRange = { from: string; to: string; days: number };

export type Change = { value: number; previous: number; change: number | null };

export type DailyRow = {
  date: string;
  preregistrations: number;
  verifications: number;
  registrations: number;
  test_rides: number;
};

export type Funnel = {
  preregistered: number;
  verified: number;
  purchased: number;
  /** Percent, 2 decimals; null when the step before is 0. */
  rates: { verified: number | null; purchased: number | null; overall: number | null };
};

export type ThrillRow = { thrill: "first" | "second" | "third"; label: string; count: number; amount: number };

export type PrizeTypeRow = {
  type: AllocationType;
  label: string;
  /** Σ count × amount of the pools dated in the range; null where the pools are not the caller's (public pools for a branch). */
  allowed: number | null;
  allowed_count: number | null;
  pool_count: number;
  pool_amount: number;
  fallback_count: number;
  fallback_amount: number;
  none_count: number;
};

export type BranchRow = {
  id: number | null;
  title: string;
  preregistrations: number;
  verified: number;
  purchased: number;
  registrations: number;
  test_rides: number;
};

export type ModelRow = {
  id: number | null;
  title: string;
  preregistrations: number;
  registrations: number;
  test_rides: number;
};
export type SourceRow = {
  source: string | null;
  label: string;
  preregistrations: number;
  verified: number;
  purchased: number;
};
export type PaymentRow = { payment_mode: PaymentMode; label: string; registrations: number };

export type Analytics = {
  range: DayRange;
  previous: DayRange;
  /** The range is the campaign so far (no dates given, or the dates given could not be read). */
  default_range: boolean;
  totals: {
    preregistrations: Change;
    verifications: Change;
    registrations: Change;
    test_rides: Change;
    prize_money: Change;
  };
  daily: DailyRow[];
  funnel: Funnel;
  prizes: { by_thrill: ThrillRow[]; total: number; by_type: PrizeTypeRow[] };
  by_branch: BranchRow[];
  by_model: ModelRow[];
  by_source: SourceRow[];
  by_payment_mode: PaymentRow[];
};
