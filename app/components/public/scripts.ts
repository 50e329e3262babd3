/**
 * The public pages ship no JavaScript bundle (handle { scripts: false }); these small scripts
 * enhance what already works as plain HTML forms and links. Their sources are typed modules in
 * app/browser/ (linted and type-checked with the rest), bundled one by one at build time by
 * scripts/public-scripts-plugin.ts. Each is safe to run twice (a page's scripts run again when
 * it opens in a dialog) and does nothing when its elements are absent. How a page loads them:
 * PublicShell (docs/decisions/0010-public-scripts-and-csp.md).
 */
import cascade from "~/browser/cascade.ts?public-script";
import common from "~/browser/common.ts?public-script";
import fairDraws from "~/browser/fair-draws.ts?public-script";
import preregistration from "~/browser/preregistration.ts?public-script";
import share from "~/browser/share.ts?public-script";
import verify from "~/browser/verify.ts?public-script";

/** A built enhancement script: its minified code (inlined by PublicShell with the request's nonce). */
export type PublicScript = { code: string };

/** Every public page: <html class="js">, autosubmit selects, a[data-modal] links as a <dialog> (app/browser/common.ts). */
export const COMMON_SCRIPT: PublicScript = common;

/** Pre-registration forms: typing filters, image downscaling, the phone confirmation dialog (app/browser/preregistration.ts). */
export const PREREG_SCRIPT: PublicScript = preregistration;

/** The verify form: "OTP is required" at once, the resend countdown (app/browser/verify.ts). */
export const VERIFY_SCRIPT: PublicScript = verify;

/** Booking forms: the state → district → city → branch cascade (app/browser/cascade.ts). */
export const CASCADE_SCRIPT: PublicScript = cascade;

/** The draw's share button through the Web Share API, links otherwise (app/browser/share.ts). */
export const SHARE_SCRIPT: PublicScript = share;

/** The fair-draws day page's in-browser check (app/browser/fair-draws.ts). */
export const FAIR_DRAWS_SCRIPT: PublicScript = fairDraws;
