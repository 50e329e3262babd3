/**
 * A pre-registration as it is read: the detail with its names and links (staff
 * and the public pages), what a visitor is shown of their own entry, the state
 * of its code's SMS, and the prize summary. The writes are
 * app/models/preregistration.server.ts.
 */
import { and, eq, isNull } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { db, schema } from "@db/index";
import type { Preregistration } from "@db/schema";
import { firstThrill, totalPrize } from "~/utils/prize-constants";
import { maskPhone } from "~/utils/phone";
import { fileUrl } from "./file.server";
import { canResendAt } from "./otp.server";
import type { Scope } from "./scope.server";
import { codeDelivery } from "./sms.server";
import { preregistrationScope, rowBySlug } from "./preregistration-reach.server";
import { maskCitizenship } from "~/utils/citizenship";

const { preregistrations: P, bikeModels, branches, registrations } = schema;
const nearestBranches = alias(branches, "nearest_branch");

// ---------------------------------------------------------------- reading

export type PreregistrationDetail = Preregistration & {
  verified: boolean;
  screenshot_url: string | null;
  bike_model: { id: number; title: string } | null;
  branch: { id: number; title: string } | null;
  nearest_branch: { id: number; title: string } | null;
  registration: { slug: string } | null;
};

/** One pre-registration with its relations, by its public slug (inside the scope when given). */
export function getPreregistrationBySlug(slug: string, scope?: Scope): PreregistrationDetail | null {
  if (!slug) return null;
  const row = db
    .select({
      entry: P,
      bike_model_title: bikeModels.title,
      branch_title: branches.title,
      nearest_title: nearestBranches.title,
      registration_slug: registrations.slug,
    })
    .from(P)
    .leftJoin(bikeModels, eq(bikeModels.id, P.bike_model_id))
    .leftJoin(branches, eq(branches.id, P.branch_id))
    .leftJoin(nearestBranches, eq(nearestBranches.id, P.nearest_branch_id))
    .leftJoin(registrations, and(eq(registrations.preregistration_id, P.id), isNull(registrations.deleted_at)))
    .where(and(eq(P.slug, slug), isNull(P.deleted_at), preregistrationScope(scope)))
    .get();
  if (!row) return null;
  const e = row.entry;
  return {
    ...e,
    verified: e.is_verified,
    screenshot_url: fileUrl(e.screenshot_id),
    bike_model: e.bike_model_id ? { id: e.bike_model_id, title: row.bike_model_title ?? "" } : null,
    branch: e.branch_id ? { id: e.branch_id, title: row.branch_title ?? "" } : null,
    nearest_branch: e.nearest_branch_id ? { id: e.nearest_branch_id, title: row.nearest_title ?? "" } : null,
    registration: row.registration_slug ? { slug: row.registration_slug } : null,
  };
}

export type PublicPreregistration = {
  slug: string;
  phone: string;
  is_verified: boolean;
  verified: boolean;
  status: Preregistration["status"];
  shared: boolean;
  prize: number | null;
  first_thrill: number;
  total_prize: number;
  created_at: string;
};

/** What public pages and the public API may show: no personal data beyond the masked phone, never the code. */
export function publicView(entry: Preregistration): PublicPreregistration {
  const verified = entry.is_verified;
  return {
    slug: entry.slug,
    phone: maskPhone(entry.phone),
    is_verified: verified,
    verified,
    status: entry.status,
    shared: entry.shared,
    prize: verified ? entry.prize : null,
    first_thrill: firstThrill(entry),
    total_prize: verified ? totalPrize(entry) : 0,
    created_at: entry.created_at,
  };
}

export type OwnerDetails = { name: string; address: string; email: string | null; citizenship_no: string };

/**
 * What the browser that created or proved the entry may see besides the public
 * view: the details its visitor typed, the citizenship number masked. Never the
 * code, nor the full phone, nor the full citizenship number.
 */
export function ownerDetails(entry: Preregistration): OwnerDetails {
  return {
    name: entry.name,
    address: entry.address,
    email: entry.email,
    citizenship_no: maskCitizenship(entry.citizenship_no),
  };
}

/** The public view with the owner's details (the public API, for the browser that owns the entry). */
export function ownerView(entry: Preregistration): PublicPreregistration & OwnerDetails {
  return { ...publicView(entry), ...ownerDetails(entry) };
}

/**
 * How the SMS of an entry's latest verification code fares, as the visitor is told (decision 8):
 * `failed` (it will not arrive: the code could not be sent, resend), `retrying` (the gateway
 * failed, it is being tried again), `queued` (not handed over yet) or `sent`. Null for an entry
 * already verified or without a code.
 */
export type CodeSms = "queued" | "retrying" | "sent" | "failed";

export function codeSmsOf(entry: Pick<Preregistration, "id" | "is_verified">): CodeSms | null {
  if (entry.is_verified) return null;
  const sms = codeDelivery("otp", entry.id);
  if (!sms) return null;
  // Retrying once the gateway failed it (its error kept): a first send still with the gateway is only queued.
  return sms.status === "queued" && sms.error !== null ? "retrying" : sms.status;
}

/** When the visitor may ask for a new code, and how its SMS fares (never the code itself). */
export function verificationState(entry: Preregistration): { resendAt: string; codeSms: CodeSms | null } {
  return { resendAt: canResendAt("preregistration", entry.id).toISOString(), codeSms: codeSmsOf(entry) };
}

/** The public entry by slug (never a deleted one). */
export function findPublicEntry(slug: string): Preregistration | null {
  return rowBySlug(db, slug);
}
