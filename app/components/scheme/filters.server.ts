/**
 * Query-string filters of the scheme list and the draw audit, read the same
 * way by the pages, the JSON API and the download; anything malformed is ignored.
 */
import type { AllocationFilters } from "~/models/allocation.server";
import type { DrawFilters, DrawOutcome } from "~/models/prize-draw.server";
import { isAllocationType } from "~/models/prize-constants";
import { isIsoDate } from "~/utils/time";

const positiveInt = (v: string | null) => {
  const n = Number(v);
  return v && Number.isSafeInteger(n) && n > 0 ? n : null;
};
const isoDate = (v: string | null) => (v && isIsoDate(v) ? v : null);
const OUTCOMES: readonly DrawOutcome[] = ["pool", "fallback", "none"];

export function allocationFilters(params: URLSearchParams): AllocationFilters {
  const type = params.get("type");
  return {
    type: isAllocationType(type) ? type : null,
    branch_id: positiveInt(params.get("branch_id")),
    date: isoDate(params.get("date")),
  };
}

export function drawFilters(params: URLSearchParams): DrawFilters {
  const poolType = params.get("pool_type");
  const outcome = params.get("outcome") as DrawOutcome | null;
  const thrill = Number(params.get("thrill"));
  return {
    from: isoDate(params.get("from")),
    to: isoDate(params.get("to")),
    pool_type: isAllocationType(poolType) ? poolType : null,
    branch_id: positiveInt(params.get("branch_id")),
    outcome: outcome && OUTCOMES.includes(outcome) ? outcome : null,
    thrill: thrill === 2 || thrill === 3 ? thrill : null,
  };
}
