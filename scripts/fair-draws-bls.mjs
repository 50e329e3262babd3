/**
 * The beacon step of a draw check: does a round's signature verify against the chain's public key?
 * drand quicknet's scheme ("bls-unchained-g1-rfc9380"): the signature is a compressed BLS12-381 G1
 * point (48 bytes), the public key a compressed G2 point (96 bytes); the signed message is SHA-256 of
 * the round number as 8 bytes big-endian, hashed to G1 by RFC 9380 with the DST below; the round's
 * randomness is SHA-256 of the signature's 48 bytes. Needs @noble/curves (npm); the rest of the
 * checker needs nothing. The browser loads this file only when a visitor presses Check.
 */
import { bls12_381 as bls } from "@noble/curves/bls12-381.js";

export const DST = "BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_";

const fromHex = (hex) => {
  if (typeof hex !== "string" || !/^([0-9a-f]{2})+$/.test(hex)) throw new Error("not a hex string");
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
};

async function roundMessage(round) {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(round));
  return new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", bytes));
}

/** True when `signatureHex` is the chain's signature of `round`. */
export async function signatureVerifies(publicKeyHex, round, signatureHex) {
  try {
    const s = bls.shortSignatures;
    return s.verify(s.Signature.fromHex(signatureHex), s.hash(await roundMessage(round), DST), fromHex(publicKeyHex));
  } catch {
    return false;
  }
}
