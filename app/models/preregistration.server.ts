/**
 * Pre-registration rules, one place for the public site, the back office and
 * the JSON API. Routes parse with the shared schema (app/schemas/preregistration.ts)
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
import { and, eq, inArray, isNull, ne, or, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { db, schema, type Executor } from "@db/index";
import type { Preregistration } from "@db/schema";
import { drawSecondThrill, DrawError, type DrawResult } from "~/models/prize-draw.server";
import { firstThrill, totalPrize } from "~/models/prize-constants";
import {
  CONTINUE_MESSAGES,
  COUNTER_VERIFY_MESSAGES as CV,
  FILTERS,
  OTP_MESSAGES,
  PREREGISTRATION_MESSAGES as M,
  type CounterPreregistrationInput,
  type PreregistrationInput,
} from "~/schemas/preregistration";
import { sessionSecrets } from "~/utils/config.server";
import { randomSlug } from "~/utils/crypto.server";
import { maskPhone } from "~/utils/phone";
import { EVERY_SENDER, peek, take, type LimitName } from "~/utils/rate-limit.server";
import type { Referral } from "~/utils/share-link.server";
import { now, nowIso } from "~/utils/time";
import { audit, diff } from "./audit.server";
import { fail, FailureError, type Failure, type FieldErrors, type Result } from "./failure";
import { fileUrl, getFile, storeUpload, UPLOAD_FAILED, UploadError } from "./file.server";
import { canResendAt, checkCodeIn, currentCode, issueCodeIn, OTP_RULES, type IssueRefusal } from "./otp.server";
import { referralFor } from "./referrer.server";
import type { Scope, ScopedActor } from "./scope.server";
import { isRegistrationOpen } from "./settings.server";
import { codeDelivery, wakeSmsWorker } from "./sms.server";
import { transact, transactTogether } from "./transaction.server";
import { isHeadOffice } from "./scope.server";

const { preregistrations: P, preregistrationGrants: G, bikeModels, branches, registrations } = schema;
const nearestBranches = alias(branches, "nearest_branch");

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

// ---------------------------------------------------------------- who may reach what

/**
 * The one reach rule of pre-registrations, inside every query of them: head
 * office reaches all; a branch user those made at its branch, and the public
 * ones (no branch) that named it as nearest showroom or that its staff found
 * at the counter by the full phone number (a recorded grant). One made at
 * another branch is never reachable. Lists, pages, the API, the proof
 * screenshots and the dashboard all use it.
 */
export function preregistrationScope(scope: Scope | undefined): SQL | undefined {
  if (!scope || isHeadOffice(scope)) return undefined;
  const branchId = scope.branchId;
  // Three indexable terms, so SQLite answers the OR from indexes (no scan).
  return or(
    eq(P.branch_id, branchId),
    and(isNull(P.branch_id), eq(P.nearest_branch_id, branchId)),
    and(
      isNull(P.branch_id),
      inArray(P.id, db.select({ id: G.preregistration_id }).from(G).where(eq(G.branch_id, branchId))),
    ),
  );
}

/**
 * Who may rule an entry (change it, send its code to a new number, delete it): head office, and the
 * entry's own branch (made at its counter, or a public entry naming it as nearest showroom). A counter
 * grant only reads: the branch that found an entry by its phone may open it, verify it with the
 * customer's code and register the purchase, nothing more (decision 5).
 */
export function preregistrationOwnerScope(scope: Scope | undefined): SQL | undefined {
  if (!scope || isHeadOffice(scope)) return undefined;
  const branchId = scope.branchId;
  return or(eq(P.branch_id, branchId), and(isNull(P.branch_id), eq(P.nearest_branch_id, branchId)));
}

/**
 * Records that a branch found a public pre-registration at its counter, so
 * its staff reach it from now on. A branch-made record is never granted.
 */
export function grantCounterAccess(
  tx: Executor,
  actor: ScopedActor,
  entry: Pick<Preregistration, "id" | "slug" | "branch_id">,
) {
  if (isHeadOffice(actor.scope) || entry.branch_id !== null) return;
  const added = tx
    .insert(G)
    .values({ branch_id: actor.scope.branchId, preregistration_id: entry.id, granted_by: actor.id })
    .onConflictDoNothing()
    .run();
  if (added.changes) {
    audit(tx, actor, {
      action: "preregistration.grant",
      entityType: ENTITY,
      entityId: entry.slug,
      changes: { branch_id: { before: null, after: actor.scope.branchId } },
    });
  }
}

