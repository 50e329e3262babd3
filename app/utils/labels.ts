/**
 * The human labels of every enumeration staff meet: one table per
 * enumeration, value → { en, ne }. Lists, details, the .xls downloads and the
 * API's `*_label` fields all read them from here, so a stored code (CASH_EXCHANGE,
 * TESTRIDE, registration_branch) is never what a person reads.
 * Client-safe: no server imports. Each table is typed by its column or its list
 * in db/enums.ts, so a value added to db/schema.ts or db/enums.ts fails to compile
 * until it has its labels (and tests/integration/labels.test.ts walks the enums at run time).
 */
import type { Draw, Preregistration, Registration, SmsBroadcast, SmsMessage, TestRide, User } from "@db/schema";
import type {
  ALLOCATION_TYPES,
  FLAG_STATUSES,
  INTEGRITY_REASONS,
  INTEGRITY_SUBJECTS,
  SMS_PURPOSES,
  SOURCE_OPTIONS,
} from "@db/enums";

export type Label = { en: string; ne: string };
export type Lang = keyof Label;

const PAYMENT_MODE: Record<Registration["payment_mode"], Label> = {
  CASH: { en: "Cash", ne: "नगद" },
  CASH_EXCHANGE: { en: "Cash + Exchange", ne: "नगद + एक्सचेन्ज" },
  FINANCE: { en: "Finance", ne: "फाइनान्स" },
  FINANCE_EXCHANGE: { en: "Finance + Exchange", ne: "फाइनान्स + एक्सचेन्ज" },
  SELF_FINANCE: { en: "Self Finance", ne: "सेल्फ फाइनान्स" },
  SELF_FINANCE_EXCHANGE: { en: "Self Finance + Exchange", ne: "सेल्फ फाइनान्स + एक्सचेन्ज" },
};

/** Sources of information: the public form's options (both languages) and the staff screens. */
const SOURCE: Record<(typeof SOURCE_OPTIONS)[number], Label> = {
  NEWSPAPER: { en: "Newspaper", ne: "पत्रपत्रिका" },
  "SOCIAL MEDIA": { en: "Social media", ne: "सामाजिक सञ्जाल" },
  RADIO: { en: "Radio", ne: "रेडियो" },
  TVC: { en: "TV commercial", ne: "टिभी विज्ञापन" },
  "EXISTING CUSTOMER": { en: "Existing customer", ne: "हालका ग्राहक" },
  LEAFLET: { en: "Leaflet", ne: "पर्चा" },
  "EXCHANGE MELA": { en: "Exchange mela", ne: "एक्सचेन्ज मेला" },
  "ROAD SHOW": { en: "Road show", ne: "रोड शो" },
  "BRAND WEBSITE": { en: "Brand website", ne: "ब्रान्डको वेबसाइट" },
  "ONLINE MEDIA": { en: "Online media", ne: "अनलाइन मिडिया" },
  "TEST RIDE": { en: "Test ride", ne: "टेस्ट राइड" },
  OTHERS: { en: "Others", ne: "अन्य" },
};

const PREREGISTRATION_STATUS: Record<Preregistration["status"], Label> = {
  unverified: { en: "Unverified", ne: "प्रमाणित नभएको" },
  verified: { en: "Verified", ne: "प्रमाणित" },
  purchased: { en: "Purchased", ne: "खरिद भएको" },
};

const REGISTRATION_STATUS: Record<Registration["status"], Label> = {
  pending: { en: "Waiting for the customer's code", ne: "ग्राहकको कोड पर्खँदै" },
  confirmed: { en: "Confirmed, coupon not drawn", ne: "पुष्टि भयो, कुपन निकालिएको छैन" },
  drawn: { en: "Coupon drawn", ne: "कुपन निकालिएको" },
};

const TEST_RIDE_TYPE: Record<TestRide["type"], Label> = {
  TESTRIDE: { en: "Test Ride", ne: "टेस्ट राइड" },
  BOOKING: { en: "Booking", ne: "बुकिङ" },
};

const SEX: Record<User["sex"], Label> = {
  MALE: { en: "Male", ne: "पुरुष" },
  FEMALE: { en: "Female", ne: "महिला" },
  OTHERS: { en: "Others", ne: "अन्य" },
};

