/** The frame of every public page: logo, language switch, content, footer links, and the common script. */
import type { ReactNode } from "react";
import type { Chrome } from "~/models/public-chrome.server";
import { t, type Lang } from "~/utils/i18n";
import { useNonce } from "~/utils/nonce";
import { COMMON_SCRIPT, type PublicScript } from "./scripts";

/** A page script: a built one (./scripts) or inline code (such as DRAW_REVEAL_SCRIPT). */
export type PageScript = PublicScript | string;

/**
 * One page script, inline, carrying the request's Content-Security-Policy nonce (no
 * request, no bundle: docs/decisions/0010-public-scripts-and-csp.md).
 */
export function PageScriptTag({ script }: { script: PageScript }) {
  const nonce = useNonce();
  const code = typeof script === "string" ? script : script.code;
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: code }} />;
}

export function LanguageSwitch({ lang, path }: { lang: Lang; path: string }) {
  const href = (to: Lang) => `/language?${new URLSearchParams({ lang: to, redirectTo: path })}`;
  return (
    <nav className="lang-switch" aria-label={t(lang, "lang.label")}>
      <a href={href("en")} hrefLang="en" lang="en" aria-current={lang === "en" ? "true" : undefined}>
        English
      </a>
      <a href={href("ne")} hrefLang="ne" lang="ne" aria-current={lang === "ne" ? "true" : undefined}>
        नेपाली
      </a>
    </nav>
  );
}

export function Logo({ chrome }: { chrome: Chrome }) {
  return (
    <a href="/" className="pub-logo">
      {chrome.logoUrl ? (
        <img
          src={chrome.logoUrl}
          alt={t(chrome.lang, "site.brand")}
          width={chrome.logoSize?.width}
          height={chrome.logoSize?.height ?? 36}
        />
      ) : (
        <span className="text-mark">{t(chrome.lang, "site.brand")}</span>
      )}
    </a>
  );
}

export function PublicFooter({ chrome }: { chrome: Chrome }) {
  const { lang } = chrome;
  return (
    <footer className="pub-foot">
      <nav aria-label={t(lang, "common.followUs")} className="social">
        {chrome.social.map((s) => (
          <a key={s.url} href={s.url} target="_blank" rel="noopener noreferrer">
            {s.label}
          </a>
        ))}
      </nav>
      <p>
        <a href="/privacy-policy" data-modal="">
          {t(lang, "nav.privacy")}
        </a>
      </p>
    </footer>
  );
}

export function PublicShell({
  chrome,
  children,
  className = "",
  scripts = [],
}: {
  chrome: Chrome;
  children: ReactNode;
  className?: string;
  /** Page scripts, run after the common one. */
  scripts?: PageScript[];
}) {
  return (
    <div className={`pub ${className}`} lang={chrome.lang}>
      <header className="pub-head">
        <Logo chrome={chrome} />
        <LanguageSwitch lang={chrome.lang} path={chrome.path} />
      </header>
      <main className="pub-main">{children}</main>
      <PublicFooter chrome={chrome} />
      <PageScriptTag script={COMMON_SCRIPT} />
      {scripts.map((script, i) => (
        <PageScriptTag key={i} script={script} />
      ))}
    </div>
  );
}

/** The way out of a modal page: home, or the dialog closed when the page opened as one (`data-close`). */
export function CloseLink({ className = "button", children }: { className?: string; children: ReactNode }) {
  return (
    <a href="/" className={className} data-close="">
      {children}
    </a>
  );
}

/**
 * A public "modal" as a page of its own: rendered by the server at its URL, with
 * a Close link home. On the landing page a[data-modal] links open the same
 * .modal element in a <dialog> (COMMON_SCRIPT).
 */
export function ModalPage({
  chrome,
  title,
  children,
  closeHref = "/",
  size = "",
  scripts = [],
  label,
}: {
  chrome: Chrome;
  title: ReactNode;
  children: ReactNode;
  closeHref?: string;
  size?: "" | "wide";
  /** Page scripts, inside the .modal element: they run again when the page opens in a dialog. */
  scripts?: PageScript[];
  /** Accessible name when the title is not plain text. */
  label?: string;
}) {
  return (
    <PublicShell chrome={chrome} className="pub-modal-page">
      <section
        className={`modal ${size}`}
        role="dialog"
        aria-labelledby={label ? undefined : "modal-title"}
        aria-label={label}
      >
        <header className="modal-head">
          <h1 id="modal-title">{title}</h1>
          <a href={closeHref} className="modal-x" data-close="" aria-label={t(chrome.lang, "common.close")}>
            ×
          </a>
        </header>
        <div className="modal-body">{children}</div>
        {scripts.map((script, i) => (
          <PageScriptTag key={i} script={script} />
        ))}
      </section>
    </PublicShell>
  );
}
