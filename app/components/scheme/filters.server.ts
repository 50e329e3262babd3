/**
 * Query-string filters of the scheme list, read the same way by the page and
 * the JSON API; anything malformed is ignored. A day is typed yyyy/MM/dd (yyyy-MM-dd is read too); the pages show
 * the message of a day that does not read under its field (`dayErrors`).
 */
import type { AllocationFilters } from "~/models/allocation.server";
import { isAllocationType } from "~/models/prize-constants";
import { DAY_MESSAGE, readDay } from "~/schemas/primitives";

const positiveInt = (v: string | null) => {
  const n = Number(v);
  return v && Number.isSafeInteger(n) && n > 0 ? n : null;
};
const day = (v: string | null) => (v?.trim() ? readDay(v) : null);

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