const ALLOCATION_TYPE: Record<(typeof ALLOCATION_TYPES)[number], Label> = {
  preregistration_public: { en: "Pre-registration (public)", ne: "पूर्व-दर्ता (सार्वजनिक)" },
  preregistration_branch: { en: "Pre-registration (branch)", ne: "पूर्व-दर्ता (शाखा)" },
  registration_branch: { en: "Registration (branch)", ne: "दर्ता (शाखा)" },
};

const DRAW_ENTRY: Record<Draw["entry_type"], Label> = {
  preregistration: { en: "Pre-registration", ne: "पूर्व-दर्ता" },
  registration: { en: "Registration", ne: "दर्ता" },
};

const DRAW_OUTCOME: Record<Draw["outcome"], Label> = {
  pool: { en: "Won a pool", ne: "पुलबाट जितेको" },
  fallback: { en: "Base table", ne: "आधार तालिका" },
  none: { en: "No prize", ne: "पुरस्कार छैन" },
};

const BROADCAST_TYPE: Record<SmsBroadcast["type"], Label> = {
  ALL: { en: "All", ne: "सबै" },
  BRANCH: { en: "Branch", ne: "शाखा" },
  REGISTRANTS: { en: "Customer", ne: "ग्राहक" },
  MOBILE: { en: "Mobile", ne: "मोबाइल" },
};

/** A broadcast's progress as shown (a stored "queued" broadcast is still being queued). */
const BROADCAST_STATUS: Record<"preparing" | "sending" | "done", Label> = {
  preparing: { en: "Queueing", ne: "लाइनमा राख्दै" },
  sending: { en: "Sending", ne: "पठाउँदै" },
  done: { en: "Done", ne: "सकियो" },
};

const SMS_STATUS: Record<SmsMessage["status"], Label> = {
  queued: { en: "Waiting", ne: "पर्खँदै" },
  sent: { en: "Sent", ne: "पठाइयो" },
  failed: { en: "Failed", ne: "असफल" },
};

const SMS_PURPOSE: Record<(typeof SMS_PURPOSES)[number], Label> = {
  otp: { en: "Verification code", ne: "प्रमाणीकरण कोड" },
  "purchase-code": { en: "Purchase code", ne: "खरिद कोड" },
  notify: { en: "Prize notice", ne: "पुरस्कार सूचना" },
  "password-reset": { en: "Password reset", ne: "पासवर्ड रिसेट" },
  broadcast: { en: "Broadcast", ne: "सामूहिक सन्देश" },
};

// The integrity desk (head office only; decision 21): the back office speaks English, so the Nepali
// labels below only complete the tables every enumeration has.
const INTEGRITY_REASON: Record<(typeof INTEGRITY_REASONS)[number], Label> = {
  "shared-citizenship": { en: "Shared citizenship number", ne: "एउटै नागरिकता नम्बर" },
  "shared-vehicle": { en: "Shared vehicle or bill", ne: "एउटै सवारी वा बिल" },
  "address-burst": { en: "Burst from one address range", ne: "एउटै ठेगाना दायराबाट धेरै" },
  "phone-run": { en: "Run of consecutive phones", ne: "लगातार फोन नम्बरहरू" },
  "shared-screenshot": { en: "Shared screenshot", ne: "एउटै स्क्रिनसट" },
  "improbable-wins": { en: "Improbable wins", ne: "असम्भाव्य जित" },
  poaching: { en: "Customers of other showrooms", ne: "अर्को शोरुमका ग्राहक" },
  "off-hours": { en: "Off hours or too fast", ne: "समयबाहिर वा धेरै छिटो" },
  "remade-entry": { en: "Entry deleted and made again", ne: "मेटाएर फेरि बनाइएको" },
};

const INTEGRITY_SUBJECT: Record<(typeof INTEGRITY_SUBJECTS)[number], Label> = {
  entry: { en: "Pre-registration", ne: "पूर्व-दर्ता" },
  registration: { en: "Registration", ne: "दर्ता" },
  user: { en: "Staff user", ne: "कर्मचारी" },
  branch: { en: "Branch", ne: "शाखा" },
  range: { en: "Address range", ne: "ठेगाना दायरा" },
};

