/**
 * Pre-registration rules, one place for the public site, the back office and
 * the JSON API (beside it: verification and continue in preregistration-verify,
 * the reading of one entry in preregistration-read, the visitor's change in
 * preregistration-change, the staff's list and edits in preregistration-admin, who may reach
 * which entry in preregistration-reach). Routes parse with the shared schema (app/schemas/preregistration.ts)
 * and hand typed values here, with the proof screenshot (a File or the signed
 * reference of the confirmation step) given explicitly:
 *
 * - one pre-registration per phone per campaign (at the counter the first, if
 *   unverified, is offered for continued verification; a public visitor gets
 *   the message alone, and the phone's owner continues with a code sent to it);
 * - "This citizenship/pan has pending purchase." when the citizenship/PAN
 *   already has a verified pre-registration without a purchase (the View link's
 *   slug at the counter only);
 * - public entries refused while registration is closed, and rate limited per
 *   address and phone (the counters taken inside the write's transaction);
 * - a form submitted twice (same form token) gives the first record back;
 * - the proof screenshot is stored bounded (720 x 1280, q80) by storeUpload;
 * - the phone is verified by a 6-digit SMS code (otp.server.ts rules).
 *
 * Each public write (create, verify, resend) is one IMMEDIATE transaction:
 * the record, the one-time code, the SMS row (queued, sent by the worker after
 * the commit) and the rate-limit counters commit together. A correct code is
 * consumed, the entry marked verified and its second thrill drawn in the same
 * transaction, so nothing is left half done.
 *
 * Public pre-registrations have no branch and a nearest showroom; staff-made
 * ones belong to the staff member's branch (head office chooses one) and draw
 * from its pools. Staff writes leave an audit row in their transaction.
 */
import crypto from "node:crypto";
import { and, eq, isNull, ne, or, sql } from "drizzle-orm";
import { entryReference } from "@db/reference";
import { db, schema, type Executor } from "@db/index";
import { insertReturning, prepared } from "@db/prepared";
import type { Preregistration } from "@db/schema";
import {
  OTP_MESSAGES,
  PREREGISTRATION_MESSAGES as M,
  type CounterPreregistrationInput,
  type PreregistrationInput,
} from "~/schemas/preregistration";
import { sessionSecrets } from "~/utils/config.server";
import { randomSlug } from "~/utils/crypto.server";
import { take, type LimitName } from "~/utils/rate-limit.server";
import type { Referral } from "~/utils/share-link.server";
import { nowIso } from "~/utils/time";
import { audit, diff } from "./audit.server";
import { fail, FailureError, type Failure, type FieldErrors, type Result } from "~/utils/failure";
import { getFile, storeUpload, UPLOAD_FAILED, UploadError } from "./file.server";
import { issueCodeIn, OTP_RULES, type IssueRefusal } from "./otp.server";
import { screenNewEntry } from "./integrity-write.server";
import { grantCounterAccess, reaches } from "./preregistration-reach.server";
import { referralFor } from "./referrer.server";
import type { Scope, ScopedActor } from "./scope.server";
import { isRegistrationOpen } from "./settings.server";
import { wakeSmsWorker } from "./sms.server";
import { transact, transactTogether } from "./transaction.server";
import { isHeadOffice } from "./scope.server";

const { preregistrations: P, bikeModels, branches } = schema;

export type { Preregistration };

/** Every pre-registration belongs to this campaign (the phone is unique per campaign). */
export const CAMPAIGN = "thrill";

/**
 * A visitor of the public site, known by the client address (for the rate limits); `referral` is the
 * share link they came through (its cookie): the pre-registration records that customer as referrer.
 */
export type Visitor = { channel: "public"; address: string | null; referral?: Referral | null };
/** Staff at the counter (back office or staff API), with their branch scope. */
export type Counter = { channel: "counter"; actor: ScopedActor };
export type Channel = Visitor | Counter;

/** The proof screenshot of a shared entry: an uploaded file, or the confirmation step's signed reference. */
export type Screenshot = { file?: File | null; ref?: string | null };

const ENTITY = "preregistration";

export const scopeOfChannel = (who: Channel): Scope | undefined =>
  who.channel === "counter" ? who.actor.scope : undefined;

// ---------------------------------------------------------------- staged screenshots

const refSignature = (id: number) =>
  crypto.createHmac("sha256", sessionSecrets()[0]).update(`screenshot:${id}`).digest("base64url").slice(0, 32);