function reaches(exec: Executor, scope: Scope, id: number): boolean {
  if (isHeadOffice(scope)) return true;
  return !!exec
    .select({ id: P.id })
    .from(P)
    .where(and(eq(P.id, id), preregistrationScope(scope)))
    .get();
}

function rowBySlug(exec: Executor, slug: string, scope?: Scope): Preregistration | null {
  if (!slug) return null;
  return (
    exec
      .select()
      .from(P)
      .where(and(eq(P.slug, slug), isNull(P.deleted_at), preregistrationScope(scope)))
      .get() ?? null
  );
}

const scopeOfChannel = (who: Channel): Scope | undefined => (who.channel === "counter" ? who.actor.scope : undefined);

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

const fileOf = (file: File | null | undefined): File | null => (file instanceof File && file.size > 0 ? file : null);

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
export function referenceErrors(exec: Executor, refs: References, keep: References = {}): FieldErrors {
  const errors: FieldErrors = {};
  const openBranch = (id: number) =>
    !!exec
      .select({ id: branches.id })
      .from(branches)
      .where(and(eq(branches.id, id), isNull(branches.deleted_at), isNull(branches.closed_at)))
      .get();
  const onSale = (id: number) =>
    !!exec
      .select({ id: bikeModels.id })
      .from(bikeModels)
      .where(and(eq(bikeModels.id, id), isNull(bikeModels.deleted_at), isNull(bikeModels.retired_at)))
      .get();
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
function pendingPurchaseOf(exec: Executor, citizenshipNo: string, exceptId?: number) {
  return exec
    .select({ id: P.id, slug: P.slug })
    .from(P)
    .where(
      and(
        eq(P.citizenship_no, citizenshipNo),
        eq(P.is_verified, true),
        eq(P.purchased, false),
        isNull(P.deleted_at),
        exceptId ? ne(P.id, exceptId) : undefined,
      ),
    )
    .get();
}

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
/** The entries that keep their phone taken: the live ones, and deleted ones whose prize was drawn. */
export const holdsItsPhone = or(isNull(P.deleted_at), eq(P.is_verified, true));

function conflicts(
  exec: Executor,
  value: PreregistrationInput,
  who: Channel,
  { grant = false, exceptId }: { grant?: boolean; exceptId?: number } = {},
): Failure | null {
  // A deleted entry frees its phone, unless it was verified (its prize drawn): decision 5.
  const samePhone = exec
    .select({ id: P.id, slug: P.slug, is_verified: P.is_verified, deleted_at: P.deleted_at, branch_id: P.branch_id })
    .from(P)
    .where(
      and(eq(P.campaign, CAMPAIGN), eq(P.phone, value.phone), holdsItsPhone, exceptId ? ne(P.id, exceptId) : undefined),
    )
    .get();
  if (samePhone) {
    if (who.channel === "public" || samePhone.is_verified || samePhone.deleted_at) {
      return fail.field("phone", M.phoneTaken);
    }
    if (grant) grantCounterAccess(exec, who.actor, samePhone);
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
function takeLimits(tx: Executor, limits: [LimitName, string | null | undefined][]): Failure | null {
  for (const [name, key] of limits) {
    if (!key) continue;
    const res = take(tx, name, key);
    if (!res.ok) return fail.rateLimited(res.retryAfterSeconds);
  }
  return null;
}

function byFormToken(exec: Executor, token: string | null | undefined): Preregistration | undefined {
  if (!token) return undefined;
  return exec.select().from(P).where(eq(P.form_token, token)).get();
}

const validToken = (token: string | null | undefined) =>
  token && /^[A-Za-z0-9_-]{16,64}$/.test(token.trim()) ? token.trim() : null;

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
  const checked = transact((tx) => {
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
      const created = tx
        .insert(P)
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
          branch_id: checked.branchId,
          nearest_branch_id: value.nearest_branch_id ?? checked.branchId,
          created_by: counter?.id ?? null,
          form_token: formToken,
          referrer_id: referred?.referrer_id ?? null,
          utm_source: referred?.utm_source ?? null,
          created_at: at,
          updated_at: at,
        })
        .returning()
        .get();
      const issued = issueCodeIn(tx, {
        purpose: "preregistration",
        subjectId: created.id,
        phone: created.phone,
        text: otpText,
        smsPurpose: "otp",
      });
      // No code can go out this hour: the entry is not kept, so the visitor simply tries again later.
      if (!issued.ok && issued.reason === "ceiling") throw new FailureError(ceilingReached(issued.retryAfterSeconds));
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
 * view: the details its visitor typed. Never the code, nor the full phone.
 */
export function ownerDetails(entry: Preregistration): OwnerDetails {
  return { name: entry.name, address: entry.address, email: entry.email, citizenship_no: entry.citizenship_no };
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
  return sms.status === "queued" && sms.attempts > 0 ? "retrying" : sms.status;
}

/** When the visitor may ask for a new code, and how its SMS fares (never the code itself). */
export function verificationState(entry: Preregistration): { resendAt: string; codeSms: CodeSms | null } {
  return { resendAt: canResendAt("preregistration", entry.id).toISOString(), codeSms: codeSmsOf(entry) };
}

/** The public entry by slug (never a deleted one). */
export function findPublicEntry(slug: string): Preregistration | null {
  return rowBySlug(db, slug);
}

// ---------------------------------------------------------------- verification and draw

const resendMessage = (reason: IssueRefusal, retryAfterSeconds: number) => {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  if (reason === "too-soon") return OTP_MESSAGES.tooSoon(retryAfterSeconds);
  return reason === "ceiling" ? OTP_MESSAGES.ceiling(minutes) : OTP_MESSAGES.hourlyCap(minutes);
};

/** Every sender's hourly ceiling of code SMS reached: a 429 that says when, and nothing written. */
const ceilingReached = (retryAfterSeconds: number) =>
  fail.rateLimited(retryAfterSeconds, resendMessage("ceiling", retryAfterSeconds));

const issueFor = (tx: Executor, entry: Pick<Preregistration, "id" | "phone">) =>
  issueCodeIn(tx, {
    purpose: "preregistration",
    subjectId: entry.id,
    phone: entry.phone,
    text: otpText,
    smsPurpose: "otp",
  });

export type Resent = { expiresAt: string; resendAt: string; message: string };

/**
 * Sends a fresh code (the 60-second and 5-per-hour rules of otp.server.ts
 * apply): the code and its SMS, and for a visitor the address's point, in one
 * transaction.
 */
export function resendVerificationCode(who: Channel, slug: string): Result<Resent> {
  const outcome = transact((tx): Result<Resent> => {
    const entry = rowBySlug(tx, slug, scopeOfChannel(who));
    if (!entry) return fail.notFound(OTP_MESSAGES.notFound);
    if (entry.is_verified) return fail.conflict(OTP_MESSAGES.alreadyVerified);
    if (who.channel === "public") {
      const limited = takeLimits(tx, [["otp-resend-ip", who.address]]);
      if (limited) return limited;
    }
    const issued = issueFor(tx, entry);
    if (!issued.ok)
      return fail.rateLimited(issued.retryAfterSeconds, resendMessage(issued.reason, issued.retryAfterSeconds));
    return {
      ok: true,
      expiresAt: issued.expiresAt,
      resendAt: canResendAt("preregistration", entry.id, tx).toISOString(),
      message: OTP_MESSAGES.resent,
    };
  });
  if (outcome.ok) wakeSmsWorker();
  return outcome;
}

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

export type Verified = { preregistration: Preregistration; draw: DrawResult; alreadyVerified: boolean };

/**
 * Checks a code and, when it is right, consumes it, marks the entry verified
 * (is_verified, status "verified", verified_at) and draws its second thrill,
 * all in one transaction. An entry verified before gives its existing draw back.
 *
 * Public (spec 000 §4): empty → "OTP is required"; wrong → "Invalid OTP"
 * (expired and used-up codes say so); a point of the address's limit per try.
 * Counter (spec 000 §4, §8): empty → "Enter the registration code the customer
 * received" (or, with `useCurrentCode`, staff who may see codes verify with the
 * live code, as the old client's no-body call did); a wrong code answers
 * "the code you have selected is incorrect. Please try again or resend the
 * code" and sends a fresh code when the code rules allow one (errors.resend
 * says why not otherwise). Staff verifications are audited.
 */
export async function verifyPreregistration(
  who: Channel,
  slug: string,
  code: string | null | undefined,
  opts: { useCurrentCode?: boolean } = {},
): Promise<Result<Verified>> {
  let resent = false;
  const outcome = await transactTogether((tx): Result<Verified> => {
    const entry = rowBySlug(tx, slug, scopeOfChannel(who));
    if (!entry) return fail.notFound(OTP_MESSAGES.notFound);
    if (entry.is_verified) {
      return { ok: true, preregistration: entry, draw: ensureSecondThrill(entry.id), alreadyVerified: true };
    }
    let given = FILTERS.digits(code ?? "");
    if (!given) {
      if (who.channel === "public") return fail.field("code", OTP_MESSAGES.required);
      if (!opts.useCurrentCode) return fail.field("code", CV.enterCode);
      given = currentCode("preregistration", entry.id, tx)?.code ?? "";
      if (!given) return fail.field("code", CV.noLiveCode);
    }
    if (who.channel === "public") {
      const limited = takeLimits(tx, [["otp-verify-ip", who.address]]);
      if (limited) return limited;
    }
    if (pendingPurchaseOf(tx, entry.citizenship_no, entry.id)) return fail.field("code", M.pendingPurchase);

    const checked = checkCodeIn(tx, { purpose: "preregistration", subjectId: entry.id, code: given });
    if (!checked.ok) {
      // Returned, not thrown: the used-up try (and a fresh code) must commit.
      if (who.channel === "public") {
        const message =
          checked.reason === "expired"
            ? OTP_MESSAGES.expired
            : checked.reason === "exhausted"
              ? OTP_MESSAGES.exhausted
              : checked.reason === "invalid" && checked.attemptsLeft === 0
                ? OTP_MESSAGES.lastTry
                : OTP_MESSAGES.invalid;
        return fail.field("code", message);
      }
      const issued = issueFor(tx, entry);
      resent = issued.ok;
      return fail.invalid(
        issued.ok
          ? { code: [CV.mismatch] }
          : { code: [CV.mismatch], resend: [resendMessage(issued.reason, issued.retryAfterSeconds)] },
        CV.mismatch,
      );
    }

    return markVerified(tx, who, entry);
  });
  if (resent) wakeSmsWorker();
  return outcome;
}

/**
 * The phone of an entry is proved (its code was right): the entry is marked
 * verified and its second thrill drawn, inside the caller's transaction (staff
 * verifications audited).
 */
function markVerified(tx: Executor, who: Channel, entry: Preregistration): Result<Verified> {
  const at = now().toISOString();
  const marked = tx
    .update(P)
    .set({ is_verified: true, status: "verified", verified_at: at, updated_at: at })
    .where(and(eq(P.id, entry.id), eq(P.is_verified, false)))
    .run();
  if (marked.changes !== 1) throw new FailureError(fail.conflict(OTP_MESSAGES.alreadyVerified));
  const draw = ensureSecondThrill(entry.id);
  const after = tx.select().from(P).where(eq(P.id, entry.id)).get()!;
  if (who.channel === "counter") {
    audit(tx, who.actor, {
      action: "preregistration.verify",
      entityType: ENTITY,
      entityId: entry.slug,
      changes: diff(entry, after),
    });
  }
  return { ok: true, preregistration: after, draw, alreadyVerified: false };
}

// ---------------------------------------------------------------- continue: the owner of a taken phone

/**
 * A visitor told "This phone number is already pre-registered." may be its
 * owner on another browser. They ask for a code to that phone; the right code
 * opens their entry (and, being proof of the phone, verifies it if it was
 * not). Both steps answer alike whether or not the phone has an entry, so
 * they tell a stranger nothing the form's message has not (decision 4).
 */
export const accessText = (code: string) =>
  `Your Thrill code to open your pre-registration is ${code}. It is valid for ${OTP_RULES.validSeconds / 60} minutes.`;

/** The live (not deleted) entry of a phone, if any. */
function entryOfPhone(exec: Executor, phone: string): Preregistration | null {
  return (
    exec
      .select()
      .from(P)
      .where(and(eq(P.campaign, CAMPAIGN), eq(P.phone, phone), isNull(P.deleted_at)))
      .get() ?? null
  );
}

export type ContinueSent = { phone: string; resendAt: string; message: string };

/**
 * Sends a code to the stored phone of the entry holding `phone`, if there is
 * one. The answer is the same either way: the masked number, when a new code
 * may be asked for, and "if it is pre-registered, a code was sent". The limits
 * do not depend on the entry either: the address's resend limit, and per phone
 * one send a minute and five an hour (the code rules, counted whether or not
 * the phone is registered). When the code rules of an entry still refuse (its
 * other codes used the hour up), nothing is sent and the answer stays the same.
 */
export function sendContinueCode(visitor: Visitor, phone: string): Result<ContinueSent> {
  let sent = false;
  const outcome = transact((tx): Result<ContinueSent> => {
    const limited = takeLimits(tx, [["otp-resend-ip", visitor.address]]);
    if (limited) return limited;
    // The same answer for a registered phone and another: the ceiling is looked at before either.
    const ceiling = peek("code-sms", EVERY_SENDER);
    if (!ceiling.ok) return ceilingReached(ceiling.retryAfterSeconds);
    const wait = take(tx, "continue-phone-wait", phone);
    if (!wait.ok) return fail.rateLimited(wait.retryAfterSeconds, OTP_MESSAGES.tooSoon(wait.retryAfterSeconds));
    const hourly = take(tx, "continue-phone", phone);
    if (!hourly.ok)
      return fail.rateLimited(hourly.retryAfterSeconds, resendMessage("hourly-cap", hourly.retryAfterSeconds));
    const entry = entryOfPhone(tx, phone);
    if (entry) {
      const issued = issueCodeIn(tx, {
        purpose: "preregistration_access",
        subjectId: entry.id,
        phone: entry.phone,
        text: accessText,
        smsPurpose: "otp",
        // Not shown anywhere (decision 4); the verify page follows the verification code's SMS alone.
        tracked: false,
      });
      sent = issued.ok;
    }
    return {
      ok: true,
      phone: maskPhone(phone),
      resendAt: new Date(now().getTime() + OTP_RULES.resendAfterSeconds * 1000).toISOString(),
      message: CONTINUE_MESSAGES.sent,
    };
  });
  if (sent) wakeSmsWorker();
  return outcome;
}

export type Continued = { preregistration: Preregistration; verified: boolean };

/**
 * Checks the code of "continue". Every miss answers "Invalid OTP" (spec 000
 * §4), also for a phone without an entry, an expired code or one tried five
 * times, so the answer never tells whether the phone is registered; each try
 * costs the address a point and uses up one of the code's five tries. The right
 * code gives the entry back (the route then records it as this browser's); an
 * unverified entry is verified and drawn in the same transaction, unless its
 * citizenship/PAN has a pending purchase elsewhere (then it stays unverified).
 */
export function checkContinueCode(visitor: Visitor, phone: string, code: string | null | undefined): Result<Continued> {
  return transact((tx): Result<Continued> => {
    const given = FILTERS.digits(code ?? "");
    if (!given) return fail.field("code", OTP_MESSAGES.required);
    const limited = takeLimits(tx, [["otp-verify-ip", visitor.address]]);
    if (limited) return limited;
    const entry = entryOfPhone(tx, phone);
    if (!entry) return fail.field("code", OTP_MESSAGES.invalid);
    const checked = checkCodeIn(tx, { purpose: "preregistration_access", subjectId: entry.id, code: given });
    // Returned, not thrown: the used-up try must commit.
    if (!checked.ok) return fail.field("code", OTP_MESSAGES.invalid);
    if (entry.is_verified || pendingPurchaseOf(tx, entry.citizenship_no, entry.id)) {
      return { ok: true, preregistration: entry, verified: false };
    }
    const verified = markVerified(tx, visitor, entry);
    if (!verified.ok) return verified;
    return { ok: true, preregistration: verified.preregistration, verified: true };
  });
}

export type PrizeSummary = { amount: number; first: number; total: number };

function summaryOf(entry: Preregistration, amount: number): PrizeSummary {
  const fresh = { ...entry, prize: amount };
  return { amount, first: firstThrill(fresh), total: totalPrize(fresh) };
}

/** The draw page's figures: second thrill (drawn now if missing), first thrill and total. Null while unverified. */
export function prizeSummary(entry: Preregistration): PrizeSummary | null {
  if (!entry.is_verified) return null;
  return summaryOf(entry, ensureSecondThrill(entry.id).amount);
}

/**
 * The counter's draw page: the entry within the actor's reach, its second
 * thrill drawn now if a race left it undone (audited when this call draws).
 */
export function counterPrizeSummary(
  actor: ScopedActor,
  slug: string,
): Result<{ preregistration: Preregistration; summary: PrizeSummary | null }> {
  return transact((tx) => {
    const entry = rowBySlug(tx, slug, actor.scope);
    if (!entry) return fail.notFound(OTP_MESSAGES.notFound);
    if (!entry.is_verified) return { ok: true as const, preregistration: entry, summary: null };
    const draw = ensureSecondThrill(entry.id);
    if (draw.created) {
      audit(tx, actor, {
        action: "preregistration.draw",
        entityType: ENTITY,
        entityId: entry.slug,
        changes: { prize: { before: entry.prize, after: draw.amount } },
      });
    }
    return { ok: true as const, preregistration: entry, summary: summaryOf(entry, draw.amount) };
  });
}
