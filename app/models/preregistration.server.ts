/**
 * Pre-registration rules, one place for the public site, the back office and
 * the JSON API:
 *
 * - validation with the shared schema (spec 000 §5 filters applied again);
 * - one pre-registration per phone per campaign (the first, if unverified, is
 *   offered for continued verification);
 * - "This citizenship/pan has pending purchase." when the citizenship/PAN
 *   already has a verified pre-registration without a purchase;
 * - public posts refused while registration is closed; captcha or honeypot and
 *   rate limits on the public channel;
 * - a form submitted twice (same form token) gives the first record back;
 * - the proof screenshot is stored bounded (720 x 1280, q80) by storeUpload;
 * - the phone is verified by a 6-digit SMS code (otp.server.ts rules), and a
 *   correct code verifies the entry and draws its second thrill in the same
 *   request (the draw is idempotent: never a second one).
 *
 * Public pre-registrations have no branch and a nearest showroom; staff-made
 * ones belong to the staff member's branch (and draw from its pools).
 */
import crypto from "node:crypto";
import { and, eq, isNull, ne, or, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { parseWithZod } from "@conform-to/zod/v4";
import { db, schema } from "@db/index";
import type { Preregistration } from "@db/schema";
import { drawSecondThrill, DrawError, type DrawResult } from "~/models/prize-draw.server";
import { firstThrill, totalPrize } from "~/models/prize-constants";
import {
  OTP_MESSAGES,
  PREREGISTRATION_MESSAGES as M,
  preregistrationSchema,
  publicPreregistrationSchema,
  verifySchema,
  type PreregistrationInput,
} from "~/schemas/preregistration";
import { jsonToFormData } from "~/utils/api.server";
import { CAPTCHA_FIELD, honeypotTripped, verifyCaptcha } from "~/utils/captcha.server";
import { sessionSecrets } from "~/utils/config.server";
import { randomSlug } from "~/utils/crypto.server";
import { maskPhone } from "~/utils/phone";
import { hit, tooManyMessage } from "~/utils/rate-limit.server";
import { now, nowIso } from "~/utils/time";
import { findActiveBikeModel } from "./bike-model.server";
import { findActiveBranch } from "./branch.server";
import { fileUrl, getFile, storeUpload, UPLOAD_FAILED, UploadError } from "./file.server";
import { canResendAt, issueCode, OTP_RULES, verifyCode } from "./otp.server";
import type { Scope } from "./scope.server";
import { isRegistrationOpen } from "./settings.server";

const { preregistrations, bikeModels, branches, registrations } = schema;
const nearestBranches = alias(branches, "nearest_branch");

export type { Preregistration };

/** Every pre-registration belongs to this campaign (the phone is unique per campaign). */
export const CAMPAIGN = "thrill";

export type Channel = "public" | "branch";

export type CreateContext = {
  channel: Channel;
  /** The staff member's branch (branch channel); null for public entries and head office. */
  branchId: number | null;
  userId: number | null;
  /** Idempotency key of the submitted form; defaults to the form's `form_token` field. */
  formToken?: string | null;
  /** The proof screenshot (multipart File); used when shared is on. */
  screenshot?: File | null;
  /** A screenshot stored at the confirmation step (see reviewPreregistration). */
  screenshotRef?: string | null;
  /** The visitor's address, for the public rate limits. */
  clientAddress?: string | null;
};

export type FailureReason =
  "invalid" | "closed" | "duplicate_phone" | "pending_purchase" | "rate_limited" | "captcha" | "rejected" | "upload";

export type Failure = {
  ok: false;
  /** Field to messages (the spec's error shape); non-field errors under "form". */
  errors: Record<string, string[]>;
  /** The slug of the unverified pre-registration holding the phone, or of the one with a pending purchase. */
  pendingSlug?: string;
  reason: FailureReason;
  retryAfterSeconds?: number;
};

export type CreateResult = { ok: true; preregistration: Preregistration; duplicate: boolean } | Failure;

export type ReviewResult =
  | {
      ok: true;
      value: PreregistrationInput;
      /** A signed reference to the screenshot stored for the confirmation step. */
      screenshotRef: string | null;
    }
  | Failure;

const fail = (reason: FailureReason, errors: Record<string, string[]>, extra: Partial<Failure> = {}): Failure => ({
  ok: false,
  reason,
  errors,
  ...extra,
});

// ---------------------------------------------------------------- input

function asFormData(input: unknown): FormData {
  if (input instanceof FormData) return input;
  if (input instanceof URLSearchParams) {
    const form = new FormData();
    input.forEach((v, k) => form.append(k, v));
    return form;
  }
  return jsonToFormData(input ?? {});
}

function parse(form: FormData, channel: Channel) {
  const submission = parseWithZod(form, {
    schema: channel === "public" ? publicPreregistrationSchema : preregistrationSchema,
  });
  if (submission.status === "success") return { ok: true as const, value: submission.value as PreregistrationInput };
  const errors: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(submission.error ?? {})) if (v?.length) errors[k || "form"] = v;
  return { ok: false as const, errors };
}

