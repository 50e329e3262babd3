/**
 * The dealer user form and API payload (spec 001 §2.6, §3): branch_id, first_name,
 * last_name, email, phone, sex, address, role_id, password, password_confirmation.
 * One schema for creating (password required) and one for editing (an empty
 * password keeps the old one); both are shared by conform in the browser, the
 * page actions and POST /api/v1/user.
 *
 * Rules that need the database or the actor (the e-mail already taken, a role
 * or branch the actor may not give, the commonly used passwords) live in the
 * model (app/models/user.server.ts), never here.
 */
import { z } from "zod";
import { englishLabels } from "~/utils/labels";
import { permissionLabel } from "~/utils/permissions";
import { normalizePhone } from "~/utils/phone";
import { FIELD_MESSAGES, optionalId, optionalText, requiredId, requiredText, text } from "./primitives";

export const SEXES = ["MALE", "FEMALE", "OTHERS"] as const;
export type Sex = (typeof SEXES)[number];
export const SEX_LABELS: Record<Sex, string> = englishLabels("sex");

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export const USER_MESSAGES = {
  firstName: FIELD_MESSAGES.required("First name"),
  email: FIELD_MESSAGES.required("Email"),
  emailInvalid: FIELD_MESSAGES.invalidEmail("Email"),
  emailTaken: FIELD_MESSAGES.taken("Email"),
  phone: FIELD_MESSAGES.required("Phone"),
  phoneInvalid: "Please enter a valid mobile number (10 digits starting with 9).",
  sex: "Choose male, female or others.",
  role: "Choose a role.",
  roleMissing: "Choose a role from the list.",
  branch: "Choose a branch from the list.",
  password: FIELD_MESSAGES.required("Password"),
  passwordShort: `The password must be at least ${PASSWORD_MIN} characters.`,
  passwordLong: `The password may not be longer than ${PASSWORD_MAX} characters.`,
  passwordCommon: "This password is too common. Choose one that is harder to guess.",
  passwordIsEmail: "The password may not be the email address.",
  confirmation: "The password confirmation does not match.",
} as const;

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** A password as typed: never trimmed (spaces count), "" is not given. */
const passwordValue = (v: unknown) => {
  const t = text(v);
  return t === undefined || t === "" ? undefined : t;
};

const password = z
  .string({ error: USER_MESSAGES.password })
  .min(PASSWORD_MIN, { error: USER_MESSAGES.passwordShort })
  .max(PASSWORD_MAX, { error: USER_MESSAGES.passwordLong });

const fields = {
  branch_id: optionalId(USER_MESSAGES.branch),
  first_name: requiredText(60, USER_MESSAGES.firstName),
  last_name: optionalText(60),
  email: z.preprocess(
    (v) => text(v)?.trim().toLowerCase() || undefined,
    z
      .string({ error: USER_MESSAGES.email })
      .max(190, { error: "The email may not be longer than 190 characters." })
      .regex(EMAIL, { error: USER_MESSAGES.emailInvalid }),
  ),
  phone: z.preprocess(
    (v) => text(v)?.trim() || undefined,
    z
      .string({ error: USER_MESSAGES.phone })
      .refine((s) => normalizePhone(s) !== null, { error: USER_MESSAGES.phoneInvalid })
      .transform((s) => normalizePhone(s)!),
  ),
  sex: z.preprocess(
    (v) => text(v)?.trim().toUpperCase() || undefined,
    z.enum(SEXES, { error: USER_MESSAGES.sex }).default("MALE"),
  ),
  address: optionalText(255),
  role_id: requiredId(USER_MESSAGES.role),
  password_confirmation: z.preprocess(passwordValue, z.string().optional()),
};

function confirm(value: { password?: unknown; password_confirmation?: unknown }, ctx: z.RefinementCtx) {
  if (typeof value.password === "string" && value.password !== value.password_confirmation) {
    ctx.addIssue({ code: "custom", path: ["password_confirmation"], message: USER_MESSAGES.confirmation });
  }
}

/** Creating a user: every field of the form, a password required. */
export const userCreateSchema = z
  .object({ ...fields, password: z.preprocess(passwordValue, password) })
  // Checked even when other fields fail, so every field's error shows at once.
  .superRefine(confirm, { when: () => true });

/** Editing a user: the same fields; an empty password keeps the old one. */
export const userUpdateSchema = z
  .object({ ...fields, password: z.preprocess(passwordValue, password.optional()) })
  .superRefine(confirm, { when: () => true });

export type UserCreateInput = z.output<typeof userCreateSchema>;
export type UserUpdateInput = z.output<typeof userUpdateSchema>;

/** The fields a page never sends back to the browser (not re-filled after an error). */
export const PASSWORD_FIELDS = ["password", "password_confirmation"] as const;

/** The users list's filters (page and API). */
export const userFiltersSchema = z.object({
  role_id: optionalId(USER_MESSAGES.roleMissing),
  branch_id: z.preprocess(
    (v) => text(v)?.trim() || undefined,
    z
      .string()
      .regex(/^(?:head-office|[1-9]\d{0,9})$/, { error: USER_MESSAGES.branch })
      .optional(),
  ),
});

export type UserFilters = z.output<typeof userFiltersSchema>;

/** The role matrix form: a new role's title (its permissions are the ticked boxes). */
export const ROLE_MESSAGES = {
  title: FIELD_MESSAGES.required("Title"),
  titleTaken: "A role with this title already exists.",
  locked: "Super Admin keeps every permission: its permissions cannot be changed.",
  unknownPermission: "Choose permissions from the list.",
  notHeld: (names: string[]) =>
    `You cannot give a permission you do not hold yourself: ${names.map(permissionLabel).join(", ")}.`,
  changedMeanwhile:
    "Someone else changed this role's permissions since you opened the page. Reload the page to see them, then make your change again.",
  lastFull:
    "No head-office user would hold every permission after this change. Keep at least one head-office user with every permission.",
} as const;

/** A list of strings from a form (repeated fields) or JSON (an array, or one string). */
const stringList = z.preprocess(
  (v) => (v === undefined || v === null || v === "" ? [] : Array.isArray(v) ? v : [v]),
  z.array(z.string({ error: ROLE_MESSAGES.unknownPermission })),
);

/** A new role: its title and the permissions ticked (names checked against the list by the model). */
export const roleCreateSchema = z.object({
  title: requiredText(60, ROLE_MESSAGES.title),
  permissions: stringList,
});

/**
 * The matrix form: `roles` lists the ids of the roles shown editable, and each
 * `role.{id}` field repeats the permissions ticked for that role (none ticked:
 * no field at all, so the list of ids says which roles were sent).
 */
export function roleMatrixFromForm(form: FormData): { role_id: number; permissions: string[]; loaded?: string[] }[] {
  const ids = [...new Set(form.getAll("roles").map((v) => Number(v)))].filter((n) => Number.isSafeInteger(n) && n > 0);
  return ids.map((id) => {
    // The role's permissions as the page showed them (`loaded.{id}`, comma-separated).
    const loaded = form.get(`loaded.${id}`);
    return {
      role_id: id,
      permissions: form.getAll(`role.${id}`).filter((v): v is string => typeof v === "string"),
      ...(typeof loaded === "string" ? { loaded: loaded ? loaded.split(",") : [] } : {}),
    };
  });
}
