/**
 * The whole data model. Column names follow the specification's field names
 * (snake_case) so the JSON API can hand rows out without renaming.
 * Times are stored as ISO-8601 UTC strings; calendar dates (allocations) as
 * YYYY-MM-DD in Asia/Kathmandu. Money is whole rupees (integer).
 */
import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import {
  ALLOCATION_TYPES,
  BROADCAST_TYPES,
  FLAG_STATUSES,
  INTEGRITY_REASONS,
  INTEGRITY_SUBJECTS,
  PAYMENT_MODES,
  REGISTRATION_STATUSES,
  SMS_STATUSES,
  TEST_RIDE_TYPES,
} from "./enums";

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;
const createdAt = () => text("created_at").notNull().default(now);
const updatedAt = () => text("updated_at").notNull().default(now);
const bool = (name: string) => integer(name, { mode: "boolean" });

// ---------------------------------------------------------------- staff

export const roles = sqliteTable("roles", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  slug: text("slug").notNull().unique(),
  title: text("title").notNull(),
  created_at: createdAt(),
});

export const permissions = sqliteTable("permissions", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().unique(),
});

export const rolePermissions = sqliteTable(
  "role_permissions",
  {
    role_id: integer("role_id")
      .notNull()
      .references(() => roles.id, { onDelete: "cascade" }),
    permission_id: integer("permission_id")
      .notNull()
      .references(() => permissions.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.role_id, t.permission_id] })],
);

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    slug: text("slug").notNull().unique(),
    first_name: text("first_name").notNull(),
    last_name: text("last_name").notNull().default(""),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone"),
    sex: text("sex", { enum: ["MALE", "FEMALE", "OTHERS"] })
      .notNull()
      .default("MALE"),
    address: text("address"),
    branch_id: integer("branch_id").references(() => branches.id),
    role_id: integer("role_id")
      .notNull()
      .references(() => roles.id),
    password_hash: text("password_hash").notNull(),
    created_at: createdAt(),
    updated_at: updatedAt(),
    deleted_at: text("deleted_at"),
  },
  (t) => [uniqueIndex("users_email_unique").on(sql`lower(${t.email})`), index("users_branch_idx").on(t.branch_id)],
);

/** Back-office cookie sessions: the cookie holds a random id, the row holds its hash. */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(), // sha256 of the cookie value
    user_id: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    data: text("data").notNull().default("{}"),
    remember: bool("remember").notNull().default(false),
    expires_at: text("expires_at").notNull(),
    created_at: createdAt(),
  },
  (t) => [index("sessions_user_idx").on(t.user_id), index("sessions_expiry_idx").on(t.expires_at)],
);

/** Bearer tokens of the JSON API, stored as sha256 hashes. */
export const apiTokens = sqliteTable(
  "api_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    user_id: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    token_hash: text("token_hash").notNull().unique(),
    expires_at: text("expires_at").notNull(),
    revoked_at: text("revoked_at"),
    last_used_at: text("last_used_at"),
    created_at: createdAt(),
  },
  (t) => [index("api_tokens_user_idx").on(t.user_id)],
);

// ---------------------------------------------------------------- catalogue

export const branches = sqliteTable(
  "branches",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    slug: text("slug").notNull().unique(),
    title: text("title").notNull(),
    state: text("state").notNull(),
    district: text("district").notNull(),
    city: text("city").notNull(),
    location: text("location"),
    email: text("email"),
    phone: text("phone"),
    mobile: text("mobile"),
    one_lakh_allocation_count: integer("one_lakh_allocation_count").notNull().default(0),
    ten_lakhs_allocation_count: integer("ten_lakhs_allocation_count").notNull().default(0),
    /** Closed: out of the public showrooms, the booking cascade and every new-record select; its records keep it. */
    closed_at: text("closed_at"),
    created_at: createdAt(),
    updated_at: updatedAt(),
    deleted_at: text("deleted_at"),
  },
  (t) => [
    index("branches_place_idx").on(t.state, t.district, t.city),
    uniqueIndex("branches_title_unique")
      .on(sql`lower(${t.title})`)
      .where(sql`deleted_at is null`),
  ],
);