const fileOf = (value: FormDataEntryValue | null | undefined): File | null =>
  value instanceof File && value.size > 0 ? value : null;

// ---------------------------------------------------------------- staged screenshots

const refSignature = (id: number) =>
  crypto.createHmac("sha256", sessionSecrets()[0]).update(`screenshot:${id}`).digest("base64url").slice(0, 32);

/** A tamper-proof reference to a stored screenshot, carried by the confirmation step. */
export function screenshotRefFor(fileId: number): string {
  return `${fileId}.${refSignature(fileId)}`;
}

/** The screenshot file id behind a reference, if it is genuine, a screenshot, and not yet used by an entry. */
export function resolveScreenshotRef(ref: string | null | undefined): number | null {
  const m = /^(\d+)\.([A-Za-z0-9_-]{32})$/.exec(ref ?? "");
  if (!m) return null;
  const id = Number(m[1]);
  const expected = Buffer.from(refSignature(id));
  const given = Buffer.from(m[2]);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return null;
  const file = getFile(id);
  if (!file || file.type !== "screenshot") return null;
  const used = db
    .select({ id: preregistrations.id })
    .from(preregistrations)
    .where(eq(preregistrations.screenshot_id, id))
    .get();
  return used ? null : id;
}

async function storeScreenshot(file: File, userId: number | null): Promise<{ ok: true; id: number } | Failure> {
  try {
    const stored = await storeUpload(file, "screenshot", userId);
    return { ok: true, id: stored.id };
  } catch (error) {
    if (error instanceof UploadError) return fail("upload", { screenshot: [error.message || UPLOAD_FAILED] });
    throw error;
  }
}

// ---------------------------------------------------------------- rules

type Exec = Pick<typeof db, "select">;

/** Phone already taken, or the citizenship/PAN has a pending purchase. */
function conflicts(exec: Exec, value: PreregistrationInput): Failure | null {
  const samePhone = exec
    .select({
      slug: preregistrations.slug,
      is_verified: preregistrations.is_verified,
      deleted_at: preregistrations.deleted_at,
    })
    .from(preregistrations)
    .where(and(eq(preregistrations.campaign, CAMPAIGN), eq(preregistrations.phone, value.phone)))
    .get();
  if (samePhone) {
    if (!samePhone.is_verified && !samePhone.deleted_at) {
      return fail(
        "duplicate_phone",
        { phone: [M.phoneTakenUnverified, samePhone.slug] },
        { pendingSlug: samePhone.slug },
      );
    }
    return fail("duplicate_phone", { phone: [M.phoneTaken] });
  }
  const pending = pendingPurchaseOf(exec, value.citizenship_no);
  if (pending) {
    return fail(
      "pending_purchase",
      { citizenship_no: [M.pendingPurchase, pending.slug] },
      { pendingSlug: pending.slug },
    );
  }
  return null;
}

