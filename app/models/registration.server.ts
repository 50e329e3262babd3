/**
 * The registration (purchase) lifecycle: turning a verified pre-registration
 * into a purchase, the purchase confirmation code, the third-thrill coupon
 * draw, notify, edit, soft delete and restore. Reading lives in
 * registration-list.server.ts, the print sheet in registration-print.server.ts.
 *
 * States: pending (made, code sent) → confirmed (the customer's code entered)
 * → drawn (third thrill drawn through the prize engine). Deleted is
 * deleted_at set; restore clears it.
 *
 * Every change takes the actor (who, from where, their branch scope), finds
 * its row with the scope inside the query (out of reach = not found), and
 * writes its audit row in its own transaction; a refusal is a Failure.
 * Messages to the customer are queued inside that transaction and sent by
 * the background worker, off the request.
 */
import { and, desc, eq, isNotNull, isNull, ne, type SQL } from "drizzle-orm";
import crypto from "node:crypto";
import { schema, type Executor, type Tx } from "@db/index";
import type { Registration } from "@db/schema";
import { audit, diff } from "~/models/audit.server";
import { findActiveBikeModel } from "~/models/bike-model.server";
import { fail, FailureError, type Failure, type FieldErrors, type Result } from "~/utils/failure";
import { take } from "~/utils/rate-limit.server";
import { issueCodeIn, verifyCode, type Issued } from "~/models/otp.server";
import { prizeLabel } from "~/utils/prize-constants";
import { fixThirdThrill, settleDraw } from "~/models/prize-draw.server";
import { entryReference } from "@db/reference";
import { publicBaseUrl } from "~/utils/share-link.server";
import { queueMessage, wakeSmsWorker } from "~/models/sms.server";
import { transact } from "~/models/transaction.server";
import {
  REGISTRATION_FIELD_LABELS,
  REGISTRATION_MESSAGES as M,
  vehicleNumber,
  type RegistrationInput,
  type RegistrationUpdateInput,
} from "~/schemas/registration";
import { normalizePhone } from "~/utils/phone";
import { kathmanduDate, now as clockNow } from "~/utils/time";
import { HOLD_MESSAGES, prizeHoldOf } from "./integrity-flags.server";
import { screenRegistration } from "./integrity-write.server";
import { preregistrationScope } from "./preregistration-reach.server";
import { inheritedReferrer, shareLinkOf } from "./referrer.server";
import { findRegistration, type RegistrationRow } from "./registration-list.server";
import { branchCondition, type Scope, type ScopedActor, isHeadOffice } from "./scope.server";

// The download (Registrations.xls) reads its rows and columns from the list module through here.
export { REGISTRATION_COLUMNS, registrationSheetPages } from "./registration-list.server";

const { registrations: R, preregistrations: P } = schema;

const ENTITY = "registration";

// ---------------------------------------------------------------- small rules

/** bill_no as stored: "B{branch id}-" before what staff typed (kept once if already there). */
export function prefixBill(branchId: number, bill: string): string {
  const clean = bill.trim();
  const prefix = `B${branchId}-`;
  return clean.toUpperCase().startsWith(prefix) ? prefix + clean.slice(prefix.length) : prefix + clean;
}

/** What staff typed, without the branch prefix (edit form). */
export function billWithoutPrefix(branchId: number, bill: string): string {
  const prefix = `B${branchId}-`;
  return bill.toUpperCase().startsWith(prefix) ? bill.slice(prefix.length) : bill;
}

const COUPON_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";

/** A coupon code such as "TH-7KQ4-P9XD": 40 random bits, no look-alike characters. */
export function newCouponCode(): string {
  const bytes = crypto.randomBytes(8);
  let out = "";
  for (let i = 0; i < 8; i++) out += COUPON_ALPHABET[bytes[i] % 32];
  return `TH-${out.slice(0, 4)}-${out.slice(4)}`;
}

const purchaseCodeText = (code: string) =>
  `Your purchase confirmation code is ${code}. Give it to the showroom staff to confirm your purchase. Valid for 10 minutes.`;

