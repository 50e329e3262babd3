/**
 * The prize lists and prize arithmetic of the campaign (spec 000 §9, spec 001 §3 and §9).
 * Client-safe: no server imports. The first thrill and the total prize are
 * computed here and nowhere else.
 */

import { ALLOCATION_TYPES } from "@db/enums";
import { englishLabels } from "~/utils/labels";
import { formatRupees } from "~/utils/rupees";

export type PrizeOption = { amount: number; label: string };

export { ALLOCATION_TYPES };
export type AllocationType = (typeof ALLOCATION_TYPES)[number];

export const ALLOCATION_TYPE_LABELS: Record<AllocationType, string> = englishLabels("allocation_type");

/** The pool types as a select's choices. */
export const ALLOCATION_TYPE_OPTIONS = ALLOCATION_TYPES.map((t) => ({ value: t, label: ALLOCATION_TYPE_LABELS[t] }));

export const isAllocationType = (value: unknown): value is AllocationType =>
  typeof value === "string" && (ALLOCATION_TYPES as readonly string[]).includes(value);

/** Allocation types whose pools belong to one branch. */
export const BRANCH_ALLOCATION_TYPES: readonly AllocationType[] = ["preregistration_branch", "registration_branch"];

export const typeNeedsBranch = (type: AllocationType) => BRANCH_ALLOCATION_TYPES.includes(type);

/** First thrill: a fixed bonus for a verified pre-registration shared on social media. */
export const FIRST_THRILL = 1000;

/** Words used for round amounts instead of figures. */
const AMOUNT_WORDS: Record<number, string> = {
  100000: "One Lakh",
};

/** "Rs. 4,000"; "One Lakh" for 100000. */
export function prizeLabel(amount: number): string {
  return AMOUNT_WORDS[amount] ?? formatRupees(amount);
}

const option = (amount: number): PrizeOption => ({ amount, label: prizeLabel(amount) });

const steps = (from: number, to: number, step = 1000): number[] => {
  const out: number[] = [];
  for (let a = from; a <= to; a += step) out.push(a);
  return out;
};

/** Pre-registration prize labels (second thrill): 4000..18000 step 1000, 20000, 50000. */
export const PRE_PRIZES: readonly PrizeOption[] = [...steps(4000, 18000), 20000, 50000].map(option);

/** Registration prizes (third thrill): 1000..15000 step 1000, 20000, 50000, 100000 (One Lakh). */
export const REGISTRATION_PRIZES: readonly PrizeOption[] = [...steps(1000, 15000), 20000, 50000, 100000].map(option);

/** Registration pre-prizes (filter list of the registration screen): 8000..18000 step 1000, 50000. */
export const REGISTRATION_PRE_PRIZES: readonly PrizeOption[] = [...steps(8000, 18000), 50000].map(option);

/** Winner video amounts with their wording. */
export const VIDEO_AMOUNTS: readonly PrizeOption[] = [
  { amount: 50000, label: "Fifty Thousand" },
  { amount: 100000, label: "One Lakh" },
  { amount: 1000000, label: "Ten Lakh" },
];

/** Allocation amounts offered for a type: the pre-prize list for the pre-registration types, the prize list otherwise. */
export function prizeOptionsForType(type: AllocationType): readonly PrizeOption[] {
  return type === "registration_branch" ? REGISTRATION_PRIZES : PRE_PRIZES;
}

export function amountsForType(type: AllocationType): number[] {
  return prizeOptionsForType(type).map((o) => o.amount);
}

export type PrizeHolder = {
  shared: boolean | null | undefined;
  is_verified: boolean | null | undefined;
  /** Second thrill (pre-registration prize). */
  prize?: number | null;
  /** Third thrill (registration coupon). */
  coupon_amount?: number | null;
};

/** Rs 1000 when the pre-registration is verified and shared, else 0. */
export function firstThrill(entry: Pick<PrizeHolder, "shared" | "is_verified">): number {
  return entry.shared && entry.is_verified ? FIRST_THRILL : 0;
}

export type PrizeBreakdown = { first: number; second: number; third: number; total: number };

/** First, second and third thrill with their total. */
export function prizeBreakdown(entry: PrizeHolder): PrizeBreakdown {
  const first = firstThrill(entry);
  const second = entry.prize ?? 0;
  const third = entry.coupon_amount ?? 0;
  return { first, second, third, total: first + second + third };
}

/** Total = first + second + third. */
export function totalPrize(entry: PrizeHolder): number {
  return prizeBreakdown(entry).total;
}