/** A verified, not purchased, not deleted pre-registration with this citizenship/PAN. */
function pendingPurchaseOf(exec: Exec, citizenshipNo: string, exceptId?: number) {
  return exec
    .select({ id: preregistrations.id, slug: preregistrations.slug })
    .from(preregistrations)
    .where(
      and(
        eq(preregistrations.citizenship_no, citizenshipNo),
        eq(preregistrations.is_verified, true),
        eq(preregistrations.purchased, false),
        isNull(preregistrations.deleted_at),
        exceptId ? ne(preregistrations.id, exceptId) : undefined,
      ),
    )
    .get();
}

/** The chosen bike model and nearest showroom must exist. */
function referenceErrors(value: PreregistrationInput): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (value.bike_model_id && !findActiveBikeModel(value.bike_model_id)) errors.bike_model_id = [M.bikeModel];
  if (value.nearest_branch_id && !findActiveBranch(value.nearest_branch_id))
    errors.nearest_branch_id = [M.nearestBranch];
  return errors;
}

function byFormToken(token: string | null | undefined): Preregistration | undefined {
  if (!token) return undefined;
  return db.select().from(preregistrations).where(eq(preregistrations.form_token, token)).get();
}

function formTokenOf(form: FormData, ctx: CreateContext): string | null {
  const raw = ctx.formToken ?? form.get("form_token");
  const token = typeof raw === "string" ? raw.trim() : "";
  return /^[A-Za-z0-9_-]{16,64}$/.test(token) ? token : null;
}

/** Checks shared by the confirmation step and the save: state, abuse, validation, conflicts. */
async function check(form: FormData, ctx: CreateContext): Promise<{ ok: true; value: PreregistrationInput } | Failure> {
  if (ctx.channel === "public") {
    if (!isRegistrationOpen()) return fail("closed", { form: [M.closed] });
    if (honeypotTripped(form)) return fail("rejected", { form: [M.rejected] });
  }
  const parsed = parse(form, ctx.channel);
  const refErrors = parsed.ok ? referenceErrors(parsed.value) : {};
  const errors = parsed.ok ? refErrors : parsed.errors;
  if (
    ctx.channel === "public" &&
    parsed.ok &&
    parsed.value.shared &&
    !fileOf(ctx.screenshot ?? form.get("screenshot")) &&
    !resolveScreenshotRef(ctx.screenshotRef ?? (form.get("screenshot_ref") as string | null))
  ) {
    errors.screenshot = [M.screenshotRequired];
  }
  if (!parsed.ok || Object.keys(errors).length) return fail("invalid", errors);
  return conflicts(db, parsed.value) ?? { ok: true, value: parsed.value };
}

async function limit(name: "enquiry-ip" | "enquiry-phone", key: string | null | undefined): Promise<Failure | null> {
  if (!key) return null;
  const res = await hit(name, key);
  return res.ok
    ? null
    : fail(
        "rate_limited",
        { form: [tooManyMessage(res.retryAfterSeconds)] },
        { retryAfterSeconds: res.retryAfterSeconds },
      );
}

/**
 * The confirmation step ("Please Confirm Your Phone Number."): every check of
 * the save except the captcha (checked once, at the save), and the screenshot
 * stored now so the second post need not send it again.
 */
export async function reviewPreregistration(input: unknown, ctx: CreateContext): Promise<ReviewResult> {
  const form = asFormData(input);
  const checked = await check(form, ctx);
  if (!checked.ok) return checked;
  let screenshotRef: string | null = null;
  if (checked.value.shared) {
    const file = fileOf(ctx.screenshot ?? form.get("screenshot"));
    if (file) {
      if (ctx.channel === "public") {
        const limited = await limit("enquiry-ip", ctx.clientAddress);
        if (limited) return limited;
      }
      const stored = await storeScreenshot(file, ctx.userId);
      if (!stored.ok) return stored;
      screenshotRef = screenshotRefFor(stored.id);
    } else {
      const ref = ctx.screenshotRef ?? (form.get("screenshot_ref") as string | null);
      screenshotRef = resolveScreenshotRef(ref) ? ref : null;
    }
  }
  return { ok: true, value: checked.value, screenshotRef };
}