export const files = sqliteTable(
  "files",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** The unguessable key in its address (/files/{key}); the numeric id never leaves the server. */
    key: text("key").notNull().unique(),
    type: text("type").notNull(), // picker category: bike-model, video, logo, screenshot, general
    filename: text("filename").notNull(), // original name shown in the picker
    path: text("path").notNull().unique(), // storage key under the uploads folder
    mime: text("mime").notNull(),
    width: integer("width"),
    height: integer("height"),
    size: integer("size").notNull(),
    /**
     * A proof screenshot's perceptual hashes (app/utils/image-hash.server.ts): the 64-bit difference
     * hash (9 x 8 grid) and the 256-bit one (17 x 16), hex; null for other images.
     */
    dhash: text("dhash"),
    dhash256: text("dhash256"),
    uploaded_by: integer("uploaded_by").references(() => users.id),
    created_at: createdAt(),
  },
  (t) => [index("files_type_idx").on(t.type, t.created_at)],
);

export const bikeModels = sqliteTable(
  "bike_models",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    slug: text("slug").notNull().unique(),
    title: text("title").notNull(),
    thumbnail_id: integer("thumbnail_id").references(() => files.id),
    /** Retired: out of the public forms and every new-record select; its records keep its title. */
    retired_at: text("retired_at"),
    created_at: createdAt(),
    updated_at: updatedAt(),
    deleted_at: text("deleted_at"),
  },
  (t) => [
    uniqueIndex("bike_models_title_unique")
      .on(sql`lower(${t.title})`)
      .where(sql`deleted_at is null`),
  ],
);

// ---------------------------------------------------------------- campaign

export const preregistrations = sqliteTable(
  "preregistrations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    slug: text("slug").notNull().unique(),
    /** The public reference (db/reference.ts), set by the database on insert (migration 0014). */
    ref: text("ref"),
    campaign: text("campaign").notNull().default("thrill"),
    name: text("name").notNull(),
    address: text("address").notNull(),
    email: text("email"),
    phone: text("phone").notNull(),
    citizenship_no: text("citizenship_no").notNull(),
    shared: bool("shared").notNull().default(false),
    screenshot_id: integer("screenshot_id").references(() => files.id),
    bike_model_id: integer("bike_model_id").references(() => bikeModels.id),
    source: text("source"),
    note: text("note"),
    send_sms: bool("send_sms").notNull().default(true),
    is_verified: bool("is_verified").notNull().default(false),
    verified_at: text("verified_at"),
    purchased: bool("purchased").notNull().default(false),
    prize: integer("prize"), // second-thrill amount, set by the draw
    status: text("status", { enum: ["unverified", "verified", "purchased"] })
      .notNull()
      .default("unverified"),
    branch_id: integer("branch_id").references(() => branches.id),
    nearest_branch_id: integer("nearest_branch_id").references(() => branches.id),
    created_by: integer("created_by").references(() => users.id),
    form_token: text("form_token"), // idempotency key of the submitting form
    /** The registered customer whose share link the visitor came through (docs/decisions/0016). */
    referrer_id: integer("referrer_id"),
    utm_source: text("utm_source"),
    created_at: createdAt(),
    updated_at: updatedAt(),
    deleted_at: text("deleted_at"),
  },
  (t) => [
    // One live entry per phone; a deleted entry frees its phone unless it was verified (its prize drawn):
    // a drawn entry can no longer be deleted, and one deleted before that rule keeps its phone (decision 5).
    uniqueIndex("preregistrations_phone_unique")
      .on(t.campaign, t.phone)
      .where(sql`${t.deleted_at} is null or ${t.is_verified} = 1`),
    // Lookups by phone (live or not) read this one: the partial index above serves only its own condition.
    index("preregistrations_phone_idx").on(t.campaign, t.phone),
    uniqueIndex("preregistrations_form_token_unique").on(t.form_token),
    uniqueIndex("preregistrations_ref_unique").on(t.ref),
    // With the phone: one citizenship number's entries and their phones read from the index alone (integrity).
    index("preregistrations_citizenship_idx").on(t.citizenship_no, t.phone),
    index("preregistrations_branch_idx").on(t.branch_id, t.created_at),
    index("preregistrations_nearest_branch_idx").on(t.nearest_branch_id, t.created_at),
    index("preregistrations_created_idx").on(t.created_at),
    index("preregistrations_prize_idx").on(t.prize),
    index("preregistrations_bike_model_idx").on(t.bike_model_id),
    index("preregistrations_name_idx").on(t.name),
    index("preregistrations_referrer_idx").on(t.referrer_id),
    // The few deleted rows, so a full-text search can leave them out without looking up its matches.
    index("preregistrations_deleted_idx")
      .on(t.id)
      .where(sql`deleted_at is not null`),
    // The entries with a screenshot, and those made at a counter: the integrity recompute reads them alone.
    index("preregistrations_screenshot_idx")
      .on(t.screenshot_id)
      .where(sql`screenshot_id is not null`),
    index("preregistrations_created_by_idx")
      .on(t.created_by)
      .where(sql`created_by is not null`),
  ],
);

