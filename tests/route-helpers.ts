/**
 * The one helper module of the tests that call route modules: a request (`req`), a loader or
 * action called with it (`call`, `answerTo`, `answerOf`, `responseOf`, `thrown`), and staff to call as
 * (`staffWith`, `cookieFor`). A crash is never an answer: any throw but a Response fails the test that awaits it.
 */
import { db, schema } from "@db/index";
import { issueToken } from "~/http/api.server";
import { sessionStorage } from "~/http/session.server";
import { createUser } from "~/models/user.server";

/**
 * What a loader or action answered: its return value, or the Response it threw (a redirect, a 404).
 * Any other throw is a crash and fails the test that awaits it; it never passes as an answer.
 */
export async function answerOf<T>(run: () => Promise<T> | T): Promise<T | Response> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof Response) return e;
    throw e;
  }
}

/**
 * What a loader or action answered, as a Response: the Response it returned or threw, or the value
 * it returned as JSON (Remix's `data(value, init)` with its status and headers). Any other throw is a
 * crash and fails the test.
 */
export async function responseOf(answer: Promise<unknown> | unknown): Promise<Response> {
  const out = await answerOf(() => answer);
  if (out instanceof Response) return out;
  if (out && typeof out === "object" && (out as { type?: unknown }).type === "DataWithResponseInit") {
    const { data, init } = out as { data: unknown; init?: ResponseInit | null };
    return Response.json(data, init ?? undefined);
  }
  return Response.json(out);
}

/** The Response a loader or action threw (a redirect, a 404, a 403); one that returns fails the test. */
export async function thrown(fn: () => Promise<unknown>): Promise<Response> {
  const returned = Symbol("returned");
  const out = await answerOf(async () => (await fn(), returned));
  if (out === returned) throw new Error("expected a thrown Response");
  return out as Response;
}

let n = 0;

/** A user whose role holds exactly these permissions, at a branch or head office; with a token and a cookie. */
export async function staffWith(permissions: string[], branchId: number | null = null) {
  const tag = `cat-${process.pid}-${n++}`;
  const role = db.insert(schema.roles).values({ slug: tag, title: tag }).returning().get();
  const all = db.select().from(schema.permissions).all();
  for (const p of permissions) {
    const row = all.find((x) => x.name === p);
    if (!row) throw new Error(`no permission ${p}`);
    db.insert(schema.rolePermissions).values({ role_id: role.id, permission_id: row.id }).run();
  }
  const user = await createUser({
    first_name: tag,
    email: `${tag}@example.test`,
    role_id: role.id,
    branch_id: branchId,
    password: "Secret-pass-9",
  });
  return { user, token: issueToken(user.id, false).token, cookie: await cookieFor(user.id) };
}

/** The session cookie of a signed-in user, as a request's Cookie header carries it. */
export async function cookieFor(userId: number): Promise<string> {
  const session = await sessionStorage.getSession();
  session.set("userId", userId);
  return (await sessionStorage.commitSession(session)).split(";")[0];
}

export const context = { clientAddress: "127.0.0.1" };

/** Calls a loader or action with `request`; what it answered (answerOf): its value, or a Response. */
export async function answerTo(
  fn: (args: { request: Request; context: typeof context; params: Record<string, string> }) => unknown,
  request: Request,
  params: Record<string, string> = {},
): Promise<unknown> {
  return answerOf(() => fn({ request, context, params }));
}

/** Calls a loader or action with `request`; its answer as a Response (responseOf). */
export async function call(
  fn: (args: { request: Request; context: typeof context; params: Record<string, string> }) => unknown,
  request: Request,
  params: Record<string, string> = {},
): Promise<Response> {
  return responseOf(fn({ request, context, params }));
}

/** A request with an optional bearer token and a JSON, form or multipart body. */
export function req(
  method: string,
  path: string,
  {
    token,
    json,
    form,
    headers = {},
  }: { token?: string; json?: unknown; form?: FormData | URLSearchParams; headers?: Record<string, string> } = {},
): Request {
  const h: Record<string, string> = { ...headers };
  if (token) h.Authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (json !== undefined) {
    h["Content-Type"] = "application/json";
    body = JSON.stringify(json);
  } else if (form) body = form;
  return new Request(`http://localhost${path}`, { method, headers: h, body });
}
