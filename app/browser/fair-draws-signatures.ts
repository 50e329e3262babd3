/**
 * The beacon step of the in-browser draw check (scripts/fair-draws-bls.mjs: BLS12-381 by
 * @noble/curves), served as /fair-draws/signatures.js and loaded only when a visitor presses
 * "Check this day", so the page itself stays light.
 */
import { signatureVerifies } from "../../scripts/fair-draws-bls.mjs";

(window as unknown as { fairDrawSignatures: typeof signatureVerifies }).fairDrawSignatures = signatureVerifies;
