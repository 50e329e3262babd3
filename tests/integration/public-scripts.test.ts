// The public pages' scripts as the build makes them: small, self-contained, no server code,
// the filter rules taken from the schema, safe inside a <script> element.
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { FILTER_PATTERNS } from "~/schemas/preregistration";
import { CASCADE_SCRIPT, COMMON_SCRIPT, PREREG_SCRIPT, VERIFY_SCRIPT } from "~/components/public/scripts";
import { compilePublicScript } from "../../scripts/public-scripts-plugin";

const alias = { "~": path.resolve("app"), "@db": path.resolve("db") };
const ENTRIES = ["common", "preregistration", "verify", "cascade"];

describe("public page scripts", () => {
  it("are built from app/browser and handed to the pages as code", async () => {
    for (const [script, entry] of [
      [COMMON_SCRIPT, "common"],
      [PREREG_SCRIPT, "preregistration"],
      [VERIFY_SCRIPT, "verify"],
      [CASCADE_SCRIPT, "cascade"],
    ] as const) {
      const { code } = await compilePublicScript(path.resolve(`app/browser/${entry}.ts`), alias);
      expect(script.code, entry).toBe(code);
    }
  });

  it("stay small, carry no library or server code, and are safe inside <script>", async () => {
    for (const entry of ENTRIES) {
      const { code, inputs } = await compilePublicScript(path.resolve(`app/browser/${entry}.ts`), alias);
      expect(
        inputs.every((f) => f.includes(`${path.sep}app${path.sep}browser${path.sep}`)),
        entry,
      ).toBe(true);
      expect(code).not.toMatch(/zod|drizzle|react/i);
      expect(code).not.toMatch(/<\/script|<!--/i);
      // A budget per script (brotli), so the pages stay light; the form's carries the checks made before the
      // phone confirmation and the screenshot's check the moment it is chosen (its type, its weight, a copy
      // shrunk in the browser: about 180 bytes, so a visitor never waits minutes for a refusal), and the
      // landing page carries only the common one. The page's whole step stays within its weight (npm run weight).
      expect(zlib.brotliCompressSync(code).length, entry).toBeLessThan(entry === "preregistration" ? 1950 : 1300);
    }
  });

  it("take the filter rules from the schema's FILTER_PATTERNS, evaluated at build time", async () => {
    const { code } = await compilePublicScript(path.resolve("app/browser/preregistration.ts"), alias);
    for (const pattern of Object.values(FILTER_PATTERNS)) expect(code).toContain(JSON.stringify(pattern));
  });
});
