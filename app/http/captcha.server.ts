/**
 * Abuse checks for public forms: Google reCAPTCHA (g-recaptcha-response) when a
 * site key and secret are configured, and a hidden honeypot field otherwise.
 */
import { config } from "~/utils/config.server";

/** The form field the reCAPTCHA widget posts. */
export const CAPTCHA_FIELD = "g-recaptcha-response";
export const CAPTCHA_MESSAGE = "Please verify that you are not a robot.";
export const CAPTCHA_UNAVAILABLE_MESSAGE = "The captcha could not be checked. Please try again.";
export const CAPTCHA_TIMEOUT_MS = 10_000;

export type CaptchaResult = { ok: boolean; errorCodes: string[]; message?: string };

/** On when both the site key and the secret are set. */
export function captchaEnabled(): boolean {
  return Boolean(config.recaptchaSiteKey() && config.recaptchaSecret());
}

export const CAPTCHA_OFF_WARNING =
  "[captcha] RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET are not set: the public forms rely on the honeypot and rate limits alone, and a bot can make the campaign send code SMS up to CODE_SMS_PER_HOUR. Set both keys for the campaign.";

/** The start-up warning of a production server without captcha keys (null when there is nothing to say). */
export function captchaStartupWarning(production = process.env.NODE_ENV === "production"): string | null {
  return production && !captchaEnabled() ? CAPTCHA_OFF_WARNING : null;
}

/**
 * Checks a widget token with the verify URL (form-encoded secret, response,
 * remoteip). With the captcha off, every token passes (the honeypot and rate
 * limits guard the form instead).
 */
export async function verifyCaptcha(
  token: FormDataEntryValue | string | null | undefined,
  remoteip?: string | null,
): Promise<CaptchaResult> {
  if (!captchaEnabled()) return { ok: true, errorCodes: [] };
  const response = typeof token === "string" ? token.trim() : "";
  if (!response) return { ok: false, errorCodes: ["missing-input-response"], message: CAPTCHA_MESSAGE };

  const body = new URLSearchParams({ secret: config.recaptchaSecret(), response });
  if (remoteip) body.set("remoteip", remoteip);
  let answer: { success?: unknown; "error-codes"?: unknown };
  try {
    const res = await fetch(config.recaptchaVerifyUrl(), {
      method: "POST",
      body,
      signal: AbortSignal.timeout(CAPTCHA_TIMEOUT_MS),
    });
    if (!res.ok) return { ok: false, errorCodes: [`http-${res.status}`], message: CAPTCHA_UNAVAILABLE_MESSAGE };
    answer = (await res.json()) as typeof answer;
  } catch (error) {
    const name = (error as Error)?.name;
    const code = name === "SyntaxError" ? "bad-response" : name === "TimeoutError" ? "timeout" : "network-error";
    return { ok: false, errorCodes: [code], message: CAPTCHA_UNAVAILABLE_MESSAGE };
  }
  const errorCodes = Array.isArray(answer?.["error-codes"]) ? answer["error-codes"].map(String) : [];
  if (answer?.success === true) return { ok: true, errorCodes };
  return { ok: false, errorCodes, message: CAPTCHA_MESSAGE };
}

/** The hidden field people leave empty and form-filling robots do not. */
export const HONEYPOT_FIELD = "website";

export function honeypotTripped(form: FormData | URLSearchParams): boolean {
  const value = form.get(HONEYPOT_FIELD);
  if (value == null) return false;
  return typeof value === "string" ? value.trim() !== "" : true;
}

/** The reCAPTCHA site key when the captcha is configured (site key and secret), else null. */
export function captchaSiteKey(): string | null {
  return captchaEnabled() ? config.recaptchaSiteKey() : null;
}
