/** The audit trail of a draw in words (the expanded row and the download). Client-safe. */
import type { PoolAudit, Roll } from "~/models/prize-draw.server";

export const poolText = (p: PoolAudit) =>
  `#${p.id} Rs ${p.amount} x${p.count} (paid ${p.paid}, remaining ${p.remaining}) at ${p.probability} in 100`;

export const rollText = (r: Roll) =>
  r.stage === "pool"
    ? `pool #${r.allocation_id} (Rs ${r.amount}, ${r.probability} in 100): ${r.value.toFixed(6)} → ${r.win ? "win" : "no win"}`
    : `${r.table}-thrill base table: ${r.value.toFixed(6)} → Rs ${r.amount}`;