const FLAG_STATUS: Record<(typeof FLAG_STATUSES)[number], Label> = {
  open: { en: "Open", ne: "खुला" },
  held: { en: "Held for review", ne: "समीक्षामा रोकिएको" },
  cleared: { en: "Cleared", ne: "सफा गरिएको" },
  voided: { en: "Prize voided", ne: "पुरस्कार रद्द" },
};

// ---------------------------------------------------------------- the audit trail
// Only staff holding every permission read the trail (/admin/audit, AuditTrail.xls), and the back
// office speaks English: these tables have one label per value.

/** What an audit row says happened, by its stored action. audit() takes only these, so a new action needs its label. */
export const AUDIT_ACTION = {
  "auth.login": "Logged in",
  "auth.login_failed": "Login failed",
  "auth.login_locked": "Login refused: too many tries",
  "user.create": "User created",
  "user.update": "User edited",
  "user.delete": "User deleted",
  "user.password": "Password changed",
  "role.create": "Role created",
  "role.update": "Role permissions changed",
  "branch.create": "Branch created",
  "branch.update": "Branch edited",
  "branch.delete": "Branch deleted",
  "branch.close": "Branch closed",
  "branch.reopen": "Branch reopened",
  "bike_model.create": "Bike model created",
  "bike_model.update": "Bike model edited",
  "bike_model.delete": "Bike model deleted",
  "bike_model.retire": "Bike model retired",
  "bike_model.restore": "Bike model restored",
  "video.create": "Video created",
  "video.update": "Video edited",
  "video.delete": "Video deleted",
  "file.upload": "File uploaded",
  "preregistration.create": "Pre-registration created",
  "preregistration.update": "Pre-registration edited",
  "preregistration.delete": "Pre-registration deleted",
  "preregistration.verify": "Pre-registration verified",
  "preregistration.draw": "Pre-registration prize drawn",
  "preregistration.grant": "Pre-registration opened to a branch",
  "registration.create": "Registration created",
  "registration.update": "Registration edited",
  "registration.confirm": "Registration confirmed",
  "registration.draw": "Coupon drawn",
  "registration.notify": "Prize SMS sent",
  "registration.delete": "Registration deleted",
  "registration.restore": "Registration restored",
  "test_ride.delete": "Test ride deleted",
  "allocation.create": "Scheme created",
  "allocation.delete": "Scheme deleted",
  "allocation.count": "Scheme count changed",
  "setting.update": "Setting changed",
  "sms.broadcast": "SMS broadcast sent",
  "sms.broadcast_stored": "SMS broadcast queued",
  "sms.broadcast_retry": "SMS broadcast retried",
  "sms.retry": "SMS retried",
  "integrity.clear": "Integrity flag cleared",
  "integrity.hold": "Prize held for review",
  "integrity.void": "Prize voided",
  "integrity.recompute": "Integrity signals recomputed",
  "integrity.hours": "Showroom hours changed",
} as const satisfies Record<`${string}.${string}`, string>;

export type AuditAction = keyof typeof AUDIT_ACTION;

/** The kind of record an audit row is about, by its stored entity type. */
export const AUDIT_RECORD = {
  user: "User",
  role: "Role",
  branch: "Branch",
  bike_model: "Bike model",
  video: "Video",
  file: "File",
  preregistration: "Pre-registration",
  registration: "Registration",
  test_ride: "Test ride",
  allocation: "Scheme",
  setting: "Setting",
  sms_broadcast: "SMS broadcast",
  sms_message: "SMS",
  integrity_flag: "Integrity flag",
} as const satisfies Record<string, string>;

export type AuditRecord = keyof typeof AUDIT_RECORD;

/** An action's label; an action no longer written (an old row) reads as its area and verb, never its code. */
export function auditActionLabel(action: string): string {
  if (Object.hasOwn(AUDIT_ACTION, action)) return AUDIT_ACTION[action as AuditAction];
  const [area, verb = ""] = action.split(".");
  return `${auditRecordLabel(area)} ${humanize(verb).toLowerCase()}`.trim();
}

