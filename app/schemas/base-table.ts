/**
 * The fallback (base) tables of the prize draw: rows of an amount in rupees
 * and a weight. `baseTableSchema` is what the model stores and reads back;
 * `baseTableFormSchema` is the settings page's form, whose rows arrive as
 * `rows[i].amount` / `rows[i].weight` (conform's list names) with blank rows
 * among them: a row left empty is dropped, and an error keeps the index of
 * the row as shown, so it appears under its own input.
 */
import { z } from "zod";
import { BASE_TABLE_KINDS, type BaseTableRow } from "~/utils/base-tables";
import { emptyToUndefined, toNumber } from "./primitives";

export const BASE_TABLE_MESSAGES = {
  amount: "Each amount must be a whole number of rupees above 0.",
  weight: "Each weight must be a number above 0.",
  emptySecond: "The second-thrill base table needs at least one row.",
  notAList: "The base table must be a list of amounts with weights.",
  kind: "Choose the table to save.",
} as const;

export const baseTableKindSchema = z.enum(BASE_TABLE_KINDS, { error: BASE_TABLE_MESSAGES.kind });

export const baseTableRowSchema = z.object({
  amount: z.preprocess(
    toNumber,
    z.number({ error: BASE_TABLE_MESSAGES.amount }).refine((n) => Number.isSafeInteger(n) && n > 0, {
      error: BASE_TABLE_MESSAGES.amount,
    }),
  ),
  weight: z.preprocess(
    toNumber,
    z.number({ error: BASE_TABLE_MESSAGES.weight }).refine((n) => Number.isFinite(n) && n > 0, {
      error: BASE_TABLE_MESSAGES.weight,
    }),
  ),
});

/** A stored table: the second thrill's has at least one row; the third's may be empty (no coupon). */
export function baseTableSchema(kind: (typeof BASE_TABLE_KINDS)[number]) {
  const rows = z.array(baseTableRowSchema, { error: BASE_TABLE_MESSAGES.notAList });
  return kind === "second" ? rows.min(1, { error: BASE_TABLE_MESSAGES.emptySecond }) : rows;
}

/** A row whose inputs are all empty (absent in conform's payload, or an object of empty values). */
function isBlankRow(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value !== "object" || Array.isArray(value)) return false;
  return Object.values(value).every((v) => emptyToUndefined(v) === undefined);
}

/** The settings page's form: `intent` names the table; its rows, blank ones dropped. */
export const baseTableFormSchema = z
  .object({
    intent: baseTableKindSchema,
    rows: z.array(z.preprocess((v) => (isBlankRow(v) ? undefined : v), baseTableRowSchema.optional())).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.intent === "second" && !value.rows?.some(Boolean)) {
      ctx.addIssue({ code: "custom", path: ["rows"], message: BASE_TABLE_MESSAGES.emptySecond });
    }
  })
  .transform((value) => ({
    kind: value.intent,
    rows: (value.rows ?? []).filter((row): row is BaseTableRow => row !== undefined),
  }));

export type BaseTableFormValue = z.output<typeof baseTableFormSchema>;
