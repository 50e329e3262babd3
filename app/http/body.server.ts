/**
 * The one way to read a request body, for every API route and every form
 * action. It checks the content type against what the call reads, enforces the
 * call's size limit while reading (never trusting Content-Length alone), and
 * parses: JSON, urlencoded or multipart. Anything else answers with a Failure
 * (415 unsupported type, 413 too large, 400 unreadable or missing), never a
 * crash.
 *
 * - `readBody`: the raw result, or a Failure.
 * - `readForm`: for page actions; a refused body throws a Response with the
 *   failure's status (the error page in the site's chrome).
 * - `parseBody`: a body parsed with a shared zod schema (forms through conform,
 *   JSON as plain values); invalid values are a Failure with field errors.
 * - `parseApiBody`: the same for the API; a refusal throws the JSON answer.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { z } from "zod";
import { fail, type Failure, type FieldErrors } from "~/utils/failure";
import { apiFailure, pageFailure } from "./http.server";
import { parseJsonOffThread } from "./json-worker.server";

/** Body limits: uploads carry a 10 MB image and its fields; everything else is small. */
export const BODY_LIMITS = {
  /** Text forms and JSON calls. */
  form: 64 * 1024,
  /** Multipart with one image (10 MB) and the form's fields. */
  upload: 12 * 1024 * 1024,
} as const;

/** A JSON body past this size is parsed by a worker thread, and read by its schema in a turn of its own. */
const BIG_BODY = 256 * 1024;

export type BodyKind = "json" | "urlencoded" | "multipart";

export type BodyOptions = {
  /** The kinds the call reads (default: all three). */
  accept?: readonly BodyKind[];
  /** Bytes (default BODY_LIMITS.form). */
  limit?: number;
  /** A call that works without a body ("no body" in the spec). */
  optional?: boolean;
};

export type Body =
  { kind: "json"; json: Record<string, unknown> } | { kind: "form"; form: FormData } | { kind: "none" };

const ALL: readonly BodyKind[] = ["json", "urlencoded", "multipart"];

const MEDIA: Record<BodyKind, string> = {
  json: "application/json",
  urlencoded: "application/x-www-form-urlencoded",
  multipart: "multipart/form-data",
};

function kindOf(contentType: string): BodyKind | null {
  const media = contentType.split(";")[0].trim().toLowerCase();
  if (media === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(media)) return "json";
  if (media === "application/x-www-form-urlencoded") return "urlencoded";
  if (media === "multipart/form-data") return "multipart";
  return null;
}

export const tooLarge = (limit: number) =>
  fail.tooLarge(
    `The request body may not be larger than ${limit >= 1024 * 1024 ? `${Math.round(limit / 1024 / 1024)} MB` : `${Math.round(limit / 1024)} KB`}.`,
  );

/**
 * A body that declared its length past the largest limit is read on and thrown
 * away up to this many bytes (server.js), so the client (a browser posting a
 * photo too large) has finished sending when the 413 goes out and is sure to
 * see it; past it the connection is closed without reading more.
 */
export const DRAIN_BYTES = 32 * 1024 * 1024;

/**
 * A body streamed without a length (a program's, never a browser form's) is
 * read on past its limit up to this many bytes only, then answered 413 and
 * closed: what a refused body costs the server's memory then stays the same
 * however long it goes on (`npm run bench`, "Bodies far past the limit").
 */
export const STREAMED_DRAIN_BYTES = 4 * 1024 * 1024;

async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, cap: number) {
  let drained = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    drained += value.byteLength;
    if (drained > cap) {
      reader.releaseLock();
      return;
    }
  }
}

/** Reads at most `limit` bytes of the body; null when there are more. */
async function readLimited(request: Request, limit: number): Promise<Uint8Array | null> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await drain(reader, STREAMED_DRAIN_BYTES);
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** A JSON body's value (undefined: not JSON). A big one is parsed by a worker thread, off the event loop. */
async function parseJson(bytes: Uint8Array): Promise<unknown> {
  if (bytes.byteLength > BIG_BODY) {
    const parsed = await parseJsonOffThread(bytes);
    if (parsed) return parsed.ok ? parsed.value : undefined;
  }
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)) as unknown;
  } catch {
    return undefined;
  }
}