/**
 * A branch's recorded access to a public pre-registration that did not name it
 * as nearest showroom: written when its staff find the customer at the counter
 * by the full phone number (docs/decisions/0005-counter-journey.md), so later
 * page loads by slug reach the record under the same rule as the lists.
 */
export const preregistrationGrants = sqliteTable(
  "preregistration_grants",
  {
    branch_id: integer("branch_id")
      .notNull()
      .references(() => branches.id),
    preregistration_id: integer("preregistration_id")
      .notNull()
      .references(() => preregistrations.id),
    granted_by: integer("granted_by").references(() => users.id),
    created_at: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.branch_id, t.preregistration_id] })],
);

export const registrations = sqliteTable(
  "registrations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    slug: text("slug").notNull().unique(),
    bill_no: text("bill_no").notNull(),
    name: text("name").notNull(),
    address: text("address").notNull(),
    citizenship_no: text("citizenship_no").notNull(),
    pan: text("pan"),
    email: text("email"),
    phone: text("phone").notNull(),
    bike_model_id: integer("bike_model_id")
      .notNull()
      .references(() => bikeModels.id),
    engine_no: text("engine_no").notNull(),
    chasis_no: text("chasis_no").notNull(),
    registration_no: text("registration_no").notNull(),
    payment_mode: text("payment_mode", { enum: PAYMENT_MODES }).notNull().default("CASH"),
    note: text("note"),
    send_sms: bool("send_sms").notNull().default(true),
    branch_id: integer("branch_id")
      .notNull()
      .references(() => branches.id),
    preregistration_id: integer("preregistration_id")
      .notNull()
      .references(() => preregistrations.id),
    registration_id: integer("registration_id"), // referrer: another registration
    referred_by: text("referred_by"),
    shared: bool("shared").notNull().default(false),
    status: text("status", { enum: REGISTRATION_STATUSES }).notNull().default("pending"),
    confirmed_at: text("confirmed_at"),
    purchase_date: text("purchase_date").notNull(), // Kathmandu YYYY-MM-DD
    coupon_amount: integer("coupon_amount"), // third-thrill amount, set by the draw
    coupon_code: text("coupon_code").notNull().unique(),
    /**
     * The customer's share link code (/r/{code}): 80 random bits, set by a trigger on insert
     * (migration 0008), so every registration has one however it is made.
     */
    share_code: text("share_code").unique(),
    created_by: integer("created_by").references(() => users.id),
    form_token: text("form_token"),
    created_at: createdAt(),
    updated_at: updatedAt(),
    deleted_at: text("deleted_at"),
  },
  (t) => [
    uniqueIndex("registrations_preregistration_unique").on(t.preregistration_id),
    uniqueIndex("registrations_form_token_unique").on(t.form_token),
    uniqueIndex("registrations_engine_unique")
      .on(t.engine_no)
      .where(sql`deleted_at is null`),
    uniqueIndex("registrations_chasis_unique")
      .on(t.chasis_no)
      .where(sql`deleted_at is null`),
    uniqueIndex("registrations_registration_no_unique")
      .on(t.registration_no)
      .where(sql`deleted_at is null`),
    uniqueIndex("registrations_bill_unique")
      .on(t.branch_id, t.bill_no)
      .where(sql`deleted_at is null`),
    index("registrations_branch_idx").on(t.branch_id, t.created_at),
    index("registrations_created_idx").on(t.created_at),
    index("registrations_phone_idx").on(t.phone),
    index("registrations_citizenship_idx").on(t.citizenship_no),
    index("registrations_payment_mode_idx").on(t.payment_mode),
    index("registrations_bike_model_idx").on(t.bike_model_id),
    index("registrations_coupon_idx").on(t.coupon_amount),
    index("registrations_referrer_idx").on(t.registration_id),
    index("registrations_name_idx").on(t.name),
    // A deleted registration's numbers, so a new one reusing them is found (integrity: shared-vehicle).
    index("registrations_deleted_engine_idx")
      .on(t.engine_no)
      .where(sql`deleted_at is not null`),
    index("registrations_deleted_chasis_idx")
      .on(t.chasis_no)
      .where(sql`deleted_at is not null`),
    index("registrations_deleted_registration_no_idx")
      .on(t.registration_no)
      .where(sql`deleted_at is not null`),
    index("registrations_deleted_bill_idx")
      .on(t.branch_id, t.bill_no)
      .where(sql`deleted_at is not null`),
    // Each staff user's registrations in time order (integrity: quick runs, and the draws a user made).
    index("registrations_created_by_idx").on(t.created_by, t.created_at),
  ],
);

