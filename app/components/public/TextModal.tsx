/** Scheme details, terms and conditions, privacy policy: a settings text (sanitised HTML) in a modal page. */
import { t, type TextKey } from "~/utils/i18n";
import type { Chrome } from "~/models/public-chrome.server";
import { ModalPage } from "./PublicShell";

export function TextModal({ chrome, titleKey, html }: { chrome: Chrome; titleKey: TextKey; html: string }) {
  return (
    <ModalPage chrome={chrome} title={t(chrome.lang, titleKey)} size="wide">
      {html ? (
        <div className="rich" dangerouslySetInnerHTML={{ __html: html }} />
      ) : (
        <p>{t(chrome.lang, "common.notAvailable")}</p>
      )}
    </ModalPage>
  );
}
