/** Client-safe twins of server constants (a test checks they agree with app/utils/captcha.server.ts). */
export const HONEYPOT_FIELD_NAME = "website";
export const CAPTCHA_FIELD_NAME = "g-recaptcha-response";
