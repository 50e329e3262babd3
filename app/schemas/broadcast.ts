/**
 * The SMS broadcast form and POST /api/v1/sms (spec 001 §2.10, §3, §5, §7):
 * type (ALL, BRANCH, REGISTRANTS, MOBILE; default ALL), text, branches (ids),
 * registrants (ids) and mobiles (a list, or the form's comma-separated text:
 * split on commas, and on new lines, and trimmed). Only the fields of the
 * chosen type are read. A bad mobile entry is refused with
 * "{message} Mobile number N is invalid", N its position in the list as typed
 * (an empty entry between two commas keeps its place and is ignored). Errors
 * come per field: type, text, branches, registrants, and mobiles (also under
 * phone, the key the specification's client reads).
 */
import { z } from "zod";
import { BROADCAST_TYPES, SMS_STATUSES } from "@db/enums";
import { englishLabels } from "~/utils/labels";
import { normalizePhone } from "~/utils/phone";
import { emptyToUndefined, text as asText, toNumber } from "./primitives";

export { BROADCAST_TYPES };
export type BroadcastType = (typeof BROADCAST_TYPES)[number];

/** The category select's labels (spec 001 §2.10). */
export const BROADCAST_TYPE_LABELS: Record<BroadcastType, string> = englishLabels("broadcast_type");

export const BROADCAST_LIMITS = {
  text: 1000,
  registrants: 1000,
  branches: 500,
  mobiles: 100_000,
} as const;

export const MOBILE_ENTRY_MESSAGE = "Mobile numbers are 10 digits starting with 9.";

export const BROADCAST_MESSAGES = {
  type: "Please choose who receives the message: All, Branch, Customer or Mobile.",
  text: "Please enter the message.",
  textTooLong: `The message may not be longer than ${BROADCAST_LIMITS.text} characters.`,
  branches: "Please choose at least one branch.",
  branchUnknown: "Please choose branches from the list.",
  branchOutside: "You can only send to your own branch.",
  tooManyBranches: `Please choose at most ${BROADCAST_LIMITS.branches} branches.`,
  registrants: "Please choose at least one customer.",
  registrantUnknown: "Please choose customers from the list.",
  tooManyRegistrants: `Please choose at most ${BROADCAST_LIMITS.registrants} customers.`,
  mobiles: "Please enter at least one mobile number.",
  tooManyMobiles: `At most ${BROADCAST_LIMITS.mobiles.toLocaleString("en")} numbers can be typed in one broadcast.`,
  /** Spec 001 §5: '{message} Mobile number N is invalid'. */
  mobileInvalid: (position: number) => `${MOBILE_ENTRY_MESSAGE} Mobile number ${position} is invalid`,
  nobody: "There is no valid mobile number to send to.",
} as const;

/** Form values (a repeated field, one value) and JSON values (an array, a number) as a list. */
const list = (value: unknown): unknown[] => {
  if (value === undefined || value === null || value === "") return [];
  return Array.isArray(value) ? value : [value];
};

const isId = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n > 0;

/** A list of ids; a value that is not an id is reported under the field itself with `message`. */
const idList = (message: string) =>
  z.preprocess(
    (v) => list(v).map((x) => toNumber(x)),
    z
      .array(z.unknown())
      .refine((ids) => ids.every(isId), { error: message })
      .transform((ids) => ids as number[]),
  );

/**
 * The typed mobiles as read: the valid ones in their 10-digit form, in the order typed; the positions of
 * the first entries that are not mobiles; and how many entries there were (empty ones left out).
 */
export type TypedMobiles = { phones: string[]; invalid: number[]; entries: number };

const SEPARATORS = /[,\n\r]/;

/** Invalid entries reported at most (each is an error under the field). */
const INVALID_SHOWN = 20;

/** Entries read between two turns of the event loop (each slice a few milliseconds). */
const SPLIT_SLICE = 5_000;

/** Lets the event loop go round (timers, other requests), in the browser as on the server. */
const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The typed mobiles: the text as typed or a JSON list, each entry trimmed and
 * normalized, an invalid one known by its position (1-based, as split on commas
 * and new lines; empty entries are skipped but keep their place). One pass, no
 * object per entry, read SPLIT_SLICE entries at a time: a list of 100,000
 * numbers never holds the event loop of the request that accepts it for long.
 */