/** One-time codes: phone verification (pre-registration), continuing a pre-registration
 * from another browser (preregistration_access), purchase confirmation (registration)
 * and password reset. Entry codes are kept readable for the staff
 * who may see them (spec: create-user / read-user); reset and access codes only as a hash. */
export const oneTimeCodes = sqliteTable(
  "one_time_codes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    purpose: text("purpose", {
      enum: ["preregistration", "preregistration_access", "registration", "password_reset"],
    }).notNull(),
    subject_id: integer("subject_id").notNull(), // preregistration, registration or user id
    phone: text("phone").notNull(),
    code: text("code"), // null for password resets
    code_hash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    expires_at: text("expires_at").notNull(),
    consumed_at: text("consumed_at"),
    created_at: createdAt(),
  },
  (t) => [
    index("one_time_codes_subject_idx").on(t.purpose, t.subject_id, t.created_at),
    index("one_time_codes_phone_idx").on(t.phone, t.created_at),
  ],
);

/** A prize pool: `count` prizes of `amount` for one Kathmandu date. */
export const allocations = sqliteTable(
  "allocations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    type: text("type", { enum: ALLOCATION_TYPES }).notNull(),
    branch_id: integer("branch_id").references(() => branches.id),
    date: text("date").notNull(),
    amount: integer("amount").notNull(),
    count: integer("count").notNull().default(1),
    probability: integer("probability").notNull().default(0),
    paid: integer("paid").notNull().default(0),
    created_by: integer("created_by").references(() => users.id),
    created_at: createdAt(),
  },
  (t) => [
    index("allocations_pool_idx").on(t.type, t.date, t.branch_id),
    check("allocations_count_range", sql`${t.count} between 1 and 5`),
    check("allocations_probability_range", sql`${t.probability} between 0 and 100`),
    check("allocations_paid_range", sql`${t.paid} between 0 and ${t.count}`),
  ],
);

/** Every draw with its audit trail. One row per entry and thrill: drawing twice returns this row. */
export const draws = sqliteTable(
  "draws",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    thrill: integer("thrill").notNull(), // 2 = pre-registration, 3 = registration
    entry_type: text("entry_type", { enum: ["preregistration", "registration"] }).notNull(),
    entry_id: integer("entry_id").notNull(),
    pool_type: text("pool_type", { enum: ALLOCATION_TYPES }).notNull(),
    branch_id: integer("branch_id").references(() => branches.id),
    date: text("date").notNull(), // Kathmandu date the pools were taken from
    allocation_id: integer("allocation_id").references(() => allocations.id),
    amount: integer("amount").notNull(),
    outcome: text("outcome", { enum: ["pool", "fallback", "none"] }).notNull(),
    pools: text("pools").notNull(), // JSON: pools considered with remaining counts
    rolls: text("rolls").notNull(), // JSON: every random value rolled, with its public input
    created_at: createdAt(),
    // The entry's public id (its reference) and the base table the fallback used.
    ref: text("ref").notNull().default(""),
    base_table: text("base_table").notNull().default("[]"),
    /** The draw's record in the public chain (draw_records.seq); null for a draw given its own random values (tests). */
    record_seq: integer("record_seq"),
  },
  (t) => [
    uniqueIndex("draws_entry_unique").on(t.entry_type, t.entry_id),
    index("draws_date_idx").on(t.date, t.pool_type),
    index("draws_allocation_idx").on(t.allocation_id),
    index("draws_created_idx").on(t.created_at),
  ],
);