export const otpText = (code: string) =>
  `Your Thrill verification code is ${code}. It is valid for ${OTP_RULES.validSeconds / 60} minutes.`;

const isUnique = (error: unknown, what: string) =>
  (error as { code?: string })?.code === "SQLITE_CONSTRAINT_UNIQUE" && String((error as Error).message).includes(what);

/**
 * Creates a pre-registration and sends its verification code.
 * Public: refused while registration is closed, honeypot/captcha checked, rate
 * limited per address and phone; branch_id null, a nearest showroom required.
 * Branch: branch_id = ctx.branchId, created_by = ctx.userId.
 * The same form token again returns the first record with duplicate: true.
 */
export async function createPreregistration(input: unknown, ctx: CreateContext): Promise<CreateResult> {
  const form = asFormData(input);
  const formToken = formTokenOf(form, ctx);
  const again = byFormToken(formToken);
  if (again) return { ok: true, preregistration: again, duplicate: true };

  if (ctx.channel === "public") {
    if (!isRegistrationOpen()) return fail("closed", { form: [M.closed] });
    const limited = await limit("enquiry-ip", ctx.clientAddress);
    if (limited) return limited;
  }
  const checked = await check(form, ctx);
  if (!checked.ok) return checked;
  const value = checked.value;

  if (ctx.channel === "public") {
    const captcha = await verifyCaptcha(form.get(CAPTCHA_FIELD), ctx.clientAddress);
    if (!captcha.ok)
      return fail("captcha", { [CAPTCHA_FIELD]: [captcha.message ?? "Please verify that you are not a robot."] });
    const limited = await limit("enquiry-phone", value.phone);
    if (limited) return limited;
  }

  let screenshotId: number | null = null;
  if (value.shared) {
    const file = fileOf(ctx.screenshot ?? form.get("screenshot"));
    if (file) {
      const stored = await storeScreenshot(file, ctx.userId);
      if (!stored.ok) return stored;
      screenshotId = stored.id;
    } else {
      screenshotId = resolveScreenshotRef(ctx.screenshotRef ?? (form.get("screenshot_ref") as string | null));
    }
  }

  let created: Preregistration;
  try {
    const result = db.transaction(
      (tx): Preregistration | Failure | { first: Preregistration } => {
        // A twin request with the same form token may have saved meanwhile.
        const first = formToken
          ? tx.select().from(preregistrations).where(eq(preregistrations.form_token, formToken)).get()
          : undefined;
        if (first) return { first };
        const conflict = conflicts(tx, value);
        if (conflict) return conflict;
        return tx
          .insert(preregistrations)
          .values({
            slug: randomSlug(),
            campaign: CAMPAIGN,
            name: value.name,
            address: value.address,
            email: value.email ?? null,
            phone: value.phone,
            citizenship_no: value.citizenship_no,
            shared: value.shared,
            screenshot_id: screenshotId,
            bike_model_id: value.bike_model_id ?? null,
            source: value.source ?? null,
            note: value.note ?? null,
            send_sms: value.send_sms,
            branch_id: ctx.channel === "branch" ? ctx.branchId : null,
            nearest_branch_id: value.nearest_branch_id ?? (ctx.channel === "branch" ? ctx.branchId : null),
            created_by: ctx.userId,
            form_token: formToken,
            created_at: nowIso(),
            updated_at: nowIso(),
          })
          .returning()
          .get();
      },
      { behavior: "immediate" },
    );
    if ("first" in result) return { ok: true, preregistration: result.first, duplicate: true };
    if ("ok" in result) return result;
    created = result;
  } catch (error) {
    if (isUnique(error, "form_token")) {
      const first = byFormToken(formToken);
      if (first) return { ok: true, preregistration: first, duplicate: true };
    }
    if (isUnique(error, "preregistrations.phone") || isUnique(error, "preregistrations.campaign")) {
      return conflicts(db, value) ?? fail("duplicate_phone", { phone: [M.phoneTaken] });
    }
    throw error;
  }

  await sendVerificationCode(created);
  return { ok: true, preregistration: created, duplicate: false };
}

