/**
 * The draw's roll plays once: the verification that made the draw sets a
 * short cookie naming the entry, and the draw page rolls only while it is
 * there (and clears it). Opening the draw address again shows the result at
 * rest, so a second visit never looks like a new draw.
 */
import { createCookie } from "@remix-run/node";
import { secureCookies } from "~/utils/config.server";
import { cookieName } from "./cookie-name.server";

export const revealCookie = createCookie(cookieName("reveal"), {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secure: secureCookies,
  maxAge: 300,
});

/** Adds the roll-once cookie for `slug` to a redirect. */
export async function withReveal(response: Response, slug: string): Promise<Response> {
  response.headers.append("Set-Cookie", await revealCookie.serialize(slug));
  return response;
}

/** Whether this visit is the one that rolls; with the header that clears the cookie. */
export async function takeReveal(request: Request, slug: string): Promise<{ roll: boolean; headers: HeadersInit }> {
  const value = await revealCookie.parse(request.headers.get("Cookie"));
  if (value !== slug) return { roll: false, headers: {} };
  return { roll: true, headers: { "Set-Cookie": await revealCookie.serialize("", { maxAge: 0 }) } };
}
