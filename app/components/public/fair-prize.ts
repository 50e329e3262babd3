import { rupees, t, type Lang } from "~/utils/i18n";

/** A draw's prize as /fair-draws says it: "no prize" for a draw that won nothing, never "Rs. 0". */
export const prizeText = (lang: Lang, amount: number, outcome: string) =>
  outcome === "none" ? t(lang, "fair.prize.none") : rupees(lang, amount);
