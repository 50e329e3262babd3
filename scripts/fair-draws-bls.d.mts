/** Types of scripts/fair-draws-bls.mjs (the beacon signature check). */
export const DST: string;
export function signatureVerifies(publicKeyHex: string, round: number, signatureHex: string): Promise<boolean>;
