// The public forms' intents: each public page whose action reads an intent lists them in its
// `handle.intents`, every intent its own forms post is listed, and any other intent is a 400 (never
// guessed to be one of them). The back office's are walked by route-table.test.ts.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ADDRESS_HEADER } from "~/http/auth.server";
import { answerOf } from "../route-helpers";

type PublicModule = {
  handle?: { intents?: Readonly<Record<string, unknown>> };
  action?: (args: { request: Request; context: object; params: Record<string, string> }) => Promise<unknown>;
};
const modules = Object.entries(
  import.meta.glob<PublicModule>(["/app/routes/*.tsx", "!/app/routes/admin*.tsx"], { eager: true }),
);
const components = Object.entries(
  import.meta.glob<string>("/app/components/public/*.tsx", { query: "?raw", import: "default", eager: true }),
);

describe("public forms post only the intents their page declares", () => {
  it("every public action that reads an intent declares them, and declares what its forms post", () => {
    const withIntents = modules.filter(([, mod]) => mod.handle?.intents);
    expect(withIntents.map(([file]) => file.replace("/app/routes/", "")).sort()).toEqual([
      "book-a-ride.tsx",
      "enquiry.$slug.verify.tsx",
      "enquiry._index.tsx",
      "enquiry.continue.tsx",
      "reset-password.tsx",
    ]);
    for (const [file, mod] of modules) {
      if (!mod.action) continue;
      if (/\bintent\b/.test(mod.action.toString())) expect(mod.handle?.intents, file).toBeTypeOf("object");
      const source = readFileSync(`.${file}`, "utf8");
      for (const [, value] of source.matchAll(/name="intent"\s+value="([a-z-]+)"/g))
        expect(Object.keys(mod.handle?.intents ?? {}), `${file} posts ${value}`).toContain(value);
    }
    // The shared public forms post to the page that shows them, or to /enquiry/continue (formAction).
    const declared = new Set(withIntents.flatMap(([, mod]) => Object.keys(mod.handle!.intents!)));
    for (const [file, source] of components)
      for (const [, value] of source.matchAll(/name="intent"\s+value="([a-z-]+)"/g))
        expect([...declared], `${file} posts ${value}`).toContain(value);
  });

  for (const [file, mod] of modules.filter(([, m]) => m.handle?.intents)) {
    it(`${file.replace("/app/routes/", "")}: an unknown intent is a 400`, async () => {
      const request = new Request("http://localhost/x", {
        method: "POST",
        headers: { Origin: "http://localhost", [ADDRESS_HEADER]: "10.9.0.1" },
        body: new URLSearchParams({ intent: "no-such", phone: "9841000000", code: "123456" }),
      });
      const answer = await answerOf(() => mod.action!({ request, context: {}, params: { slug: "some-slug" } }));
      expect(answer instanceof Response ? answer.status : 200, file).toBe(400);
    });
  }
});