export async function readBody(request: Request, options: BodyOptions = {}): Promise<Body | Failure> {
  const accept = options.accept ?? ALL;
  const limit = options.limit ?? BODY_LIMITS.form;
  const contentType = request.headers.get("Content-Type") ?? "";
  const declared = Number(request.headers.get("Content-Length") ?? "");
  if (Number.isFinite(declared) && declared > limit) return tooLarge(limit);

  const kind = contentType ? kindOf(contentType) : null;
  if (contentType && (!kind || !accept.includes(kind))) {
    return fail.unsupportedType(`Send the body as ${accept.map((k) => MEDIA[k]).join(", ")}.`);
  }
  const bytes = await readLimited(request, limit);
  if (!bytes) return tooLarge(limit);
  if (bytes.byteLength === 0 || !kind) {
    if (bytes.byteLength > 0) {
      return fail.unsupportedType(`Send the body as ${accept.map((k) => MEDIA[k]).join(", ")}.`);
    }
    return options.optional ? { kind: "none" } : fail.badRequest("A request body is required.");
  }
  if (kind === "json") {
    const json = await parseJson(bytes);
    if (json === undefined) return fail.badRequest("The JSON body could not be read.");
    if (typeof json !== "object" || json === null || Array.isArray(json)) {
      return fail.badRequest("The JSON body must be an object.");
    }
    // A big body (a typed list of 100,000 numbers) took its own slice of the event loop to receive: other
    // requests and timers go before its schema reads it. It came in a callback, where one setImmediate
    // resumes in the same turn of the loop (its check phase, before any timer): receiving it and the
    // schema would hold the loop as one. The second crosses a whole turn.
    if (bytes.byteLength > BIG_BODY) {
      await nextTurn();
      await nextTurn();
    }
    return { kind: "json", json: json as Record<string, unknown> };
  }
  if (kind === "urlencoded") {
    const form = new FormData();
    new URLSearchParams(new TextDecoder().decode(bytes)).forEach((v, k) => form.append(k, v));
    return { kind: "form", form };
  }
  try {
    const form = await new Request("http://body.invalid/", {
      method: "POST",
      headers: { "Content-Type": contentType },
      body: new Uint8Array(bytes),
    }).formData();
    return { kind: "form", form };
  } catch {
    return fail.badRequest("The multipart body could not be read.");
  }
}

/**
 * A page action's form (urlencoded or multipart). A refused body throws a
 * Response with the failure's status; the site's error page shows it.
 */
export async function readForm(request: Request, options: Omit<BodyOptions, "accept"> = {}): Promise<FormData> {
  const body = await readBody(request, { ...options, accept: ["urlencoded", "multipart"], optional: true });
  if ("ok" in body) throw pageFailure(body);
  return body.kind === "form" ? body.form : new FormData();
}

/** A copy of a request whose body is the form already read (for libraries that read the body themselves). */
export function formRequest(request: Request, form: FormData): Request {
  const body = new URLSearchParams();
  form.forEach((v, k) => {
    if (typeof v === "string") body.append(k, v);
  });
  const headers = new Headers(request.headers);
  headers.set("Content-Type", "application/x-www-form-urlencoded");
  headers.delete("Content-Length");
  return new Request(request.url, { method: request.method, headers, body });
}

/** Zod issues as the specification's error map: field path → messages ("form" for the whole). */
export function issuesToErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join(".") || "form";
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

export type Parsed<S extends z.ZodType> = { ok: true; value: z.output<S>; body: Body };

/**
 * Reads and parses a body with a shared schema. Form bodies go through
 * conform's parseWithZod (its coercion of form strings); JSON bodies are
 * parsed as they are (the schemas accept JSON's own types).
 */
export async function parseBody<S extends z.ZodType>(
  request: Request,
  schema: S,
  options: BodyOptions = {},
): Promise<Parsed<S> | Failure> {
  const body = await readBody(request, options);
  if ("ok" in body) return body;
  return parseValue(body, schema);
}

/**
 * Parses a body already read. A schema may take turns of the event loop (a broadcast's 100,000 typed
 * numbers are read a slice at a time), so the parse is awaited.
 */
