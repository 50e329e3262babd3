/**
 * Labels the models and the screens share (client-safe: no database, no
 * server modules). Models import them from here; components import them from
 * here too, so a model never reaches into app/components.
 */

/** A dashboard change as text: "+12.50%", "-33.33%", "0.00%"; "—" without a figure (nothing yesterday). */
export function formatChange(change: number | null): string {
  if (change === null) return "—";
  return `${change > 0 ? "+" : ""}${change.toFixed(2)}%`;
}

const OTHER_BRANCH_REFERRER = "A customer of another branch";

/**
 * Who referred a buyer, as the screens and the download show it: the name
 * typed, or the referring customer's name when the viewer's scope reaches
 * them, or only that a customer of another branch referred them.
 */
export function referrerText(r: {
  referred_by: string | null;
  referrer: { name: string } | null;
  registration_id: number | null;
}): string {
  return r.referred_by ?? r.referrer?.name ?? (r.registration_id ? OTHER_BRANCH_REFERRER : "");
}