/** A tamper-proof reference to a stored screenshot, carried by the confirmation step. */
export function screenshotRefFor(fileId: number): string {
  return `${fileId}.${refSignature(fileId)}`;
}

/** The screenshot file id behind a reference, if it is genuine, a screenshot, and not yet used by an entry. */
export function resolveScreenshotRef(ref: string | null | undefined, exec: Executor = db): number | null {
  const m = /^(\d{1,12})\.([A-Za-z0-9_-]{32})$/.exec(ref ?? "");
  if (!m) return null;
  const id = Number(m[1]);
  const expected = Buffer.from(refSignature(id));
  const given = Buffer.from(m[2]);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return null;
  const file = getFile(id);
  if (!file || file.type !== "screenshot") return null;
  const used = exec.select({ id: P.id }).from(P).where(eq(P.screenshot_id, id)).get();
  return used ? null : id;
}

/** The screenshot chosen, if any: a form whose file input was left empty sends an empty file. */
export const fileOf = (file: File | null | undefined): File | null =>
  file instanceof File && file.size > 0 ? file : null;

/** Stores an uploaded proof screenshot (bounded to 720 x 1280); a refused file is a failure under `screenshot`. */
export async function storeScreenshot(file: File, userId: number | null): Promise<Result<{ id: number }>> {
  try {
    return { ok: true, id: (await storeUpload(file, "screenshot", userId)).id };
  } catch (error) {
    if (error instanceof UploadError) {
      const message = error.message || UPLOAD_FAILED;
      return error.failure.code === "too_large"
        ? fail.tooLarge(message, "screenshot")
        : fail.field("screenshot", message);
    }
    throw error;
  }
}

// ---------------------------------------------------------------- rules

type References = { bike_model_id?: number | null; nearest_branch_id?: number | null; branch_id?: number | null };

/**
 * The one check of the records a pre-registration points at: a bike model on
 * sale, an open nearest showroom and (counter) an open branch. An edit may
 * `keep` what the entry already names, though it has been retired or closed
 * since. Each field has one message, the same as the schema's for a value that
 * is not an id.
 */
const openBranchById = prepared((q) =>
  q
    .select({ id: branches.id })
    .from(branches)
    .where(and(eq(branches.id, sql.placeholder("id")), isNull(branches.deleted_at), isNull(branches.closed_at)))
    .prepare(),
);

const onSaleModelById = prepared((q) =>
  q
    .select({ id: bikeModels.id })
    .from(bikeModels)
    .where(and(eq(bikeModels.id, sql.placeholder("id")), isNull(bikeModels.deleted_at), isNull(bikeModels.retired_at)))
    .prepare(),
);

export function referenceErrors(exec: Executor, refs: References, keep: References = {}): FieldErrors {
  const errors: FieldErrors = {};
  const openBranch = (id: number) => !!openBranchById(exec).get({ id });
  const onSale = (id: number) => !!onSaleModelById(exec).get({ id });
  const bad = (key: keyof References, ok: (id: number) => boolean) => {
    const id = refs[key];
    return !!id && id !== keep[key] && !ok(id);
  };
  if (bad("bike_model_id", onSale)) errors.bike_model_id = [M.bikeModel];
  if (bad("nearest_branch_id", openBranch)) errors.nearest_branch_id = [M.nearestBranch];
  if (bad("branch_id", openBranch)) errors.branch_id = [M.branch];
  return errors;
}

/** The branch a counter entry belongs to: the staff member's own, or head office's choice. */
function counterBranch(exec: Executor, actor: ScopedActor, chosen: number | null | undefined): number | Failure {
  if (!isHeadOffice(actor.scope)) return actor.scope.branchId;
  if (!chosen || Object.keys(referenceErrors(exec, { branch_id: chosen })).length) {
    return fail.field("branch_id", M.branch);
  }
  return chosen;
}

/** A verified, not purchased, not deleted pre-registration with this citizenship/PAN. */
export function pendingPurchaseOf(exec: Executor, citizenshipNo: string, exceptId?: number) {
  return pendingPurchaseQuery(exec).get({ citizenshipNo, exceptId: exceptId ?? NO_ENTRY });
}

/** An id no entry has: "except none". */
const NO_ENTRY = 0;

const pendingPurchaseQuery = prepared((q) =>
  q
    .select({ id: P.id, slug: P.slug })
    .from(P)
    .where(
      and(
        eq(P.citizenship_no, sql.placeholder("citizenshipNo")),
        eq(P.is_verified, true),
        eq(P.purchased, false),
        isNull(P.deleted_at),
        ne(P.id, sql.placeholder("exceptId")),
      ),
    )
    .prepare(),
);

