/**
 * The "Book a Ride" place cascade of spec 001 §7 (client-safe, no database):
 * a state narrows the districts, a district the cities, a city the branches
 * (and selects the first). The server renders the narrowed lists from the
 * values sent (no JavaScript); the booking model checks a booking against it.
 */

export type BookingBranch = { id: number; title: string; state: string; district: string; city: string };

export type BookingSelection = {
  state?: string | null;
  district?: string | null;
  city?: string | null;
  branch_id?: number | string | null;
};

export type BookingCascade = {
  states: string[];
  districts: string[];
  cities: string[];
  branches: BookingBranch[];
  /** The selection cleaned of values outside the narrowed lists, with the first branch auto-selected once a city is chosen. */
  selection: { state: string; district: string; city: string; branch_id: number | null };
};

const sortedUnique = (values: string[]) => [...new Set(values)].sort((a, b) => a.localeCompare(b));

/** Without a choice a level offers every value under the levels chosen above it. */
export function narrowBooking(all: BookingBranch[], sel: BookingSelection): BookingCascade {
  const states = sortedUnique(all.map((b) => b.state));
  const state = sel.state && states.includes(sel.state) ? sel.state : "";
  const inState = state ? all.filter((b) => b.state === state) : all;
  const districts = sortedUnique(inState.map((b) => b.district));
  const district = sel.district && districts.includes(sel.district) ? sel.district : "";
  const inDistrict = district ? inState.filter((b) => b.district === district) : inState;
  const cities = sortedUnique(inDistrict.map((b) => b.city));
  const city = sel.city && cities.includes(sel.city) ? sel.city : "";
  const branchList = city ? inDistrict.filter((b) => b.city === city) : inDistrict;
  const wanted = Number(sel.branch_id);
  const chosen = branchList.find((b) => b.id === wanted);
  const branch_id = chosen ? chosen.id : city && branchList.length ? branchList[0].id : null;
  return { states, districts, cities, branches: branchList, selection: { state, district, city, branch_id } };
}
