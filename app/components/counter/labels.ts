/** Client-safe labels of the counter screens. The pre-registration states live with the models. */
export { PREREGISTRATION_STATUSES, STATUS_LABELS, type PreregistrationStatus } from "~/models/preregistration-status";

/** A dashboard change as text: "+12.50%", "-33.33%", "0.00%"; "—" without a figure (nothing yesterday). */
export function formatChange(change: number | null): string {
  if (change === null) return "—";
  return `${change > 0 ? "+" : ""}${change.toFixed(2)}%`;
}
