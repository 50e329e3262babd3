/** Client-safe twin of the honeypot field of app/http/captcha.server.ts (a test checks they agree). */
export const HONEYPOT_FIELD_NAME = "website";