/**
 * A Kathmandu day's commitments, written before the day (docs/decisions/0019-fair-draws.md): its
 * terms (the beacon, every pool, the base tables, the house seed's commitment) and their hash, and
 * the house seed sealed under a key kept outside the database. Triggers refuse any change,
 * removal or replacement.
 */
export const fairDays = sqliteTable("fair_days", {
  date: text("date").primaryKey(),
  terms: text("terms").notNull(),
  terms_hash: text("terms_hash").notNull(),
  house_commitment: text("house_commitment").notNull(),
  /** AES-256-GCM: "v1:" iv ":" tag ":" ciphertext, hex (app/utils/seal.server.ts). */
  house_sealed: text("house_sealed").notNull(),
  created_at: createdAt(),
});

/**
 * The public chain of the campaign's draws: every entry fixed and every entry drawn, in order,
 * each record's text and its SHA-256 (which the next record names). Append-only (triggers).
 */
export const drawRecords = sqliteTable(
  "draw_records",
  {
    seq: integer("seq").primaryKey(),
    kind: text("kind", { enum: ["entry", "draw"] }).notNull(),
    /** The entry's Kathmandu day (a draw: its entry's day). */
    date: text("date").notNull(),
    time: text("time").notNull(),
    ref: text("ref").notNull(),
    text: text("text").notNull(),
    hash: text("hash").notNull().unique(),
  },
  (t) => [index("draw_records_date_idx").on(t.date, t.seq), index("draw_records_ref_idx").on(t.ref)],
);

/** Entries fixed and not drawn yet: each waits for its beacon round (or the house seed). */
export const drawQueue = sqliteTable(
  "draw_queue",
  {
    entry_seq: integer("entry_seq").primaryKey(),
    entry_hash: text("entry_hash").notNull(),
    entry_type: text("entry_type", { enum: ["preregistration", "registration"] }).notNull(),
    entry_id: integer("entry_id").notNull(),
    thrill: integer("thrill").notNull(),
    ref: text("ref").notNull(),
    date: text("date").notNull(),
    pool_type: text("pool_type", { enum: ALLOCATION_TYPES }).notNull(),
    branch_id: integer("branch_id"),
    /** Null when the day has no beacon (BEACON=off): the house seed decides. */
    beacon_round: integer("beacon_round"),
    time: text("time").notNull(),
  },
  (t) => [uniqueIndex("draw_queue_entry_unique").on(t.entry_type, t.entry_id)],
);

/** The SMS that told the observers a day's closing head and the next day's commitments. */
export const fairAnnouncements = sqliteTable("fair_announcements", {
  date: text("date").primaryKey(),
  head: text("head").notNull(),
  next_terms_hash: text("next_terms_hash"),
  phones: integer("phones").notNull(),
  text: text("text").notNull(),
  sent_at: text("sent_at").notNull(),
});

// ---------------------------------------------------------------- integrity (docs/decisions/0021-integrity-desk.md)

/**
 * The address a pre-registration came from: the visitor's, or at the counter the staff member's; with
 * its range (IPv4 /24, IPv6 /64). Kept 30 days, then purged by the integrity job; head office only.
 */
export const entryAddresses = sqliteTable(
  "entry_addresses",
  {
    preregistration_id: integer("preregistration_id")
      .primaryKey()
      .references(() => preregistrations.id),
    address: text("address").notNull(),
    range: text("range").notNull(),
    created_at: text("created_at").notNull(),
  },
  (t) => [index("entry_addresses_range_idx").on(t.range, t.created_at)],
);

/**
 * A flag: a reason and its evidence about one subject, never a verdict. One per reason and subject
 * (`subject_key`: the subject's id, or its range and day), so computing again never makes a second.
 */