/** The entries that keep their phone taken: the live ones, and deleted ones whose prize was drawn. */
export const holdsItsPhone = or(isNull(P.deleted_at), eq(P.is_verified, true));

/**
 * Phone already taken, or the citizenship/PAN has a pending purchase.
 *
 * Public (the form and POST /api/v1/enquiry): the message alone, the same for
 * every state of the other entry (unverified, verified, deleted), never its
 * slug or anything else of it. The owner of a taken phone gets back in with
 * a code sent to that phone (`sendContinueCode`).
 *
 * Counter: the second element of the field's messages is the slug to
 * continue with (spec 000 §5's View link), given only for a record the
 * branch reaches; typing the full phone of a public entry is finding it at
 * the counter, so inside a transaction (`grant`) that entry is granted.
 */
const phoneHolder = prepared((q) =>
  q
    .select({ id: P.id, slug: P.slug, is_verified: P.is_verified, deleted_at: P.deleted_at, branch_id: P.branch_id })
    .from(P)
    .where(
      and(
        eq(P.campaign, CAMPAIGN),
        eq(P.phone, sql.placeholder("phone")),
        holdsItsPhone,
        ne(P.id, sql.placeholder("exceptId")),
      ),
    )
    .prepare(),
);

function conflicts(
  exec: Executor,
  value: PreregistrationInput,
  who: Channel,
  { grant = false, exceptId }: { grant?: boolean; exceptId?: number } = {},
): Failure | null {
  // A deleted entry frees its phone, unless it was verified (its prize drawn): decision 5.
  const samePhone = phoneHolder(exec).get({ phone: value.phone, exceptId: exceptId ?? NO_ENTRY });
  if (samePhone) {
    if (who.channel === "public" || samePhone.is_verified || samePhone.deleted_at) {
      return fail.field("phone", M.phoneTaken);
    }
    const granted = grant ? grantCounterAccess(exec, who.actor, samePhone.id) : null;
    if (granted && "failure" in granted) return fail.field("phone", granted.failure.message);
    if (!reaches(exec, who.actor.scope, samePhone.id)) return fail.field("phone", M.phoneTaken);
    return fail.invalid({ phone: [M.phoneTakenUnverified, samePhone.slug] });
  }
  const pending = pendingPurchaseOf(exec, value.citizenship_no, exceptId);
  if (pending) {
    const visible = who.channel === "counter" && reaches(exec, who.actor.scope, pending.id);
    return fail.invalid({ citizenship_no: visible ? [M.pendingPurchase, pending.slug] : [M.pendingPurchase] });
  }
  return null;
}

/** Takes a point from each limit inside the transaction; the first refusal, or null. */
export function takeLimits(tx: Executor, limits: [LimitName, string | null | undefined][]): Failure | null {
  for (const [name, key] of limits) {
    if (!key) continue;
    const res = take(tx, name, key);
    if (!res.ok) return fail.rateLimited(res.retryAfterSeconds);
  }
  return null;
}

function byFormToken(exec: Executor, token: string | null | undefined): Preregistration | undefined {
  if (!token) return undefined;
  return byFormTokenQuery(exec).get({ token });
}

const byFormTokenQuery = prepared((q) =>
  q
    .select()
    .from(P)
    .where(eq(P.form_token, sql.placeholder("token")))
    .prepare(),
);

const insertPreregistration = insertReturning(P);

const validToken = (token: string | null | undefined) =>
  token && /^[A-Za-z0-9_-]{16,64}$/.test(token.trim()) ? token.trim() : null;

/** The columns the form sets, the same on a new entry and on a change. */
export function formColumns(value: PreregistrationInput, screenshotId: number | null) {
  return {
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
  };
}

/**
 * The rules of a pre-registration write that need the database, in the
 * write's own transaction: the one checker of the confirmation step, the save
 * and the visitor's change ("Wrong number? Change it", which passes its own
 * entry as `exceptId`). Public: the campaign is open and each limit takes a
 * point; counter: the branch. Then the references, the phone taken and the
 * citizenship/PAN's pending purchase (`conflicts`).
 */
