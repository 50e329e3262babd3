/**
 * The verify page's line about the code's SMS (decision 8): "We have sent…" while it is queued or
 * sent, "taking longer than usual" while the gateway is being retried, and, once it has failed,
 * that the code could not be sent and Resend code gets a new one. Plain markup, no script.
 */
import type { CodeSms } from "~/models/preregistration-read.server";
import { t, type Lang } from "~/utils/i18n";

export function CodeSmsNotice({
  lang,
  phone,
  codeSms,
  changed,
}: {
  lang: Lang;
  phone: string;
  codeSms: CodeSms | null;
  /**
   * The number was just changed and no code went to it yet (the last SMS was the old number's):
   * its code comes with Resend code.
   */
  changed: boolean;
}) {
  if (changed) {
    return (
      <p className="banner banner-ok" role="status">
        {t(lang, "verify.changed", { phone })}
      </p>
    );
  }
  if (codeSms === "failed") {
    return (
      <p className="banner banner-error" role="alert" data-code-sms="failed">
        {t(lang, "verify.notSent", { phone })}
      </p>
    );
  }
  if (codeSms === "retrying") {
    return (
      <p role="status" data-code-sms="retrying">
        {t(lang, "verify.slow", { phone })}
      </p>
    );
  }
  return <p>{t(lang, "verify.sent", { phone })}</p>;
}
