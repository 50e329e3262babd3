/**
 * Test data for the end-to-end server, made through the product's own models and tests/fixtures.ts
 * (as the vitest tests make theirs), never raw SQL: a row the server would refuse cannot be set up.
 * `./server` comes first: it points those modules at the server's database before they load.
 */
import "./server";
import { setSetting } from "~/models/settings.server";
import { createRole } from "~/models/role.server";
import { createVideo, deleteVideo } from "~/models/video.server";
import { SYSTEM_ACTOR } from "~/models/scope.server";
import { createUser, findUserByEmail } from "~/models/user.server";
import { videoSchema } from "~/schemas/video";
import { startSession } from "~/http/session.server";
import type { Permission } from "~/utils/permissions";

export {
  ageCodes,
  failSms,
  makeAllocation,
  makeBikeModel,
  makeBranch,
  makeDraw,
  makePreregistration,
  makeTestRide,
  refusedSms,
  setPaid,
} from "../fixtures";
export { setSetting };

/** A signed-in session for a user, as the login form starts it: the value of its cookie. */
export async function sessionFor(email: string): Promise<string> {
  const user = findUserByEmail(email);
  if (!user) throw new Error(`no user ${email}`);
  const setCookie = await startSession(user.id, false);
  return setCookie.slice(setCookie.indexOf("=") + 1, setCookie.indexOf(";"));
}

/** A role holding `permissions`, made as the role screen makes one. */
export function makeRole(title: string, permissions: Permission[]) {
  const result = createRole(SYSTEM_ACTOR, { title, permissions });
  if (!result.ok) throw new Error(`makeRole: ${result.message}`);
  return result.role;
}

/** A back-office user with a role and branch, signing in with `password`. */
export function makeStaff(input: { email: string; role_id: number; branch_id: number | null; password: string }) {
  return createUser({ first_name: "Staff", last_name: "Member", ...input });
}

/** A winner video, made as the video screen makes one; `removeVideo` deletes it. */
export function makeVideo(values: { title: string; url: string; amount: number }) {
  const result = createVideo(SYSTEM_ACTOR, videoSchema.parse(values));
  if (!result.ok) throw new Error(`makeVideo: ${result.message}`);
  return result.video;
}

export function removeVideo(slug: string) {
  deleteVideo(SYSTEM_ACTOR, slug);
}