/** The prize summary SMS, with the customer's share link (invite friends to a test ride). */
export function prizeSmsText(r: Pick<RegistrationRow, "id" | "slug" | "name" | "prizes" | "coupon_code">): string {
  const p = r.prizes;
  const parts = [
    p.first ? `First Thrill ${prizeLabel(p.first)}` : null,
    `Second Thrill ${prizeLabel(p.second)}`,
    `Third Thrill ${p.third ? prizeLabel(p.third) : "none"}`,
  ].filter(Boolean);
  const link = shareLinkOf(r.id);
  const invite = link ? ` Invite your friends to a test ride: ${link}` : "";
  // The coupon draw's public id: the buyer checks the draw on /fair-draws with it.
  const check = ` Check your draw ${entryReference(r.slug)} at ${publicBaseUrl()}/fair-draws`;
  return `Dear ${r.name}, thank you for your purchase. Your Thrill prizes: ${parts.join(", ")}. Total ${prizeLabel(p.total)}. Coupon ${r.coupon_code}.${check}.${invite}`;
}

// ---------------------------------------------------------------- checks shared by the writes

type Numbers = { engine_no: string; chasis_no: string; registration_no: string; bill_no: string; branch_id: number };

/** Active registrations (other than `exceptId`) already using these numbers, as field errors. */
function duplicateErrors(exec: Executor, v: Numbers, exceptId: number | null): FieldErrors {
  const errors: FieldErrors = {};
  const others = (cond: SQL) =>
    exec
      .select({ id: R.id })
      .from(R)
      .where(and(cond, isNull(R.deleted_at), exceptId === null ? undefined : ne(R.id, exceptId)))
      .limit(1)
      .get();
  if (others(eq(R.engine_no, v.engine_no))) errors.engine_no = [M.engineTaken];
  if (others(eq(R.chasis_no, v.chasis_no))) errors.chasis_no = [M.chasisTaken];
  if (others(eq(R.registration_no, v.registration_no))) errors.registration_no = [M.registrationNoTaken];
  if (others(and(eq(R.branch_id, v.branch_id), eq(R.bill_no, v.bill_no))!)) errors.bill_no = [M.billTaken];
  return errors;
}

/** A unique index refusing a row that raced past the checks: the same field errors. */
function constraintErrors(err: unknown): FieldErrors | null {
  const e = err as { code?: string; message?: string };
  if (e?.code !== "SQLITE_CONSTRAINT_UNIQUE") return null;
  const msg = String(e.message);
  if (msg.includes("engine_no")) return { engine_no: [M.engineTaken] };
  if (msg.includes("chasis_no")) return { chasis_no: [M.chasisTaken] };
  if (msg.includes("registration_no")) return { registration_no: [M.registrationNoTaken] };
  if (msg.includes("bill_no")) return { bill_no: [M.billTaken] };
  return null;
}

/** A write in one transaction, with a unique index's refusal turned into its field error. */
function write<T>(fn: (tx: Tx) => T): T | Failure {
  try {
    return transact(fn);
  } catch (err) {
    const errors = constraintErrors(err);
    if (errors) return fail.invalid(errors);
    throw err;
  }
}

type Referrer = { registration_id: number | null; referred_by: string | null };

/**
 * The referring customer: by registration id (the API and the search) or by
 * slug within the actor's scope, or by a full phone number at any branch.
 * A referrer outside the scope is linked by id only: their name is not copied
 * into referred_by.
 */
function resolveReferrer(
  tx: Tx,
  scope: Scope,
  input: Pick<RegistrationUpdateInput, "registration_id" | "referrer" | "referred_by">,
  ownPhone: string,
  selfId: number | null,
): Referrer {
  const text = input.referrer?.trim();
  if (!input.registration_id && !text) return { registration_id: null, referred_by: input.referred_by ?? null };
  const field = input.registration_id ? "registration_id" : "referrer";
  const phone = text ? normalizePhone(text) : null;
  const cond = input.registration_id
    ? and(eq(R.id, input.registration_id), branchCondition(R.branch_id, scope))
    : phone
      ? eq(R.phone, phone)
      : and(eq(R.slug, text!), branchCondition(R.branch_id, scope));
  const found = tx
    .select({ id: R.id, name: R.name, phone: R.phone, branch_id: R.branch_id })
    .from(R)
    .where(and(cond, isNull(R.deleted_at)))
    .orderBy(desc(R.id))
    .get();
  if (!found) throw new FailureError(fail.field(field, M.referrerMissing));
  if (found.phone === ownPhone || found.id === selfId) throw new FailureError(fail.field(field, M.referrerSelf));
  const reached = isHeadOffice(scope) || found.branch_id === scope.branchId;
  return { registration_id: found.id, referred_by: input.referred_by ?? (reached ? found.name : null) };
}

