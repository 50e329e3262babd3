// The toast cookie: read back through its zod schema; a signed value that is not a toast is cleared, never shown.
import { describe, expect, it } from "vitest";
import { oops, readToast, success, toastHeader } from "~/http/toast.server";

const withCookie = (setCookie: string) =>
  new Request("http://localhost/", { headers: { Cookie: setCookie.split(";")[0] } });

describe("readToast", () => {
  it("gives back the toast set by a redirect and the header that clears it", async () => {
    for (const toast of [success("Saved."), oops("Not saved.")]) {
      const read = await readToast(withCookie(await toastHeader(toast)));
      expect(read.toast).toEqual(toast);
      expect(new Headers(read.headers).get("Set-Cookie")).toMatch(/Max-Age=0/);
    }
  });

  it("shows nothing without a cookie", async () => {
    expect(await readToast(new Request("http://localhost/"))).toEqual({ toast: null, headers: undefined });
  });

  it("clears a signed cookie whose value is not a toast, unshown", async () => {
    const odd = await toastHeader({ type: "warning", title: "Hi", message: 1 } as never);
    const read = await readToast(withCookie(odd));
    expect(read.toast).toBeNull();
    expect(new Headers(read.headers).get("Set-Cookie")).toMatch(/Max-Age=0/);
  });
});
