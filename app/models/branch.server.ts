/**
 * Branch (showroom) lookups for the public site and for other screens: the
 * ordered branch list, the Nearby Showrooms filter (Zone = state, Location =
 * district) and the plain options list. Deleted branches never show.
 */
import { and, asc, eq, isNull } from "drizzle-orm";
import { db, schema } from "@db/index";

const { branches } = schema;

export type PublicBranch = {
  id: number;
  slug: string;
  title: string;
  state: string;
  district: string;
  city: string;
  location: string | null;
  email: string | null;
  phone: string | null;
  mobile: string | null;
};

const publicColumns = {
  id: branches.id,
  slug: branches.slug,
  title: branches.title,
  state: branches.state,
  district: branches.district,
  city: branches.city,
  location: branches.location,
  email: branches.email,
  phone: branches.phone,
  mobile: branches.mobile,
};

/** Every active branch ordered by state, district, city and title (GET /api/v1/branches, the booking form). */
export function listBranches(): PublicBranch[] {
  return db
    .select(publicColumns)
    .from(branches)
    .where(isNull(branches.deleted_at))
    .orderBy(asc(branches.state), asc(branches.district), asc(branches.city), asc(branches.title), asc(branches.id))
    .all();
}

/** `{ id, title }` of every active branch by title, for selects on any screen. */
export function listBranchOptions(): { id: number; title: string }[] {
  return db
    .select({ id: branches.id, title: branches.title })
    .from(branches)
    .where(isNull(branches.deleted_at))
    .orderBy(asc(branches.title), asc(branches.id))
    .all();
}

/** An active branch by id, or null. */
export function findActiveBranch(id: number): PublicBranch | null {
  return (
    db
      .select(publicColumns)
      .from(branches)
      .where(and(eq(branches.id, id), isNull(branches.deleted_at)))
      .get() ?? null
  );
}

/** A phone value split on "/" into separate numbers (spec 000 §2), each with its tel: address. */
export function splitPhones(phone: string | null | undefined): { label: string; href: string }[] {
  return (phone ?? "")
    .split("/")
    .map((p) => p.trim())
    .filter(Boolean)
    .map((label) => ({ label, href: `tel:${label.replace(/[^0-9+]/g, "")}` }));
}

const uniqueSorted = (values: string[]) => [...new Set(values)].sort((a, b) => a.localeCompare(b));

export type ShowroomCard = PublicBranch & { phones: { label: string; href: string }[] };

export type ShowroomFilter = {
  /** Zone options (states). */
  states: string[];
  /** Location options (districts of the chosen zone; every district without one). */
  districts: string[];
  /** The filter actually applied: an unknown zone, or a location outside the zone, is dropped. */
  state: string;
  district: string;
  showrooms: ShowroomCard[];
};

/** Nearby Showrooms: filter by Zone (state), then Location (district). */
export function findShowrooms(filter: { state?: string | null; district?: string | null } = {}): ShowroomFilter {
  const all = listBranches();
  const states = uniqueSorted(all.map((b) => b.state));
  const state = filter.state && states.includes(filter.state) ? filter.state : "";
  const inState = state ? all.filter((b) => b.state === state) : all;
  const districts = uniqueSorted(inState.map((b) => b.district));
  const district = filter.district && districts.includes(filter.district) ? filter.district : "";
  const showrooms = (district ? inState.filter((b) => b.district === district) : inState).map((b) => ({
    ...b,
    phones: splitPhones(b.phone),
  }));
  return { states, districts, state, district, showrooms };
}
