/**
 * Query-string filters of the scheme list and the draw audit, read the same
 * way by the pages, the JSON API and the download; anything malformed is
 * ignored. A day is typed yyyy/MM/dd (yyyy-MM-dd is read too); the pages show
 * the message of a day that does not read under its field (`dayErrors`).
 */
import type { AllocationFilters } from "~/models/allocation.server";
import type { DrawFilters, DrawOutcome } from "~/models/prize-draw.server";
import { isAllocationType } from "~/models/prize-constants";
import { DAY_MESSAGE, readDay } from "~/schemas/primitives";

const positiveInt = (v: string | null) => {
  const n = Number(v);
  return v && Number.isSafeInteger(n) && n > 0 ? n : null;
};
const day = (v: string | null) => (v?.trim() ? readDay(v) : null);
const OUTCOMES: readonly DrawOutcome[] = ["pool", "fallback", "none"];

/** The message of each named day that is given but does not read. */
export function dayErrors(params: URLSearchParams, names: readonly string[]): Record<string, string[]> {
  return Object.fromEntries(
    names.flatMap((name) => {
      const v = params.get(name)?.trim();
      return v && readDay(v) === null ? [[name, [DAY_MESSAGE]]] : [];
    }),
  );
}

export function allocationFilters(params: URLSearchParams): AllocationFilters {
  const type = params.get("type");
  return {
    type: isAllocationType(type) ? type : null,
    branch_id: positiveInt(params.get("branch_id")),
    date: day(params.get("date")),
  };
}

export function drawFilters(params: URLSearchParams): DrawFilters {
  const poolType = params.get("pool_type");
  const outcome = params.get("outcome") as DrawOutcome | null;
  const thrill = Number(params.get("thrill"));
  return {
    from: day(params.get("from")),
    to: day(params.get("to")),
    pool_type: isAllocationType(poolType) ? poolType : null,
    branch_id: positiveInt(params.get("branch_id")),
    outcome: outcome && OUTCOMES.includes(outcome) ? outcome : null,
    thrill: thrill === 2 || thrill === 3 ? thrill : null,
  };
}