/**
 * Duplicate numbers and a model not on sale as field errors, thrown together
 * (nothing is written). An edit may keep the model the registration already
 * names, though it has been retired since.
 */
function checkFields(tx: Tx, numbers: Numbers, bikeModelId: number, exceptId: number | null, keepModel?: number) {
  const errors = duplicateErrors(tx, numbers, exceptId);
  if (bikeModelId !== keepModel && !findActiveBikeModel(bikeModelId)) errors.bike_model_id = [M.bikeModelMissing];
  if (Object.keys(errors).length) throw new FailureError(fail.invalid(errors));
}

function numbersOf(input: RegistrationUpdateInput, branchId: number): Numbers {
  return {
    engine_no: vehicleNumber(input.engine_no),
    chasis_no: vehicleNumber(input.chasis_no),
    registration_no: vehicleNumber(input.registration_no),
    bill_no: prefixBill(branchId, input.bill_no),
    branch_id: branchId,
  };
}

/**
 * What staff type on a registration, as stored: the one list of fields that
 * create and update both write (registration-fields.test.ts walks the table's
 * columns against it).
 */
function typedFields(
  input: RegistrationUpdateInput,
  numbers: Numbers,
  ref: { registration_id: number | null; referred_by: string | null },
) {
  return {
    ...numbers,
    name: input.name,
    address: input.address,
    citizenship_no: input.citizenship_no,
    pan: input.pan ?? null,
    email: input.email ?? null,
    bike_model_id: input.bike_model_id,
    payment_mode: input.payment_mode,
    note: input.note ?? null,
    send_sms: input.send_sms,
    registration_id: ref.registration_id,
    referred_by: ref.referred_by,
  };
}

function uniqueCouponCode(tx: Tx): string {
  for (;;) {
    const code = newCouponCode();
    if (!tx.select({ id: R.id }).from(R).where(eq(R.coupon_code, code)).get()) return code;
  }
}

/** The registration row in the actor's reach, inside a transaction; not found otherwise. */
function reachable(tx: Tx, scope: Scope, slug: string, state: "active" | "deleted" | "any" = "active"): Registration {
  const row = tx
    .select()
    .from(R)
    .where(
      and(
        eq(R.slug, slug),
        state === "active" ? isNull(R.deleted_at) : state === "deleted" ? isNotNull(R.deleted_at) : undefined,
        branchCondition(R.branch_id, scope),
      ),
    )
    .get();
  if (!row) throw new FailureError(fail.notFound(M.notFound));
  return row;
}

const shown = (scope: Scope, slug: string) => findRegistration(scope, slug, { withDeleted: true })!;

// ---------------------------------------------------------------- create

export type CreatedRegistration = { registration: RegistrationRow; created: boolean; code: Issued | null };

/**
 * Registers the purchase of a verified, not yet purchased pre-registration at
 * the actor's branch, and marks the pre-registration purchased, in one
 * transaction with its audit row. bill_no gets the "B{branch}-" prefix.
 * Duplicate engine, chassis or vehicle numbers, or a bill number used at the
 * branch, are field errors and nothing is saved. The same form token twice
 * returns the first registration. Then the purchase confirmation code goes to
 * the customer's phone (within the code rules of otp.server.ts).
 */