export function checkPreregistrationWrite(
  tx: Executor,
  who: Channel,
  value: CounterPreregistrationInput,
  limits: [LimitName, string | null | undefined][],
  exceptId?: number,
): Result<{ branchId: number | null }> {
  if (who.channel === "public") {
    if (!isRegistrationOpen()) return fail.closed(M.closed);
    const limited = takeLimits(tx, limits);
    if (limited) return limited;
  }
  let branchId: number | null = null;
  if (who.channel === "counter") {
    const chosen = counterBranch(tx, who.actor, value.branch_id);
    if (typeof chosen !== "number") return chosen;
    branchId = chosen;
  }
  const errors = referenceErrors(tx, {
    bike_model_id: value.bike_model_id,
    nearest_branch_id: value.nearest_branch_id,
  });
  if (Object.keys(errors).length) return fail.invalid(errors);
  return conflicts(tx, value, who, { grant: true, exceptId }) ?? { ok: true, branchId };
}

/** The public form needs proof of a share: a file now, or the confirmation step's reference. */
function proofMissing(who: Channel, value: PreregistrationInput, screenshot: Screenshot, exec: Executor = db): boolean {
  return (
    who.channel === "public" &&
    value.shared &&
    !fileOf(screenshot.file) &&
    !resolveScreenshotRef(screenshot.ref ?? value.screenshot_ref, exec)
  );
}

/**
 * A refused public form also says that its screenshot is missing ("I have shared" ticked, no file),
 * so every error shows on the first post, not the screenshot's on the second.
 */
export function withMissingProof(
  failure: Failure,
  sent: { shared: boolean; screenshot_ref: string | null; file: File | null },
): Failure {
  if (failure.code !== "invalid" || failure.errors.screenshot?.length) return failure;
  const value = { shared: sent.shared, screenshot_ref: sent.screenshot_ref } as PreregistrationInput;
  if (!proofMissing({ channel: "public", address: null }, value, { file: sent.file })) return failure;
  return { ...failure, errors: { ...failure.errors, screenshot: [M.screenshotRequired] } };
}

// ---------------------------------------------------------------- the confirmation step

/**
 * The confirmation step ("Please Confirm Your Phone Number."): every check of
 * the save (state, limits, references, conflicts) except the captcha (checked
 * once, at the save), and the screenshot stored now so the second post need
 * not send it again. A public review takes a point from the address's limit,
 * as a save does: it tells whether a phone is registered.
 */
export async function reviewPreregistration(
  who: Channel,
  value: CounterPreregistrationInput,
  screenshot: Screenshot = {},
): Promise<Result<{ value: CounterPreregistrationInput; screenshotRef: string | null }>> {
  // Shares the commit of the public writes in flight (a review takes rate-limit points).
  const checked = await transactTogether((tx) => {
    // It tells whether a phone or citizenship number is taken: the same address and phone limits as a save.
    const result = checkPreregistrationWrite(tx, who, value, [
      ["enquiry-ip", who.channel === "public" ? who.address : null],
      ["enquiry-phone", who.channel === "public" ? value.phone : null],
    ]);
    if (!result.ok) return result;
    if (proofMissing(who, value, screenshot, tx)) return fail.field("screenshot", M.screenshotRequired);
    return result;
  });
  if (!checked.ok) return checked;
  let screenshotRef: string | null = null;
  if (value.shared) {
    const file = fileOf(screenshot.file);
    if (file) {
      const stored = await storeScreenshot(file, who.channel === "counter" ? who.actor.id : null);
      if (!stored.ok) return stored;
      screenshotRef = screenshotRefFor(stored.id);
    } else {
      const ref = screenshot.ref ?? value.screenshot_ref ?? null;
      screenshotRef = resolveScreenshotRef(ref) ? ref : null;
    }
  }
  return { ok: true, value, screenshotRef };
}

export const resendMessage = (reason: IssueRefusal, retryAfterSeconds: number) => {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  if (reason === "too-soon") return OTP_MESSAGES.tooSoon(retryAfterSeconds);
  return reason === "ceiling" ? OTP_MESSAGES.ceiling(minutes) : OTP_MESSAGES.hourlyCap(minutes);
};

/** Every sender's hourly ceiling of code SMS reached: a 429 that says when, and nothing written. */
export const ceilingReached = (retryAfterSeconds: number) =>
  fail.rateLimited(retryAfterSeconds, resendMessage("ceiling", retryAfterSeconds));

// ---------------------------------------------------------------- create

export const otpText = (code: string) =>
  `Your Thrill verification code is ${code}. It is valid for ${OTP_RULES.validSeconds / 60} minutes.`;

const isUnique = (error: unknown, what: string) =>
  (error as { code?: string })?.code === "SQLITE_CONSTRAINT_UNIQUE" && String((error as Error).message).includes(what);