/** A record type's label; one the table does not know reads as words. */
export function auditRecordLabel(type: string): string {
  return Object.hasOwn(AUDIT_RECORD, type) ? AUDIT_RECORD[type as AuditRecord] : humanize(type);
}

/** "one_lakh_allocation_count" → "One lakh allocation count". */
export function humanize(name: string): string {
  const words = name.replace(/[_\-.]+/g, " ").trim();
  return words ? words[0].toUpperCase() + words.slice(1) : "";
}

/** Every enumeration's table, by name. */
export const LABELS = {
  payment_mode: PAYMENT_MODE,
  source: SOURCE,
  preregistration_status: PREREGISTRATION_STATUS,
  registration_status: REGISTRATION_STATUS,
  test_ride_type: TEST_RIDE_TYPE,
  sex: SEX,
  allocation_type: ALLOCATION_TYPE,
  draw_entry: DRAW_ENTRY,
  draw_outcome: DRAW_OUTCOME,
  broadcast_type: BROADCAST_TYPE,
  broadcast_status: BROADCAST_STATUS,
  sms_status: SMS_STATUS,
  sms_purpose: SMS_PURPOSE,
  integrity_reason: INTEGRITY_REASON,
  integrity_subject: INTEGRITY_SUBJECT,
  flag_status: FLAG_STATUS,
} as const;

export type Enumeration = keyof typeof LABELS;
export type EnumValue<E extends Enumeration> = keyof (typeof LABELS)[E] & string;

/**
 * A value's label in a language (English by default). A value the table does
 * not know (an old row, a free-text source) is shown as stored; null and
 * empty stay empty.
 */
export function label<E extends Enumeration>(
  enumeration: E,
  value: EnumValue<E> | string | null | undefined,
  lang: Lang = "en",
): string {
  if (value === null || value === undefined || value === "") return "";
  const table = LABELS[enumeration] as Record<string, Label>;
  return Object.hasOwn(table, value) ? table[value][lang] : value;
}

/** One enumeration's English labels as a plain record (for selects and older callers). */
export function englishLabels<E extends Enumeration>(enumeration: E): Record<EnumValue<E>, string> {
  const table = LABELS[enumeration] as Record<string, Label>;
  return Object.fromEntries(Object.entries(table).map(([k, v]) => [k, v.en])) as Record<EnumValue<E>, string>;
}

/** The options of a select over an enumeration, in its declared order. */
export const labelOptions = <E extends Enumeration>(
  enumeration: E,
  values: readonly EnumValue<E>[],
  lang: Lang = "en",
) => values.map((value) => ({ value, label: label(enumeration, value, lang) }));

/**
 * The API's fields whose values come from an enumeration, and the tables a
 * value may belong to (their values do not overlap, so the value tells which).
 */
const FIELD_ENUMERATIONS: Record<string, readonly Enumeration[]> = {
  payment_mode: ["payment_mode"],
  source: ["source"],
  status: ["preregistration_status", "registration_status", "sms_status", "broadcast_status", "flag_status"],
  type: ["test_ride_type", "allocation_type", "broadcast_type"],
  pool_type: ["allocation_type"],
  sex: ["sex"],
  outcome: ["draw_outcome"],
  entry_type: ["draw_entry"],
  purpose: ["sms_purpose"],
  reason: ["integrity_reason"],
  subject_type: ["integrity_subject"],
};

/** The English label of a field's enumerated value (status, type, payment_mode, ...), or undefined when it has none. */
export function fieldLabel(field: string, value: unknown): string | undefined {
  const tables = FIELD_ENUMERATIONS[field];
  if (!tables || typeof value !== "string") return undefined;
  for (const name of tables) {
    const table = LABELS[name] as Record<string, Label>;
    if (Object.hasOwn(table, value)) return table[value].en;
  }
  return undefined;
}

/**
 * An API answer with a `<field>_label` (English) beside every enumerated
 * value, at any depth; the raw values stay as they were for existing clients.
 */
export function withLabels<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withLabels) as T;
  if (value === null || typeof value !== "object" || value.constructor !== Object) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[k] = withLabels(v);
    const l = fieldLabel(k, v);
    if (l !== undefined && !Object.hasOwn(value as object, `${k}_label`)) out[`${k}_label`] = l;
  }
  return out as T;
}
