/**
 * Toasts carried across a redirect in a small signed cookie and rendered by the
 * server, so they show without JavaScript. Titles are the spec's: "Success!" and "Oops!".
 */
import { createCookie, redirect } from "@remix-run/node";
import { secureCookies, sessionSecrets } from "./config.server";
import { cookieName } from "./cookie-name.server";

export type Toast = { type: "success" | "error"; title: "Success!" | "Oops!"; message: string };

const toastCookie = createCookie(cookieName("toast", "__toast"), {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secure: secureCookies,
  secrets: sessionSecrets(),
  maxAge: 60,
});

export async function toastHeader(toast: Toast | null): Promise<string> {
  return toast ? toastCookie.serialize(toast) : toastCookie.serialize("", { maxAge: 0 });
}

export const success = (message: string): Toast => ({ type: "success", title: "Success!", message });
export const oops = (message: string): Toast => ({ type: "error", title: "Oops!", message });

export async function redirectWithToast(url: string, toast: Toast, init: ResponseInit = {}) {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await toastHeader(toast));
  return redirect(url, { ...init, headers });
}

/** Reads the pending toast and the header that clears it. */
export async function readToast(request: Request): Promise<{ toast: Toast | null; headers: HeadersInit | undefined }> {
  const value = (await toastCookie.parse(request.headers.get("Cookie"))) as Toast | null | "";
  if (!value) return { toast: null, headers: undefined };
  return { toast: value, headers: { "Set-Cookie": await toastHeader(null) } };
}
