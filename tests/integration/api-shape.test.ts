// The API answers like an API: an unknown /api/v1 path is a JSON 404; a call with a bearer token or
// Accept: application/json that is not allowed gets JSON 401/403, never a redirect to /login; a
// browser following a download link keeps the redirect.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { action as unknownAction, loader as unknownLoader } from "~/routes/api.v1.$";
import { loader as registrationsXls } from "~/routes/api.v1.registration.download";
import { db, schema } from "@db/index";
import { createUser } from "~/models/user.server";
import { issueToken } from "~/http/api.server";
import { sessionStorage } from "~/http/session.server";
import { makeBranch, makeUser } from "../fixtures";
import { responseOf } from "../route-helpers";

async function answer(
  fn: (a: LoaderFunctionArgs) => Promise<unknown>,
  url: string,
  headers: Record<string, string> = {},
  method = "GET",
) {
  return responseOf(
    fn({ request: new Request(url, { headers, method }), context: { clientAddress: "x" }, params: {} }),
  );
}

describe("API shape", () => {
  it("an unknown /api/v1 path is a JSON 404 for every method", async () => {
    for (const [fn, method] of [
      [unknownLoader, "GET"],
      [unknownAction, "POST"],
      [unknownAction, "DELETE"],
    ] as const) {
      const res = await answer(fn as never, "http://localhost/api/v1/no/such/call", {}, method);
      expect(res.status).toBe(404);
      expect(res.headers.get("Content-Type")).toContain("application/json");
      expect(await res.json()).toEqual({ message: "Not found." });
    }
  });

  it("a download asked for with a token or as JSON answers JSON 401/403; a browser link keeps the redirect", async () => {
    const url = "http://localhost/api/v1/registration/download";
    const anonJson = await answer(registrationsXls, url, { Accept: "application/json" });
    expect(anonJson.status).toBe(401);
    expect((await anonJson.json()).message).toBe("Unauthenticated.");
    const badToken = await answer(registrationsXls, url, { Authorization: "Bearer nope" });
    expect(badToken.status).toBe(401);
    const browser = await answer(registrationsXls, url, { Accept: "text/html,application/xhtml+xml" });
    expect(browser.status).toBe(302);
    expect(browser.headers.get("Location")).toMatch(/^\/login\?redirectTo=/);

    const nobody = await makeUser("branch-staff", makeBranch().id);
    const session = await sessionStorage.getSession();
    session.set("userId", nobody.id);
    const cookie = (await sessionStorage.commitSession(session)).split(";")[0];
    // Branch staff hold read-registration: allowed. A role without it is refused as JSON when JSON is asked for.
    const { token } = issueToken(nobody.id, false);
    expect((await answer(registrationsXls, url, { Authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await answer(registrationsXls, url, { Cookie: cookie, Accept: "application/json" })).status).toBe(200);

    const role = db.insert(schema.roles).values({ slug: "shape-none", title: "None" }).returning().get();
    const without = await createUser({
      first_name: "No",
      email: "shape-none@example.test",
      role_id: role.id,
      branch_id: null,
      password: "Secret-pass-9",
    });
    const s2 = await sessionStorage.getSession();
    s2.set("userId", without.id);
    const cookie2 = (await sessionStorage.commitSession(s2)).split(";")[0];
    const json403 = await answer(registrationsXls, url, { Cookie: cookie2, Accept: "application/json" });
    expect(json403.status).toBe(403);
    expect((await json403.json()).message).toBe("This action is unauthorized.");
    const token403 = await answer(registrationsXls, url, {
      Authorization: `Bearer ${issueToken(without.id, false).token}`,
    });
    expect(token403.status).toBe(403);
    const link = await answer(registrationsXls, url, { Cookie: cookie2, Accept: "text/html" });
    expect([link.status, link.headers.get("Location")]).toEqual([302, "/admin"]);
  });
});