export async function createRegistration(
  actor: ScopedActor,
  preregistrationSlug: string,
  input: RegistrationInput,
): Promise<Result<CreatedRegistration>> {
  const branchId = actor.scope.branchId;
  if (branchId === null) return fail.forbidden(M.noBranch);
  const at = clockNow();
  const outcome = write((tx) => {
    if (input.form_token) {
      const again = tx
        .select({ id: R.id, slug: R.slug, phone: R.phone, branch_id: R.branch_id })
        .from(R)
        .where(eq(R.form_token, input.form_token))
        .get();
      if (again && again.branch_id === branchId) return { ok: true as const, ...again, created: false };
      if (again) throw new FailureError(fail.conflict(M.formUsed));
    }
    const pre = tx
      .select()
      .from(P)
      .where(and(eq(P.slug, preregistrationSlug), isNull(P.deleted_at), preregistrationScope(actor.scope)))
      .get();
    if (!pre) throw new FailureError(fail.notFound(M.preregistrationNotFound));
    if (!pre.is_verified) throw new FailureError(fail.conflict(M.notVerified));
    const existing = tx.select({ id: R.id }).from(R).where(eq(R.preregistration_id, pre.id)).get();
    if (pre.purchased || existing) throw new FailureError(fail.conflict(M.alreadyPurchased));

    const numbers = numbersOf(input, branchId);
    checkFields(tx, numbers, input.bike_model_id, null);
    const typed = resolveReferrer(tx, actor.scope, input, pre.phone, null);
    // A pre-registration made through a customer's share link brings its referrer, unless the counter names one.
    const inherited = typed.registration_id ? null : inheritedReferrer(tx, actor.scope, pre.referrer_id, pre.phone);
    const ref = inherited ? { registration_id: inherited.id, referred_by: typed.referred_by ?? inherited.name } : typed;
    const row = tx
      .insert(R)
      .values({
        slug: crypto.randomBytes(12).toString("base64url"),
        ...typedFields(input, numbers, ref),
        phone: pre.phone,
        preregistration_id: pre.id,
        shared: pre.shared,
        status: "pending",
        purchase_date: kathmanduDate(at),
        coupon_code: uniqueCouponCode(tx),
        created_by: actor.id,
        form_token: input.form_token ?? null,
        created_at: at.toISOString(),
        updated_at: at.toISOString(),
      })
      .returning()
      .get();
    tx.update(P)
      .set({ purchased: true, status: "purchased", updated_at: at.toISOString() })
      .where(eq(P.id, pre.id))
      .run();
    screenRegistration(tx, row, { made: true });
    audit(tx, actor, {
      action: "registration.create",
      entityType: ENTITY,
      entityId: row.slug,
      changes: diff(null, row),
    });
    // The purchase code and its SMS commit with the registration: one write, sent by the worker.
    const code = purchaseCodeIn(tx, row.id, row.phone);
    return { ok: true as const, id: row.id, slug: row.slug, phone: row.phone, created: true, code };
  });
  if (!outcome.ok) return outcome;
  if (outcome.created) wakeSmsWorker();
  const code = ("code" in outcome ? outcome.code : null) ?? null;
  return { ok: true, registration: shown(actor.scope, outcome.slug), created: outcome.created, code };
}

/**
 * The purchase confirmation code: a new one-time code stored and its SMS
 * queued in the caller's transaction (one a minute, five an hour per phone).
 */
function purchaseCodeIn(tx: Tx, registrationId: number, phone: string): Issued {
  return issueCodeIn(tx, {
    purpose: "registration",
    subjectId: registrationId,
    phone,
    text: purchaseCodeText,
    smsPurpose: "purchase-code",
    sender: "staff",
  });
}

// ---------------------------------------------------------------- edit

/** Edits an active registration in scope; the phone, branch and pre-registration stay. */
export function updateRegistration(
  actor: ScopedActor,
  slug: string,
  input: RegistrationUpdateInput,
): Result<{ registration: RegistrationRow }> {
  const outcome = write((tx) => {
    const before = reachable(tx, actor.scope, slug, "any");
    if (before.deleted_at) throw new FailureError(fail.conflict(M.deleted));
    const numbers = numbersOf(input, before.branch_id);
    checkFields(tx, numbers, input.bike_model_id, before.id, before.bike_model_id);
    const ref =
      input.registration_id || input.referrer
        ? resolveReferrer(tx, actor.scope, input, before.phone, before.id)
        : { registration_id: before.registration_id, referred_by: input.referred_by ?? before.referred_by };
    const after = tx
      .update(R)
      .set({ ...typedFields(input, numbers, ref), updated_at: clockNow().toISOString() })
      .where(eq(R.id, before.id))
      .returning()
      .get();
    screenRegistration(tx, after);
    audit(tx, actor, {
      action: "registration.update",
      entityType: ENTITY,
      entityId: slug,
      changes: diff(before, after),
    });
    return { ok: true as const };
  });
  return outcome.ok ? { ok: true, registration: shown(actor.scope, slug) } : outcome;
}

