/**
 * The winner video form and API payload (spec 001 §2.7, §3): title, url,
 * amount, citizenship_no (shown as Registration ID), phone and the thumbnail
 * (a file id chosen in the picker). The url is an http or https address only;
 * the amount one of the video prizes.
 */
import { z } from "zod";
import { normalizePhone } from "~/utils/phone";
import { formatRupees } from "~/utils/rupees";
import { optionalId, requiredText, text, toNumber } from "./primitives";

/** The prize filter and the form's amount options (spec 001 §2.7). */
export const VIDEO_AMOUNTS = [
  { amount: 50_000, label: "Fifty Thousand" },
  { amount: 100_000, label: "One Lakh" },
  { amount: 1_000_000, label: "Ten Lakh" },
] as const;

export const videoAmountLabel = (amount: number) =>
  VIDEO_AMOUNTS.find((a) => a.amount === amount)?.label ?? formatRupees(amount);

export const VIDEO_MESSAGES = {
  title: "Enter the video title.",
  url: "Enter the video address, starting with http:// or https://.",
  amount: "Choose the prize amount.",
  citizenship: "Enter the Registration ID (letters, digits, - and /, at most 30).",
  phone: "Enter a 10-digit mobile number starting with 9.",
  thumbnail: "Choose an image from the picker or upload one.",
} as const;

/** An absolute http(s) address with a host; nothing else is ever linked. */
export function isHttpUrl(value: string): boolean {
  if (/\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0;
  } catch {
    return false;
  }
}

const AMOUNTS: readonly number[] = VIDEO_AMOUNTS.map((a) => a.amount);

export const videoSchema = z.object({
  title: requiredText(150, VIDEO_MESSAGES.title),
  url: z.preprocess(
    (v) => text(v)?.trim() || undefined,
    z
      .string({ error: VIDEO_MESSAGES.url })
      .max(500, { error: VIDEO_MESSAGES.url })
      .refine(isHttpUrl, { error: VIDEO_MESSAGES.url }),
  ),
  amount: z.preprocess(
    toNumber,
    z.number({ error: VIDEO_MESSAGES.amount }).refine((n) => AMOUNTS.includes(n), { error: VIDEO_MESSAGES.amount }),
  ),
  citizenship_no: z.preprocess(
    (v) => text(v)?.trim() || undefined,
    z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9/-]{0,29}$/, { error: VIDEO_MESSAGES.citizenship })
      .optional(),
  ),
  phone: z.preprocess(
    (v) => text(v)?.trim() || undefined,
    z
      .string()
      .transform((v, ctx) => {
        const phone = normalizePhone(v);
        if (!phone) {
          ctx.addIssue({ code: "custom", message: VIDEO_MESSAGES.phone });
          return z.NEVER;
        }
        return phone;
      })
      .optional(),
  ),
  thumbnail: optionalId(VIDEO_MESSAGES.thumbnail),
});

export type VideoInput = z.output<typeof videoSchema>;

/** GET /api/v1/video?amount and the list's prize filter. */
export const videoFiltersSchema = z.object({
  amount: z.preprocess(
    toNumber,
    z
      .number({ error: VIDEO_MESSAGES.amount })
      .refine((n) => AMOUNTS.includes(n), { error: VIDEO_MESSAGES.amount })
      .optional(),
  ),
});
