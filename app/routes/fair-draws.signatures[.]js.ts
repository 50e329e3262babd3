import signatures from "~/browser/fair-draws-signatures.ts?on-demand-script";

/**
 * GET /fair-draws/signatures.js: the BLS step of the in-browser checker, loaded by the day page
 * only when the visitor presses "Check this day" (about 100 KB; the page itself carries none of it).
 */
export async function loader() {
  return new Response(signatures.code, {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": "public, max-age=86400",
    },
  });
}