export type Created = { preregistration: Preregistration; duplicate: boolean };

/**
 * Creates a pre-registration and its verification code (the SMS queued in the
 * same transaction, sent by the worker after the commit).
 * Public: refused while registration is closed; a point taken from the
 * address's and the phone's limits; no branch, a nearest showroom required.
 * Counter: the staff member's branch (head office: value.branch_id), created
 * by the actor, with an audit row.
 * The same form token again returns the first record with duplicate: true.
 */
export async function createPreregistration(
  who: Channel,
  value: CounterPreregistrationInput,
  screenshot: Screenshot = {},
  opts: { formToken?: string | null } = {},
): Promise<Result<Created>> {
  const formToken = validToken(opts.formToken) ?? value.form_token ?? null;
  const again = byFormToken(db, formToken);
  if (again) return { ok: true, preregistration: again, duplicate: true };
  if (proofMissing(who, value, screenshot)) return fail.field("screenshot", M.screenshotRequired);

  let screenshotId: number | null = null;
  if (value.shared) {
    const file = fileOf(screenshot.file);
    if (file) {
      // Before storing a file, the refusals that need no point taken (at the counter, finding the
      // customer's phone is recorded as there).
      const early =
        who.channel === "counter"
          ? transact((tx) => conflicts(tx, value, who, { grant: true }) ?? { ok: true as const })
          : (conflicts(db, value, who) ?? { ok: true as const });
      if (!early.ok) return early;
      const stored = await storeScreenshot(file, who.channel === "counter" ? who.actor.id : null);
      if (!stored.ok) return stored;
      screenshotId = stored.id;
    } else {
      screenshotId = resolveScreenshotRef(screenshot.ref ?? value.screenshot_ref);
    }
  }

  let outcome: Result<Created>;
  try {
    outcome = await transactTogether((tx): Result<Created> => {
      // A twin request with the same form token may have saved meanwhile.
      const first = byFormToken(tx, formToken);
      if (first) return { ok: true, preregistration: first, duplicate: true };
      const checked = checkPreregistrationWrite(tx, who, value, [
        ["enquiry-ip", who.channel === "public" ? who.address : null],
        ["enquiry-phone", who.channel === "public" ? value.phone : null],
      ]);
      if (!checked.ok) return checked;
      const counter = who.channel === "counter" ? who.actor : null;
      const referred = who.channel === "public" ? referralFor(tx, who.referral, value.phone) : null;
      const at = nowIso();
      const slug = randomSlug();
      const created = insertPreregistration(tx, {
        slug,
        ref: entryReference(slug), // as the database would set it, so the row returned carries it
        campaign: CAMPAIGN,
        ...formColumns(value, screenshotId),
        send_sms: value.send_sms,
        branch_id: checked.branchId,
        nearest_branch_id: value.nearest_branch_id ?? checked.branchId,
        created_by: counter?.id ?? null,
        form_token: formToken,
        referrer_id: referred?.referrer_id ?? null,
        utm_source: referred?.utm_source ?? null,
        created_at: at,
        updated_at: at,
      });
      const issued = issueCodeIn(tx, {
        purpose: "preregistration",
        subjectId: created.id,
        phone: created.phone,
        text: otpText,
        smsPurpose: "otp",
        sender: counter ? "staff" : "public",
      });
      // No code can go out this hour: the entry is not kept, so the visitor simply tries again later.
      if (!issued.ok && issued.reason === "ceiling") throw new FailureError(ceilingReached(issued.retryAfterSeconds));
      // Its address kept (a visitor's: a counter's is its showroom's, where many entries an hour are the
      // job, not a burst), and what one entry can tell raised (decision 21).
      screenNewEntry(tx, created, who.channel === "public" ? who.address : null);
      if (counter) {
        audit(tx, counter, {
          action: "preregistration.create",
          entityType: ENTITY,
          entityId: created.slug,
          changes: diff(null, created),
        });
      }
      return { ok: true, preregistration: created, duplicate: false };
    });
  } catch (error) {
    if (isUnique(error, "form_token")) {
      const first = byFormToken(db, formToken);
      if (first) return { ok: true, preregistration: first, duplicate: true };
    }
    if (isUnique(error, "preregistrations.phone") || isUnique(error, "preregistrations.campaign")) {
      return conflicts(db, value, who) ?? fail.field("phone", M.phoneTaken);
    }
    throw error;
  }
  if (outcome.ok && !outcome.duplicate) wakeSmsWorker();
  return outcome;
}