export const integrityFlags = sqliteTable(
  "integrity_flags",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    reason: text("reason", { enum: INTEGRITY_REASONS }).notNull(),
    subject_type: text("subject_type", { enum: INTEGRITY_SUBJECTS }).notNull(),
    subject_key: text("subject_key").notNull(),
    /** The branch and the staff user the flag concerns (the desk's filters), when it names them. */
    branch_id: integer("branch_id").references(() => branches.id),
    user_id: integer("user_id").references(() => users.id),
    /** How strong the evidence is, 0 to 100 (the desk sorts by it). */
    strength: real("strength").notNull(),
    /** JSON: a summary, the figures and the rows behind the flag. */
    evidence: text("evidence").notNull(),
    status: text("status", { enum: FLAG_STATUSES }).notNull().default("open"),
    raised_at: text("raised_at").notNull(),
    updated_at: text("updated_at").notNull(),
    decided_at: text("decided_at"),
    decided_by: integer("decided_by").references(() => users.id),
    note: text("note"),
  },
  (t) => [
    uniqueIndex("integrity_flags_subject_unique").on(t.reason, t.subject_type, t.subject_key),
    index("integrity_flags_desk_idx").on(t.status, t.strength, t.raised_at),
    index("integrity_flags_branch_idx").on(t.branch_id, t.status),
    index("integrity_flags_user_idx").on(t.user_id, t.status),
    index("integrity_flags_raised_idx").on(t.raised_at),
  ],
);

/** The entries a flag concerns: an open or held flag holds their prizes (coupon print and prize notice). */
export const integrityFlagEntries = sqliteTable(
  "integrity_flag_entries",
  {
    flag_id: integer("flag_id")
      .notNull()
      .references(() => integrityFlags.id, { onDelete: "cascade" }),
    preregistration_id: integer("preregistration_id")
      .notNull()
      .references(() => preregistrations.id),
  },
  (t) => [
    primaryKey({ columns: [t.flag_id, t.preregistration_id] }),
    index("integrity_flag_entries_entry_idx").on(t.preregistration_id),
  ],
);

/**
 * An entry's prizes voided by head office: a later event beside the draw's record, which it never
 * changes. Append-only (triggers refuse a change or a removal).
 */
export const prizeVoids = sqliteTable("prize_voids", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  preregistration_id: integer("preregistration_id")
    .notNull()
    .unique()
    .references(() => preregistrations.id),
  registration_id: integer("registration_id").references(() => registrations.id),
  flag_id: integer("flag_id")
    .notNull()
    .references(() => integrityFlags.id),
  reason: text("reason").notNull(),
  voided_by: integer("voided_by").references(() => users.id),
  voided_at: text("voided_at").notNull(),
});

/**
 * Background jobs that one process at a time runs across the cluster: whoever holds the lease (until
 * `expires_at`, epoch milliseconds) runs it; the last run's times and result are kept beside it.
 */
export const jobLeases = sqliteTable("job_leases", {
  name: text("name").primaryKey(),
  holder: text("holder"),
  expires_at: integer("expires_at").notNull().default(0),
  last_started_at: text("last_started_at"),
  last_finished_at: text("last_finished_at"),
  /** JSON: what the last run did (or why it failed). */
  last_result: text("last_result"),
});

export const testRides = sqliteTable(
  "test_rides",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    slug: text("slug").notNull().unique(),
    type: text("type", { enum: TEST_RIDE_TYPES }).notNull().default("TESTRIDE"),
    first_name: text("first_name").notNull(),
    last_name: text("last_name").notNull().default(""),
    name: text("name").notNull(),
    email: text("email"),
    phone: text("phone").notNull(),
    bike_model_id: integer("bike_model_id")
      .notNull()
      .references(() => bikeModels.id),
    branch_id: integer("branch_id")
      .notNull()
      .references(() => branches.id),
    state: text("state").notNull(),
    district: text("district").notNull(),
    city: text("city").notNull(),
    utm_source: text("utm_source"),
    referrer_id: integer("referrer_id").references(() => registrations.id),
    form_token: text("form_token"),
    created_at: createdAt(),
    deleted_at: text("deleted_at"),
  },
  (t) => [
    uniqueIndex("test_rides_form_token_unique").on(t.form_token),
    index("test_rides_branch_idx").on(t.branch_id, t.created_at),
    index("test_rides_created_idx").on(t.created_at),
    index("test_rides_referrer_idx").on(t.referrer_id),
  ],
);

export const videos = sqliteTable(
  "videos",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    slug: text("slug").notNull().unique(),
    title: text("title").notNull(),
    citizenship_no: text("citizenship_no"),
    url: text("url").notNull(),
    amount: integer("amount").notNull(),
    thumbnail_id: integer("thumbnail_id").references(() => files.id),
    phone: text("phone"),
    created_at: createdAt(),
    updated_at: updatedAt(),
    deleted_at: text("deleted_at"),
  },
  (t) => [index("videos_amount_idx").on(t.amount)],
);

