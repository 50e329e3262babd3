/**
 * The SMS outbox's list filters and its retry form. An unknown status or purpose
 * is ignored (the list shows everything); From and To (a Kathmandu day, or a day
 * and hour from the page's hour selects) that do not read are said under their
 * filter. Never an error page.
 */
import { z } from "zod";
import { SMS_PURPOSES, SMS_STATUSES } from "@db/enums";
import { checkReadableRange, DAY_MESSAGE, optionalChoice, optionalDate, requiredId } from "./primitives";

/** The stored statuses: sms_messages.status's own list; the purposes, sms_messages.purpose's. */
export { SMS_PURPOSES, SMS_STATUSES };

export const outboxFiltersSchema = z
  .object({
    status: optionalChoice(SMS_STATUSES),
    purpose: optionalChoice(SMS_PURPOSES),
    from: optionalDate(DAY_MESSAGE),
    to: optionalDate(DAY_MESSAGE),
  })
  .superRefine(checkReadableRange);

export const OUTBOX_MESSAGES = { id: "Message not found." } as const;

export const outboxRetrySchema = z.object({
  id: requiredId(OUTBOX_MESSAGES.id),
});
