/**
 * Toasts carried across a redirect in a small signed cookie and rendered by the
 * server, so they show without JavaScript. Titles are the spec's: "Success!" and "Oops!".
 */
import { createCookie, redirect } from "@remix-run/node";
import { z } from "zod";
import { secureCookies, sessionSecrets } from "~/utils/config.server";
import { cookieName } from "./cookie-name.server";

const toastSchema = z.object({
  type: z.enum(["success", "error"]),
  title: z.enum(["Success!", "Oops!"]),
  message: z.string(),
});

export type Toast = z.output<typeof toastSchema>;

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

/** Reads the pending toast and the header that clears it; a cookie that is not a toast is cleared unshown. */
export async function readToast(request: Request): Promise<{ toast: Toast | null; headers: HeadersInit | undefined }> {
  const value: unknown = await toastCookie.parse(request.headers.get("Cookie"));
  if (!value) return { toast: null, headers: undefined };
  const toast = toastSchema.safeParse(value);
  return { toast: toast.success ? toast.data : null, headers: { "Set-Cookie": await toastHeader(null) } };
}