/** Key/value settings; values are JSON. */
export const settings = sqliteTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updated_at: updatedAt(),
});

/**
 * A broadcast (001 §2.10): who it reaches (type and its choice), the text, and its progress. The
 * messages are stored by the preparation (app/models/broadcast.server.ts) in chunks, `cursor` being
 * the last phone stored (recipients go in phone order), so a restart carries on where it stopped.
 */
export const smsBroadcasts = sqliteTable(
  "sms_broadcasts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    type: text("type", { enum: BROADCAST_TYPES }).notNull().default("ALL"),
    text: text("text").notNull(),
    branches: text("branches").notNull().default("[]"),
    registrants: text("registrants").notNull().default("[]"),
    /** Distinct valid numbers it reaches (counted when accepted; set to `stored` once all are stored). */
    total: integer("total").notNull().default(0),
    sent: integer("sent").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    /** queued: accepted, messages being stored; sending; done: every message sent or failed. */
    status: text("status", { enum: ["queued", "sending", "done"] })
      .notNull()
      .default("queued"),
    /** Messages stored so far (one per distinct valid number). */
    stored: integer("stored").notNull().default(0),
    /** Stored numbers that are not valid mobiles, left out (ALL, BRANCH, REGISTRANTS). */
    skipped: integer("skipped").notNull().default(0),
    /** Numbers typed twice in a MOBILE list, sent once. */
    duplicates: integer("duplicates").notNull().default(0),
    /** SMS parts of one message and its encoding (GSM-7 or UCS-2). */
    parts: integer("parts").notNull().default(1),
    encoding: text("encoding").notNull().default("GSM-7"),
    /** The branch scope of the sender (null: head office); recipients never leave it. */
    scope_branch_id: integer("scope_branch_id"),
    /** The last phone stored (recipients are stored in phone order); '' before the first chunk. */
    cursor: text("cursor").notNull().default(""),
    /** When every message was stored; null while the preparation runs. */
    prepared_at: text("prepared_at"),
    created_by: integer("created_by").references(() => users.id),
    created_at: createdAt(),
  },
  (t) => [
    index("sms_broadcasts_created_idx").on(t.created_at),
    index("sms_broadcasts_preparing_idx")
      .on(t.id)
      .where(sql`${t.prepared_at} is null`),
  ],
);

/**
 * A MOBILE broadcast's typed list (up to 100,000 numbers, 1.2 MB of JSON), in a row of its own: the
 * broadcast's row is rewritten whole at every change of its counters (one per message sent), and
 * stays small so that costs a page, not the list.
 */
export const smsBroadcastMobiles = sqliteTable("sms_broadcast_mobiles", {
  broadcast_id: integer("broadcast_id")
    .primaryKey()
    .references(() => smsBroadcasts.id, { onDelete: "cascade" }),
  /** The distinct valid numbers, sorted, as a JSON array of text. */
  mobiles: text("mobiles").notNull(),
  /** How many (the views count the list without reading it). */
  count: integer("count").notNull(),
});

