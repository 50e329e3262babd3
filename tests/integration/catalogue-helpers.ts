/** Helpers of the catalogue tests: staff holding exactly some permissions, route calls, images. */
import sharp from "sharp";
import { db, schema } from "@db/index";
import { createUser } from "~/models/user.server";
import { issueToken } from "~/http/api.server";
import { sessionStorage } from "~/http/session.server";
import { responseOf } from "../route-call";

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
  const session = await sessionStorage.getSession();
  session.set("userId", user.id);
  const cookie = (await sessionStorage.commitSession(session)).split(";")[0];
  return { user, token: issueToken(user.id, false).token, cookie };
}

export const context = { clientAddress: "127.0.0.1" };

/** Calls a loader or action; a thrown Response is the answer. */
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

/** A real-looking photo: a noisy gradient JPEG of the given size, with an EXIF orientation and camera metadata. */
export async function photo(width: number, height: number, orientation = 1): Promise<Buffer> {
  const noise = await sharp({
    create: { width, height, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 40 } },
  })
    .jpeg({ quality: 85 })
    .withMetadata({ orientation, exif: { IFD0: { Make: "TestCam", Model: "X100", Copyright: "Someone" } } })
    .toBuffer();
  return noise;
}

export const smallPng = () =>
  sharp({ create: { width: 320, height: 200, channels: 3, background: "#2266aa" } })
    .png()
    .toBuffer();
