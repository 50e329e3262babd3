/** Small helpers of the catalogue forms (browser-safe). */
import type { SubmissionResult } from "@conform-to/react";

/** A conform value as the text a Field shows. */
export const str = (v: unknown): string | undefined =>
  v === undefined || v === null ? undefined : Array.isArray(v) ? str(v[v.length - 1]) : String(v);

/** What a catalogue form's action answers when it does not redirect. */
export type FormReply = { result: SubmissionResult<string[]> };