// ---------------------------------------------------------------- purchase code

/**
 * Confirms a pending registration with the code the customer received: the
 * code is used up and the registration confirmed in one transaction. A wrong
 * code answers "Incorrect Code. Please Try again" under `code` (the try is
 * counted; the caller then resets, which sends a new code when the rules
 * allow). An already confirmed registration answers alreadyConfirmed.
 */
export function confirmRegistration(
  actor: ScopedActor,
  slug: string,
  code: string,
): Result<{ registration: RegistrationRow; alreadyConfirmed: boolean }> {
  const outcome = transact((tx) => {
    const before = reachable(tx, actor.scope, slug, "any");
    if (before.deleted_at) throw new FailureError(fail.conflict(M.deleted));
    if (before.status !== "pending") return { ok: true as const, alreadyConfirmed: true };
    // verifyCode's own transaction runs inside this one (a savepoint): the code and the status commit together.
    const checked = verifyCode({ purpose: "registration", subjectId: before.id, code });
    if (!checked.ok) return fail.field("code", M.incorrectCode);
    const at = clockNow().toISOString();
    const after = tx
      .update(R)
      .set({ status: "confirmed", confirmed_at: at, updated_at: at })
      .where(and(eq(R.id, before.id), eq(R.status, "pending")))
      .returning()
      .get();
    audit(tx, actor, {
      action: "registration.confirm",
      entityType: ENTITY,
      entityId: slug,
      changes: diff(before, after ?? before),
    });
    return { ok: true as const, alreadyConfirmed: false };
  });
  return outcome.ok
    ? { ok: true, registration: shown(actor.scope, slug), alreadyConfirmed: outcome.alreadyConfirmed }
    : outcome;
}

export type CodeReset = { sent: boolean; retryAfterSeconds: number; message: string };

/**
 * POST /api/v1/registration/{slug}/reset: sends the customer a new purchase
 * code (within the code rules: one a minute, five an hour). Answers the spec's
 * "Incorrect Code. Please Try again".
 */
export async function resetRegistrationCode(actor: ScopedActor, slug: string): Promise<Result<CodeReset>> {
  const reg = findRegistration(actor.scope, slug);
  if (!reg) return fail.notFound(M.notFound);
  if (reg.status !== "pending") return { ok: true, sent: false, retryAfterSeconds: 0, message: M.incorrectCode };
  const issued = transact((tx) => purchaseCodeIn(tx, reg.id, reg.phone));
  if (issued.ok) wakeSmsWorker();
  return issued.ok
    ? { ok: true, sent: true, retryAfterSeconds: 0, message: M.incorrectCode }
    : { ok: true, sent: false, retryAfterSeconds: issued.retryAfterSeconds ?? 0, message: M.incorrectCode };
}

// ---------------------------------------------------------------- coupon draw and notify

/**
 * The third-thrill draw of a confirmed registration through the prize engine: the draw is fixed
 * and chained with its audit row in one transaction (a row that cannot be written undoes the
 * fixing), made once its beacon round comes (seconds), and then, when this call fixed it, the
 * prize summary SMS is queued when send_sms is set (drawing again returns the first result and
 * changes nothing).
 */
export async function drawCoupon(
  actor: ScopedActor,
  slug: string,
): Promise<Result<{ registration: RegistrationRow; created: boolean }>> {
  const fixed = transact((tx) => {
    const before = reachable(tx, actor.scope, slug);
    if (before.status === "pending") throw new FailureError(fail.conflict(M.notConfirmed));
    // A refused fixing (DrawError, a FailureError) rolls back and comes out as this call's Failure.
    const created = fixThirdThrill(tx, before.id);
    if (created) {
      const draw = { before: null, after: `fixed: ${entryReference(before.slug)}` };
      audit(tx, actor, { action: "registration.draw", entityType: ENTITY, entityId: slug, changes: { draw } });
    }
    return { ok: true as const, before, created };
  });
  if (!fixed.ok) return fixed;
  const { before, created } = fixed;
  await settleDraw("registration", before.id, created);
  if (!created) return { ok: true, registration: shown(actor.scope, slug), created };
  let queued = false;
  transact((tx) => {
    const after = tx.select().from(R).where(eq(R.id, before.id)).get()!;
    // A prize under review sends its SMS when head office clears it (decision 21); a voided one never.
    if (after.send_sms && !prizeHoldOf(tx, after.preregistration_id)) {
      queueMessage(tx, {
        to: after.phone,
        text: prizeSmsText(shown(actor.scope, slug)),
        purpose: "notify",
        subjectId: after.id,
      });
      queued = true;
    }
  });
  if (queued) wakeSmsWorker();
  return { ok: true, registration: shown(actor.scope, slug), created };
}

