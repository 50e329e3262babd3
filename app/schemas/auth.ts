import { z } from "zod";
import { FIELD_MESSAGES } from "./primitives";

const email = () =>
  z
    .string({ error: FIELD_MESSAGES.required("Email") })
    .trim()
    .email(FIELD_MESSAGES.invalidEmail("Email"));

/** POST /api/v1/auth/login and the login form. */
export const loginSchema = z.object({
  email: email(),
  password: z.string({ error: FIELD_MESSAGES.required("Password") }).min(1, FIELD_MESSAGES.required("Password")),
  remember_me: z.boolean().default(false),
});

/** /reset-password, step one: the account's e-mail. */
export const resetRequestSchema = z.object({
  email: email(),
});

/** A new password typed twice (reset and change alike). */
const newPassword = {
  password: z
    .string({ error: FIELD_MESSAGES.required("Password") })
    .min(8, "The password must be at least 8 characters."),
  password_confirmation: z.string({ error: "Please confirm the password." }),
};
const confirmed = (v: { password: string; password_confirmation: string }) => v.password === v.password_confirmation;
const confirmationMismatch = {
  path: ["password_confirmation"],
  message: "The password confirmation does not match.",
};

/** /reset-password, step two: the code sent by SMS and the new password. */
export const resetPasswordSchema = z
  .object({
    email: email(),
    code: z.string({ error: FIELD_MESSAGES.required("Code") }).regex(/^\d{6}$/, "The code must be 6 digits."),
    ...newPassword,
  })
  .refine(confirmed, confirmationMismatch);

/** /admin/profile: change one's own password. */
export const changePasswordSchema = z
  .object({
    current_password: z.string({ error: FIELD_MESSAGES.required("Current password") }),
    ...newPassword,
  })
  .refine(confirmed, confirmationMismatch);
