import { z } from "zod";

/** POST /api/v1/auth/login and the login form. */
export const loginSchema = z.object({
  email: z.string({ error: "The email field is required." }).trim().email("The email must be a valid email address."),
  password: z.string({ error: "The password field is required." }).min(1, "The password field is required."),
  remember_me: z.boolean().default(false),
});

/** /reset-password, step one: the account's e-mail. */
export const resetRequestSchema = z.object({
  email: z.string({ error: "The email field is required." }).trim().email("The email must be a valid email address."),
});

/** /reset-password, step two: the code sent by SMS and the new password. */
export const resetPasswordSchema = z
  .object({
    email: z.string({ error: "The email field is required." }).trim().email("The email must be a valid email address."),
    code: z.string({ error: "The code field is required." }).regex(/^\d{6}$/, "The code must be 6 digits."),
    password: z
      .string({ error: "The password field is required." })
      .min(8, "The password must be at least 8 characters."),
    password_confirmation: z.string({ error: "Please confirm the password." }),
  })
  .refine((v) => v.password === v.password_confirmation, {
    path: ["password_confirmation"],
    message: "The password confirmation does not match.",
  });

/** /admin/profile: change one's own password. */
export const changePasswordSchema = z
  .object({
    current_password: z.string({ error: "The current password field is required." }),
    password: z
      .string({ error: "The password field is required." })
      .min(8, "The password must be at least 8 characters."),
    password_confirmation: z.string({ error: "Please confirm the password." }),
  })
  .refine((v) => v.password === v.password_confirmation, {
    path: ["password_confirmation"],
    message: "The password confirmation does not match.",
  });
