import type { LoaderFunctionArgs } from "@remix-run/node";
import { publishedDay } from "~/models/fair-draw.server";
import { apiData, notFound, validationError } from "~/http/api.server";
import { methodNotAllowed } from "~/http/http.server";

/**
 * GET /api/v1/fair-draws/{date} (public): the day's record as JSON (what scripts/verify-draws.mjs
 * and scripts/verify_draws.py check): its terms, the chain from its first record to its last, the
 * head before and after, and the house seed once the day is closed. 422 for a date that is not
 * YYYY-MM-DD, 404 for a day never committed.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const date = params.date ?? "";
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return validationError({ date: ["The date must be YYYY-MM-DD."] });
  const day = publishedDay(date);
  if (!day) return notFound("Draw day");
  // A closed day never changes again; a running day grows with every entry and draw.
  const cache = day.closed ? "public, max-age=3600" : "no-store";
  return apiData(day, "", { headers: { "Cache-Control": cache } });
}

/** Not a call to change anything: 405 with Allow. */
export const action = () => methodNotAllowed("GET");