function sendVerificationCode(entry: Pick<Preregistration, "id" | "phone">) {
  return issueCode({
    purpose: "preregistration",
    subjectId: entry.id,
    phone: entry.phone,
    text: otpText,
    smsPurpose: "otp",
  });
}

// ---------------------------------------------------------------- reading

/**
 * The pre-registrations a user may open: head office every one; a branch user
 * those made at its branch and the public ones (no branch), so the showroom a
 * visitor walks into can serve them. One made at another branch is never reachable.
 */
export function preregistrationScope(scope: Scope | undefined): SQL | undefined {
  if (!scope || scope.branchId === null) return undefined;
  return or(eq(preregistrations.branch_id, scope.branchId), isNull(preregistrations.branch_id));
}

function rowBySlug(slug: string, scope?: Scope): Preregistration | null {
  return (
    db
      .select()
      .from(preregistrations)
      .where(and(eq(preregistrations.slug, slug), isNull(preregistrations.deleted_at), preregistrationScope(scope)))
      .get() ?? null
  );
}

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
      entry: preregistrations,
      bike_model_title: bikeModels.title,
      branch_title: branches.title,
      nearest_title: nearestBranches.title,
      registration_slug: registrations.slug,
    })
    .from(preregistrations)
    .leftJoin(bikeModels, eq(bikeModels.id, preregistrations.bike_model_id))
    .leftJoin(branches, eq(branches.id, preregistrations.branch_id))
    .leftJoin(nearestBranches, eq(nearestBranches.id, preregistrations.nearest_branch_id))
    .leftJoin(
      registrations,
      and(eq(registrations.preregistration_id, preregistrations.id), isNull(registrations.deleted_at)),
    )
    .where(and(eq(preregistrations.slug, slug), isNull(preregistrations.deleted_at), preregistrationScope(scope)))
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

/** When the visitor may ask for a new code, and how long the current one lasts (never the code itself). */
export function verificationState(entry: Preregistration) {
  return { resendAt: canResendAt("preregistration", entry.id).toISOString() };
}

// ---------------------------------------------------------------- verification and draw

export type ResendResult =
  | { ok: true; expiresAt: string; resendAt: string; message: string }
  | {
      ok: false;
      reason: "not_found" | "already_verified" | "too-soon" | "hourly-cap" | "rate_limited";
      message: string;
      retryAfterSeconds?: number;
    };

export type ClientOptions = { clientAddress?: string | null };

/** Sends a fresh code (the 60-second and 5-per-hour rules of otp.server.ts apply). */
export async function resendVerificationCode(
  slug: string,
  scope?: Scope,
  opts: ClientOptions = {},
): Promise<ResendResult> {
  const entry = rowBySlug(slug, scope);
  if (!entry) return { ok: false, reason: "not_found", message: OTP_MESSAGES.notFound };
  if (entry.is_verified) return { ok: false, reason: "already_verified", message: OTP_MESSAGES.alreadyVerified };
  if (opts.clientAddress) {
    const res = await hit("otp-resend-ip", opts.clientAddress);
    if (!res.ok) {
      return {
        ok: false,
        reason: "rate_limited",
        message: tooManyMessage(res.retryAfterSeconds),
        retryAfterSeconds: res.retryAfterSeconds,
      };
    }
  }
  const issued = await sendVerificationCode(entry);
  if (!issued.ok) {
    const message =
      issued.reason === "too-soon"
        ? OTP_MESSAGES.tooSoon(issued.retryAfterSeconds)
        : OTP_MESSAGES.hourlyCap(Math.max(1, Math.ceil(issued.retryAfterSeconds / 60)));
    return { ok: false, reason: issued.reason, message, retryAfterSeconds: issued.retryAfterSeconds };
  }
  return {
    ok: true,
    expiresAt: issued.expiresAt,
    resendAt: canResendAt("preregistration", entry.id).toISOString(),
    message: OTP_MESSAGES.resent,
  };
}

