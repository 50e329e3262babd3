/** Display helpers of the scheme screens (client-safe). */
import { englishLabels } from "~/utils/labels";
import { ALLOCATION_TYPE_LABELS, isAllocationType } from "~/utils/prize-constants";
import { formatRupees } from "~/utils/rupees";

export const typeLabel = (type: string) => (isAllocationType(type) ? ALLOCATION_TYPE_LABELS[type] : type);

/** Whole rupees with Nepali grouping: 150000 → "Rs. 1,50,000". */
export const rupees = (amount: number) => formatRupees(Math.round(amount));

/** An expected count shown to two decimals. */
export const expected = (value: number) => value.toFixed(2);

export const OUTCOME_LABELS: Record<string, string> = englishLabels("draw_outcome");

export const THRILL_LABELS: Record<number, string> = { 2: "Second", 3: "Third" };

/** A pool's chance as the screens say it; 0 reads as a pool that never pays (saved only when asked for). */
export const probabilityText = (probability: number) =>
  probability === 0 ? "0 in 100: never pays" : `${probability} in 100`;
