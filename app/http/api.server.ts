/**
 * Conventions of the JSON API at /api/v1: bearer tokens (random, stored as
 * sha256, expiring, revocable), `{data, message}` answers, 401/403/404, and
 * 422 `{message, errors: {field: [messages]}}` for validation failures.
 */
import { and, eq, gt, isNull } from "drizzle-orm";
import { db, schema } from "@db/index";
import { pickerTypesFor, type PickerType } from "~/models/file.server";
import { scopeOf } from "~/models/scope.server";
import { getSessionUser } from "~/models/user.server";
import { clientAddress, getOptionalUser, type Staff } from "./auth.server";
import { config, sessionSecrets } from "~/utils/config.server";
import { newSignedToken, sha256 } from "~/utils/crypto.server";
import { can, type Requirement } from "~/utils/permissions";
import { withLabels } from "~/utils/labels";
import { nowIso } from "~/utils/time";

/** A success: `{data, message}`, with any top-level fields an old client reads (`access_token`). */
/** A record's answer: enumerated values carry their `*_label` (app/utils/labels.ts). */
export function apiData<T>(data: T, message = "", init: ResponseInit = {}, extra: Record<string, unknown> = {}) {
  return Response.json({ ...withLabels(extra), data: withLabels(data), message }, init);
}

/** A list's answer (the DataTables shape), with the same `*_label` fields as apiData. */
export function apiList<T>(table: T, init: ResponseInit = {}) {
  return Response.json(withLabels(table), init);
}

export function apiError(status: number, message: string, errors?: Record<string, string[]>) {
  return Response.json(errors ? { message, errors } : { message }, { status });
}

export const unauthenticated = () => apiError(401, "Unauthenticated.");
export const forbidden = () => apiError(403, "This action is unauthorized.");
export const notFound = (what = "Record") => apiError(404, `${what} not found.`);

export function validationError(errors: Record<string, string[] | null | undefined>, message?: string) {
  const clean: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(errors)) if (v && v.length) clean[k || "form"] = v;
  const first = Object.values(clean)[0]?.[0];
  return apiError(422, message ?? first ?? "The given data was invalid.", clean);
}

/**
 * Issues a bearer token; only its hash is stored. Signed with the cookie secret, so the server's admission
 * control gives staff's calls their priority without reading the database (app/http/admission.server.ts).
 */
export function issueToken(userId: number, remember: boolean): { token: string; expires_at: string } {
  const token = newSignedToken(sessionSecrets()[0]);
  const ms = remember ? config.tokenRememberDays * 86400_000 : config.tokenHours * 3600_000;
  const expires_at = new Date(Date.now() + ms).toISOString();
  db.insert(schema.apiTokens)
    .values({ user_id: userId, token_hash: sha256(token), expires_at })
    .run();
  return { token, expires_at };
}

function bearer(request: Request): string | null {
  const header = request.headers.get("Authorization") ?? "";
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  return m ? m[1] : null;
}

function tokenRow(token: string) {
  return db
    .select()
    .from(schema.apiTokens)
    .where(
      and(
        eq(schema.apiTokens.token_hash, sha256(token)),
        isNull(schema.apiTokens.revoked_at),
        gt(schema.apiTokens.expires_at, nowIso()),
      ),
    )
    .get();
}

/** The API's permission helper: 401 without a valid token, 403 without the permission. */
export async function requireApiUser(request: Request, permission: Requirement = null): Promise<Staff> {
  const token = bearer(request);
  const row = token ? tokenRow(token) : undefined;
  const user = row ? getSessionUser(row.user_id) : null;
  if (!user) throw unauthenticated();
  if (!can(user, permission)) throw forbidden();
  return { ...user, scope: scopeOf(user), address: clientAddress(request) };
}

/**
 * Who may use the file picker (app/components/FilePicker.tsx): a bearer token
 * (API rules), or the back-office session of the picker in the browser, always
 * answered as JSON (401 without either, 403 without a permission of a form
 * that picks images).
 */
export async function requirePickerUser(request: Request): Promise<{ user: Staff; types: PickerType[] }> {
  let user: Staff;
  if (request.headers.has("Authorization")) user = await requireApiUser(request, null);
  else {
    const session = await getOptionalUser(request);
    if (!session) throw unauthenticated();
    user = { ...session, scope: scopeOf(session), address: clientAddress(request) };
  }
  const types = pickerTypesFor(user);
  if (!types.length) throw forbidden();
  return { user, types };
}

export function revokeToken(request: Request): boolean {
  const token = bearer(request);
  if (!token) return false;
  const res = db
    .update(schema.apiTokens)
    .set({ revoked_at: nowIso() })
    .where(and(eq(schema.apiTokens.token_hash, sha256(token)), isNull(schema.apiTokens.revoked_at)))
    .run();
  return res.changes > 0;
}