/** Every SMS that leaves (or would leave) the system, with its provider's reply. */
export const smsMessages = sqliteTable(
  "sms_messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    to: text("to").notNull(),
    text: text("text").notNull(),
    purpose: text("purpose").notNull(), // otp, purchase-code, notify, password-reset, broadcast
    status: text("status", { enum: SMS_STATUSES }).notNull().default("queued"),
    provider: text("provider").notNull(),
    provider_reply: text("provider_reply"),
    error: text("error"),
    /** Times the message was handed to the provider. */
    attempts: integer("attempts").notNull().default(0),
    broadcast_id: integer("broadcast_id").references(() => smsBroadcasts.id),
    /** Sending order: 0 one-time codes, 1 single notices, 2 broadcasts; lower goes first. */
    priority: integer("priority").notNull().default(1),
    /** A code's subject (pre-registration, registration or user id, by purpose): codeDelivery looks it up. */
    subject_id: integer("subject_id"),
    /**
     * When a queued message may be claimed next: its creation, its next retry, or the end of a
     * worker's claim on it (a lease). '' = at once.
     */
    due_at: text("due_at").notNull().default(""),
    /** The worker holding the message (claimed, not yet finished); null when nobody does. */
    claimed_by: text("claimed_by"),
    /** Set while the message is with the provider (handed over, outcome not yet recorded). */
    sending_at: text("sending_at"),
    /** A code's message not sent by then is failed instead (the code itself has expired). */
    valid_until: text("valid_until"),
    created_at: createdAt(),
    sent_at: text("sent_at"),
  },
  (t) => [
    index("sms_messages_to_idx").on(t.to, t.created_at),
    index("sms_messages_status_idx").on(t.status, t.id),
    // One message per number in a broadcast (the preparation inserts with ON CONFLICT DO NOTHING).
    uniqueIndex("sms_messages_broadcast_to_unique")
      .on(t.broadcast_id, t.to)
      .where(sql`${t.broadcast_id} is not null`),
    // A broadcast's recipients by status (its failed ones, the recipient list's filter).
    index("sms_messages_broadcast_status_idx").on(t.broadcast_id, t.status, t.id),
    // The worker's claim: status = 'queued' AND priority = ? AND due_at <= ?, one range per priority.
    index("sms_messages_claim_idx").on(t.status, t.priority, t.due_at),
    index("sms_messages_subject_idx").on(t.purpose, t.subject_id),
    index("sms_messages_claimed_by_idx")
      .on(t.claimed_by)
      .where(sql`${t.claimed_by} is not null`),
  ],
);

/**
 * The audit trail: every back-office change and every login, written in the
 * same transaction as the change. Triggers (migration 0003) refuse UPDATE and
 * DELETE, so no screen or call can alter it.
 */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: text("at").notNull().default(now),
    user_id: integer("user_id"), // no foreign key: the trail outlives the user
    user_email: text("user_email"),
    address: text("address"),
    action: text("action").notNull(), // e.g. registration.create, allocation.delete, auth.login_failed
    entity_type: text("entity_type").notNull(),
    entity_id: text("entity_id"),
    /** JSON {field: {before, after}} of the fields that changed. */
    changes: text("changes").notNull().default("{}"),
  },
  (t) => [
    index("audit_log_at_idx").on(t.at),
    index("audit_log_entity_idx").on(t.entity_type, t.entity_id),
    index("audit_log_user_idx").on(t.user_id, t.at),
    index("audit_log_action_idx").on(t.action, t.at),
  ],
);

/** Rate-limit counters: one fixed window per (limit name, key); taken with one atomic UPSERT. */
export const rateLimitCounters = sqliteTable(
  "rate_limit_counters",
  {
    name: text("name").notNull(),
    key: text("key").notNull(),
    points: integer("points").notNull(),
    /** Epoch milliseconds when the window ends. */
    reset_at: integer("reset_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.name, t.key] }), index("rate_limit_counters_reset_idx").on(t.reset_at)],
);

/**
 * Versions of what the public pages show (settings, branches, bike models,
 * videos, the day's prize pools), bumped by triggers (migration 0007) on every
 * change, by any writer in any process. Public reads are kept in memory until
 * the version moves (app/models/public-cache.server.ts).
 */
/**
 * Live (not deleted) rows of the big tables, kept by triggers (migration 0009) in the writer's own
 * transaction, so a head-office list shows its total without counting 500,000 rows.
 */
export const rowCounts = sqliteTable("row_counts", {
  key: text("key").primaryKey(),
  n: integer("n").notNull().default(0),
});

export const cacheVersions = sqliteTable("cache_versions", {
  key: text("key").primaryKey(),
  version: integer("version").notNull().default(0),
});

export type User = typeof users.$inferSelect;
export type Branch = typeof branches.$inferSelect;
export type BikeModel = typeof bikeModels.$inferSelect;
export type Preregistration = typeof preregistrations.$inferSelect;
export type Registration = typeof registrations.$inferSelect;
export type Allocation = typeof allocations.$inferSelect;
export type Draw = typeof draws.$inferSelect;
export type TestRide = typeof testRides.$inferSelect;
export type Video = typeof videos.$inferSelect;
export type SmsMessage = typeof smsMessages.$inferSelect;
export type SmsBroadcast = typeof smsBroadcasts.$inferSelect;
export type FileRow = typeof files.$inferSelect;
export type AuditEntry = typeof auditLog.$inferSelect;
export type IntegrityFlag = typeof integrityFlags.$inferSelect;