export async function splitMobiles(value: unknown): Promise<TypedMobiles> {
  const phones: string[] = [];
  const invalid: number[] = [];
  let position = 0;
  let entries = 0;
  const add = (raw: string) => {
    position += 1;
    const entry = raw.trim();
    if (!entry) return;
    entries += 1;
    const phone = normalizePhone(entry);
    if (phone) phones.push(phone);
    else if (invalid.length < INVALID_SHOWN) invalid.push(position);
  };
  for (const v of list(value)) {
    const text = asText(v) ?? "";
    for (const part of SEPARATORS.test(text) ? text.split(/[,\n\r]/) : [text]) {
      add(part);
      if (position % SPLIT_SLICE === 0) await nextTurn();
    }
  }
  return { phones, invalid, entries };
}

export const broadcastSchema = z
  .object({
    type: z.preprocess(
      (v) => asText(emptyToUndefined(v))?.trim().toUpperCase(),
      z.enum(BROADCAST_TYPES, { error: BROADCAST_MESSAGES.type }).default("ALL"),
    ),
    text: z.preprocess(
      (v) => asText(v)?.replace(/\r\n/g, "\n").trim() || undefined,
      z
        .string({ error: BROADCAST_MESSAGES.text })
        .refine((s) => Array.from(s).length <= BROADCAST_LIMITS.text, { error: BROADCAST_MESSAGES.textTooLong }),
    ),
    branches: idList(BROADCAST_MESSAGES.branchUnknown),
    registrants: idList(BROADCAST_MESSAGES.registrantUnknown),
    /** Read as typed; checked below only for the MOBILE type. */
    // Read by splitMobiles, a slice at a time, so no per-entry check by zod (each entry is checked once,
    // below). It makes the schema asynchronous: it is parsed with safeParseAsync (parseValue).
    mobiles: z.preprocess((v) => splitMobiles(v), z.custom<TypedMobiles>()),
    /** POST /api/v1/sms only: answer the preview instead of sending. */
    preview: z.preprocess((v) => {
      const t = asText(v);
      return t === "on" || t === "true" || t === "1";
    }, z.boolean()),
  })
  .superRefine((value, ctx) => {
    if (value.type === "BRANCH") {
      if (!value.branches.length)
        ctx.addIssue({ code: "custom", path: ["branches"], message: BROADCAST_MESSAGES.branches });
      else if (value.branches.length > BROADCAST_LIMITS.branches) {
        ctx.addIssue({ code: "custom", path: ["branches"], message: BROADCAST_MESSAGES.tooManyBranches });
      }
    }
    if (value.type === "REGISTRANTS") {
      if (!value.registrants.length) {
        ctx.addIssue({ code: "custom", path: ["registrants"], message: BROADCAST_MESSAGES.registrants });
      } else if (value.registrants.length > BROADCAST_LIMITS.registrants) {
        ctx.addIssue({ code: "custom", path: ["registrants"], message: BROADCAST_MESSAGES.tooManyRegistrants });
      }
    }
    if (value.type === "MOBILE") {
      const issue = (message: string) => {
        ctx.addIssue({ code: "custom", path: ["mobiles"], message });
        ctx.addIssue({ code: "custom", path: ["phone"], message });
      };
      const { entries, invalid } = value.mobiles;
      if (!entries) issue(BROADCAST_MESSAGES.mobiles);
      else if (entries > BROADCAST_LIMITS.mobiles) issue(BROADCAST_MESSAGES.tooManyMobiles);
      else for (const position of invalid) issue(BROADCAST_MESSAGES.mobileInvalid(position));
    }
  })
  .transform((value) => ({
    type: value.type,
    text: value.text,
    // Only the choice of the type is kept (the form posts every section).
    branches: value.type === "BRANCH" ? [...new Set(value.branches)] : [],
    registrants: value.type === "REGISTRANTS" ? [...new Set(value.registrants)] : [],
    mobiles: value.type === "MOBILE" ? value.mobiles.phones : [],
    preview: value.preview,
  }));

export type BroadcastInput = z.output<typeof broadcastSchema>;

/** What a sender is told once a broadcast is accepted (a typed list is counted at once; the others as stored). */
export const onItsWay = (total: number) =>
  total
    ? `The message is on its way to ${total.toLocaleString("en")} recipient${total === 1 ? "" : "s"}.`
    : "The message is on its way; its recipients are counted as it is queued.";

/** GET /api/v1/sms/registrants?q= and the form's customer search. */
export const registrantQuerySchema = z.object({
  q: z.preprocess((v) => asText(v)?.trim().slice(0, 100) ?? "", z.string()),
});

/** The broadcast history and a broadcast's recipients: status filter (unknown values are ignored). */
export const RECIPIENT_STATUSES = SMS_STATUSES;
export const recipientFiltersSchema = z.object({
  status: z.preprocess((v) => emptyToUndefined(asText(v)), z.enum(RECIPIENT_STATUSES).optional().catch(undefined)),
});