export type VerifyResult =
  | { ok: true; preregistration: Preregistration; draw: DrawResult; alreadyVerified: boolean }
  | {
      ok: false;
      reason: "not_found" | "required" | "invalid" | "expired" | "exhausted" | "pending_purchase" | "rate_limited";
      message: string;
      attemptsLeft?: number;
      retryAfterSeconds?: number;
    };

/** The second thrill of a verified entry: drawn now if it has not been (a pool race is retried). */
export function ensureSecondThrill(entryId: number): DrawResult {
  for (let attempt = 1; ; attempt++) {
    try {
      return drawSecondThrill(entryId);
    } catch (error) {
      if (error instanceof DrawError && error.code === "conflict" && attempt < 3) continue;
      throw error;
    }
  }
}

/**
 * Checks the code; a correct one marks the entry verified (is_verified,
 * status "verified", verified_at) and draws its second thrill in the same
 * request. An entry verified before gives its existing draw back.
 */
export async function verifyPreregistration(
  slug: string,
  code: unknown,
  scope?: Scope,
  opts: ClientOptions = {},
): Promise<VerifyResult> {
  const entry = rowBySlug(slug, scope);
  if (!entry) return { ok: false, reason: "not_found", message: OTP_MESSAGES.notFound };
  if (entry.is_verified) {
    const draw = ensureSecondThrill(entry.id);
    return { ok: true, preregistration: rowBySlug(slug) ?? entry, draw, alreadyVerified: true };
  }
  const parsed = verifySchema.safeParse({ code: code instanceof FormData ? code.get("code") : code });
  const given = parsed.success ? parsed.data.code : "";
  if (!given) return { ok: false, reason: "required", message: OTP_MESSAGES.required };
  if (opts.clientAddress) {
    const res = await hit("otp-verify-ip", opts.clientAddress);
    if (!res.ok) {
      return {
        ok: false,
        reason: "rate_limited",
        message: tooManyMessage(res.retryAfterSeconds),
        retryAfterSeconds: res.retryAfterSeconds,
      };
    }
  }
  const pending = pendingPurchaseOf(db, entry.citizenship_no, entry.id);
  if (pending) return { ok: false, reason: "pending_purchase", message: M.pendingPurchase };

  const checked = verifyCode({ purpose: "preregistration", subjectId: entry.id, code: given });
  if (!checked.ok) {
    if (checked.reason === "expired") return { ok: false, reason: "expired", message: OTP_MESSAGES.expired };
    if (checked.reason === "exhausted") return { ok: false, reason: "exhausted", message: OTP_MESSAGES.exhausted };
    return {
      ok: false,
      reason: "invalid",
      message: OTP_MESSAGES.invalid,
      attemptsLeft: checked.reason === "invalid" ? checked.attemptsLeft : undefined,
    };
  }
  const at = now().toISOString();
  db.update(preregistrations)
    .set({ is_verified: true, status: "verified", verified_at: at, updated_at: at })
    .where(and(eq(preregistrations.id, entry.id), eq(preregistrations.is_verified, false)))
    .run();
  const draw = ensureSecondThrill(entry.id);
  return { ok: true, preregistration: rowBySlug(slug) ?? entry, draw, alreadyVerified: false };
}

export type PrizeSummary = { amount: number; first: number; total: number };

/** The draw page's figures: second thrill (drawn now if missing), first thrill and total. Null while unverified. */
export function prizeSummary(entry: Preregistration): PrizeSummary | null {
  if (!entry.is_verified) return null;
  const draw = ensureSecondThrill(entry.id);
  const fresh = { ...entry, prize: draw.amount };
  return { amount: draw.amount, first: firstThrill(fresh), total: totalPrize(fresh) };
}

/** The public entry by slug (never a deleted one). */
export function findPublicEntry(slug: string): Preregistration | null {
  return rowBySlug(slug);
}