/**
 * Sends the customer the prize summary of a drawn registration: the SMS is
 * queued with the audit row in one transaction, and the worker sends it.
 * At most once in 10 minutes and five times a day per registration (429 that says when).
 */
export function notifyRegistration(actor: ScopedActor, slug: string): Result<{ status: "queued" }> {
  const outcome = transact((tx) => {
    const reg = reachable(tx, actor.scope, slug);
    if (reg.status !== "drawn") throw new FailureError(fail.conflict(M.notDrawn));
    const hold = prizeHoldOf(tx, reg.preregistration_id);
    if (hold) throw new FailureError(fail.conflict(HOLD_MESSAGES[hold]));
    for (const limit of ["notify-wait", "notify-day"] as const) {
      const taken = take(tx, limit, slug);
      if (!taken.ok) {
        const minutes = Math.max(1, Math.ceil(taken.retryAfterSeconds / 60));
        throw new FailureError(fail.rateLimited(taken.retryAfterSeconds, M.notifyTooSoon(minutes)));
      }
    }
    const sms = queueMessage(tx, {
      to: reg.phone,
      text: prizeSmsText(shown(actor.scope, slug)),
      purpose: "notify",
      subjectId: reg.id, // the outbox's reach: the registration's branch
    });
    audit(tx, actor, {
      action: "registration.notify",
      entityType: ENTITY,
      entityId: slug,
      changes: { sms: { before: null, after: sms.id } },
    });
    return { ok: true as const, status: "queued" as const };
  });
  if (outcome.ok) wakeSmsWorker();
  return outcome;
}

// ---------------------------------------------------------------- delete and restore

/** Soft delete: out of lists, stats and exports; its prize record stays. */
export function deleteRegistration(actor: ScopedActor, slug: string): Result {
  return transact((tx) => {
    const before = reachable(tx, actor.scope, slug);
    const after = tx
      .update(R)
      .set({ deleted_at: clockNow().toISOString() })
      .where(eq(R.id, before.id))
      .returning()
      .get();
    audit(tx, actor, {
      action: "registration.delete",
      entityType: ENTITY,
      entityId: slug,
      changes: diff(before, after),
    });
    return { ok: true as const };
  });
}

const RESTORE_NAMES: Record<string, string> = {
  engine_no: REGISTRATION_FIELD_LABELS.engine_no,
  chasis_no: REGISTRATION_FIELD_LABELS.chasis_no,
  registration_no: REGISTRATION_FIELD_LABELS.registration_no,
  bill_no: REGISTRATION_FIELD_LABELS.bill_no,
};

/** Restores a deleted registration unless another active one took its numbers meanwhile. */
export function restoreRegistration(actor: ScopedActor, slug: string): Result<{ registration: RegistrationRow }> {
  const outcome = write((tx) => {
    const before = reachable(tx, actor.scope, slug, "deleted");
    const clash = Object.keys(duplicateErrors(tx, before, before.id))[0];
    if (clash) {
      const message = M.restoreTaken(RESTORE_NAMES[clash]);
      throw new FailureError(fail.conflict(message, { [clash]: [message] }));
    }
    const after = tx
      .update(R)
      .set({ deleted_at: null, updated_at: clockNow().toISOString() })
      .where(eq(R.id, before.id))
      .returning()
      .get();
    screenRegistration(tx, after);
    audit(tx, actor, {
      action: "registration.restore",
      entityType: ENTITY,
      entityId: slug,
      changes: diff(before, after),
    });
    return { ok: true as const };
  });
  return outcome.ok ? { ok: true, registration: shown(actor.scope, slug) } : outcome;
}
