/**
 * The value lists of the enumerated columns, written once: db/schema.ts builds
 * the columns from them (so `table.column.enumValues` is the same array), and
 * the shared zod schemas and screens read them from here. Plain data with no
 * imports, so the browser bundles get the lists without drizzle.
 */

/** allocations.type and draws.pool_type */
export const ALLOCATION_TYPES = ["preregistration_public", "preregistration_branch", "registration_branch"] as const;

/** registrations.payment_mode */
export const PAYMENT_MODES = [
  "CASH",
  "CASH_EXCHANGE",
  "FINANCE",
  "FINANCE_EXCHANGE",
  "SELF_FINANCE",
  "SELF_FINANCE_EXCHANGE",
] as const;

/** registrations.status: made (code sent), confirmed with the customer's code, coupon drawn. */
export const REGISTRATION_STATUSES = ["pending", "confirmed", "drawn"] as const;

/** test_rides.type */
export const TEST_RIDE_TYPES = ["TESTRIDE", "BOOKING"] as const;

/** sms_broadcasts.type */
export const BROADCAST_TYPES = ["ALL", "BRANCH", "REGISTRANTS", "MOBILE"] as const;

/** sms_messages.status (a broadcast's recipients and the outbox alike). */
export const SMS_STATUSES = ["queued", "sent", "failed"] as const;

/** sms_messages.purpose (a text column: the sender writes only these). */
export const SMS_PURPOSES = ["otp", "purchase-code", "notify", "password-reset", "broadcast"] as const;

/** preregistrations.source, the sources of information (a text column: the form admits only these). */
export const SOURCE_OPTIONS = [
  "NEWSPAPER",
  "SOCIAL MEDIA",
  "RADIO",
  "TVC",
  "EXISTING CUSTOMER",
  "LEAFLET",
  "EXCHANGE MELA",
  "ROAD SHOW",
  "BRAND WEBSITE",
  "ONLINE MEDIA",
  "TEST RIDE",
  "OTHERS",
] as const;

/** integrity_flags.reason: why a flag was raised (docs/decisions/0021-integrity-desk.md). */
export const INTEGRITY_REASONS = [
  "shared-citizenship",
  "shared-vehicle",
  "address-burst",
  "phone-run",
  "shared-screenshot",
  "improbable-wins",
  "poaching",
  "off-hours",
  "remade-entry",
] as const;

/** integrity_flags.subject_type: what a flag is about. */
export const INTEGRITY_SUBJECTS = ["entry", "registration", "user", "branch", "range"] as const;

/** integrity_flags.status: open (raised, nobody has decided), held, cleared, voided (the prize). */
export const FLAG_STATUSES = ["open", "held", "cleared", "voided"] as const;