export async function parseValue<S extends z.ZodType>(body: Body, schema: S): Promise<Parsed<S> | Failure> {
  if (body.kind === "form") {
    const submission = await parseWithZod(body.form, { schema, async: true });
    if (submission.status === "success") return { ok: true, value: submission.value as z.output<S>, body };
    const errors: FieldErrors = {};
    for (const [k, v] of Object.entries(submission.reply().error ?? {})) if (v?.length) errors[k || "form"] = v;
    return fail.invalid(errors);
  }
  const result = await schema.safeParseAsync(body.kind === "json" ? body.json : {});
  if (result.success) return { ok: true, value: result.data, body };
  return fail.invalid(issuesToErrors(result.error.issues));
}

/** The API's body parse: the value, or the JSON refusal thrown (400/413/415/422). */
export async function parseApiBody<S extends z.ZodType>(
  request: Request,
  schema: S,
  options: BodyOptions = {},
): Promise<z.output<S>> {
  const parsed = await parseBody(request, schema, options);
  if (!parsed.ok) throw apiFailure(parsed);
  return parsed.value;
}

/** The API's raw body: JSON object, form or nothing, or the JSON refusal thrown. */
export async function readApiBody(request: Request, options: BodyOptions = {}): Promise<Body> {
  const body = await readBody(request, options);
  if ("ok" in body) throw apiFailure(body);
  return body;
}

/** One field of a body read, as text (a form's string, or a JSON string or number). */
export function bodyText(body: Body, field: string): string | null {
  const value = body.kind === "form" ? body.form.get(field) : body.kind === "json" ? body.json[field] : null;
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return null;
}

/** The field names of an object schema (through a refinement or a pipe). */
function fieldsOf(schema: z.ZodType): string[] {
  let s: unknown = schema;
  for (let i = 0; i < 4 && s; i++) {
    const shape = (s as { shape?: Record<string, unknown> }).shape;
    if (shape) return Object.keys(shape);
    const def = (s as { _zod?: { def?: { in?: unknown; schema?: unknown; innerType?: unknown } } })._zod?.def;
    s = def?.in ?? def?.schema ?? def?.innerType;
  }
  throw new Error("An update schema must be an object schema.");
}

/**
 * A stored record as its form would send it: each of the schema's fields from the row (`from` names a
 * column that differs, e.g. thumbnail ← thumbnail_id); an empty column is left out.
 */
export function currentValues(
  schema: z.ZodType,
  row: Record<string, unknown>,
  from: Record<string, string> = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fieldsOf(schema)) {
    const value = row[from[field] ?? field];
    if (value !== null && value !== undefined && value !== "") out[field] = value;
  }
  return out;
}

/**
 * An update call's body (PATCH, and the spec's POST updates): laid over the record's current values
 * and read through the form's own schema, so a field left out keeps its value, `null` or `""` clears
 * an optional field (a required one sent empty gets its message), and a required field is required
 * only when sent. HTML forms send every field, so they read as before. Refusals thrown as JSON.
 */
export async function parseApiUpdate<S extends z.ZodType>(
  request: Request,
  schema: S,
  current: Record<string, unknown>,
  options: BodyOptions = {},
): Promise<z.output<S>> {
  const body = await readApiBody(request, options);
  const parsed = await parseValue(overlayCurrent(body, current), schema);
  if (!parsed.ok) throw apiFailure(parsed);
  return parsed.value;
}

/** A body laid over a record's current values (the fields it names win; JSON null reads as ""). */
export function overlayCurrent(body: Body, current: Record<string, unknown>): Body {
  if (body.kind === "form") {
    const form = new FormData();
    for (const [field, value] of Object.entries(current)) {
      if (body.form.has(field)) continue;
      // A form sends a ticked box as "on" and an unticked one not at all.
      for (const v of Array.isArray(value) ? value : [value]) {
        if (v === false) continue;
        form.append(field, v === true ? "on" : String(v));
      }
    }
    for (const [field, value] of body.form.entries()) form.append(field, value);
    return { kind: "form", form };
  }
  const json: Record<string, unknown> = { ...current };
  if (body.kind === "json") for (const [field, value] of Object.entries(body.json)) json[field] = value ?? "";
  return { kind: "json", json };
}
