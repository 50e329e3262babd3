/**
 * Seals a running day's house seed for the database: AES-256-GCM under the draw seal key
 * (config.server.ts `drawSealKey`, kept beside the session secret, never in the database), so a
 * copy of the database (a backup, the Litestream replica) does not hold the seed in clear.
 */
import crypto from "node:crypto";
import { drawSealKey } from "~/utils/config.server";

let key: Buffer | null = null;
const sealKey = () => (key ??= drawSealKey());

/** "v1:" iv ":" tag ":" ciphertext, hex. `label` (the day) is bound in as associated data. */
export function seal(plain: Buffer, label: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", sealKey(), iv);
  cipher.setAAD(Buffer.from(label));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return ["v1", iv.toString("hex"), cipher.getAuthTag().toString("hex"), body.toString("hex")].join(":");
}

export function unseal(sealed: string, label: string): Buffer {
  const [version, iv, tag, body] = sealed.split(":");
  if (version !== "v1" || !iv || !tag || body === undefined) throw new Error("not a sealed value");
  const decipher = crypto.createDecipheriv("aes-256-gcm", sealKey(), Buffer.from(iv, "hex"));
  decipher.setAAD(Buffer.from(label));
  decipher.setAuthTag(Buffer.from(tag, "hex"));
  return Buffer.concat([decipher.update(Buffer.from(body, "hex")), decipher.final()]);
}
