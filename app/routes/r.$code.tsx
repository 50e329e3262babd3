import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { findSharer } from "~/models/referrer.server";
import { referralCookie } from "~/http/referral.server";
import { cleanSource } from "~/utils/share-link.server";

/**
 * GET /r/{code}: a registered customer's share link. A code of a live
 * registration sets the referral cookie (the code and the utm_source, for a
 * week) and goes to the landing page with utm_source (the Book a Ride button
 * carries it on); `?to=book` goes straight to the booking form. Any other
 * code goes to the landing page without a cookie. The link names no person:
 * the code is 80 random bits, and nothing about the customer is shown.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const query = new URL(request.url).searchParams;
  const source = cleanSource(query.get("utm_source"));
  const code = (params.code ?? "").toLowerCase();
  const sharer = findSharer(code);
  const headers = new Headers({ "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" });
  if (!sharer) return redirect("/", { headers });
  headers.append("Set-Cookie", referralCookie({ code, source }));
  const landing = query.get("to") === "book" ? "/book-a-ride" : "/";
  return redirect(`${landing}?${new URLSearchParams({ utm_source: source })}`, { headers });
}
