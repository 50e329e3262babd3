/** The reply shape of the catalogue forms (browser-safe). */
import type { SubmissionResult } from "@conform-to/react";

/** What a catalogue form's action answers when it does not redirect. */
export type FormReply = { result: SubmissionResult<string[]> };
