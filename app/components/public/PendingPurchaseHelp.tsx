/**
 * What "This citizenship/pan has pending purchase." means for a visitor, and what to do next:
 * shown under that message wherever it reaches one (the form's citizenship field, the verify page).
 */
import { PREREGISTRATION_MESSAGES } from "~/schemas/preregistration";
import { t, type Lang } from "~/utils/i18n";

export function PendingPurchaseHelp({ lang, error }: { lang: Lang; error: string | undefined }) {
  if (error !== PREREGISTRATION_MESSAGES.pendingPurchase) return null;
  return (
    <div className="pending-help">
      <p>{t(lang, "pending.means")}</p>
      <a href="/showrooms" className="button">
        {t(lang, "draw.showrooms")}
      </a>
    </div>
  );
}
