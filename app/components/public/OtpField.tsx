/**
 * The public code step's field and buttons (the verify page and "continue your pre-registration"):
 * the code input, its error element (always there: the verify script shows "OTP is required" in it
 * at once), what follows the error, then the step's button, Resend code and its wait line.
 */
import { getInputProps, type FieldMetadata } from "@conform-to/react";
import type { ReactNode } from "react";
import { OTP_MESSAGES } from "~/schemas/preregistration";
import { DIGITS, t, tm, type Lang } from "~/utils/i18n";

export function OtpField({
  lang,
  field,
  error,
  describedBy,
  children,
}: {
  lang: Lang;
  field: FieldMetadata<string>;
  /** The code's error, translated ("" for none). */
  error: string;
  /** Further ids that describe the input (the tries left). */
  describedBy?: string;
  children?: ReactNode;
}) {
  return (
    <div className={`field${error ? " invalid" : ""}`}>
      <label htmlFor="f-code">{t(lang, "verify.code")}</label>
      <input
        {...getInputProps(field, { type: "text" })}
        id="f-code"
        className="verify-code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        aria-describedby={describedBy ? `e-code ${describedBy}` : "e-code"}
      />
      <p
        className="field-error"
        id="e-code"
        role="alert"
        data-code-error=""
        data-required={tm(lang, OTP_MESSAGES.required)}
        hidden={!error}
      >
        {error}
      </p>
      {children}
    </div>
  );
}

/**
 * The step's button and Resend code. While a new code cannot be asked for yet, the line under them says how
 * long to wait, from the first render, in the words the server's refusal uses; the verify script counts it
 * down (and turns Resend code on again). Without the script it says the wait as it was when the page came.
 */
export function OtpButtons({
  lang,
  submitLabel,
  resendAt,
  resendIn,
  hideWait = false,
}: {
  lang: Lang;
  submitLabel: string;
  resendAt: string;
  /** Seconds until Resend code can be used, as the answer was made. */
  resendIn: number;
  /** The page already says what stops a new code (a refusal at its top). */
  hideWait?: boolean;
}) {
  const waiting = !hideWait && resendIn > 0;
  return (
    <>
      <div className="actions">
        <button type="submit" name="intent" value="verify" className="primary">
          {submitLabel}
        </button>
        <button type="submit" name="intent" value="resend" data-resend-at={resendAt}>
          {t(lang, "verify.resend")}
        </button>
      </div>
      <p
        className="muted"
        data-wait=""
        data-template={t(lang, "verify.resendWait")}
        data-digit-set={lang === "en" ? undefined : DIGITS[lang]}
        hidden={!waiting}
      >
        {waiting ? t(lang, "verify.resendWait", { seconds: resendIn }) : null}
      </p>
    </>
  );
}
