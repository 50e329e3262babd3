/**
 * The error page in the site's chrome: refusals (403 cross-site, 413, 415, 429 …) say why,
 * a missing page says so, an unexpected error is "Oops!" and never a stack trace. A page of
 * the back office (or a refusal of one) keeps the back-office frame; anything else the
 * public frame (logo, language switch, footer) with its stylesheet.
 */
import publicCss from "~/styles/public.css?url";
import { t, type Lang } from "~/utils/i18n";
import { PublicShell } from "./public/PublicShell";

export type ErrorPageProps = {
  status: number;
  /** The refusal's reason, as the server gave it (4xx only). */
  reason: string | null;
  /** The address the visitor asked for (for a refusal rewritten by server.js: the refused one). */
  path: string;
  lang: Lang;
  /** The public frame's logo (root data), when one is set. */
  logoUrl?: string | null;
};

const BACK_OFFICE = /^\/(admin|login|reset-password)(\/|$)/;

export const isBackOfficePath = (path: string) => BACK_OFFICE.test(path);

export function errorText(status: number, reason: string | null): { title: string; message: string } {
  if (status === 404)
    return { title: "Page not found", message: "The page you asked for does not exist or has moved." };
  const title =
    status === 403
      ? "Not allowed"
      : status === 413
        ? "Too large"
        : status === 429
          ? "Too many attempts"
          : status < 500
            ? "Request refused"
            : "Oops!";
  const message =
    reason ??
    (status === 403
      ? "You are not allowed to do that."
      : status < 500
        ? "This request could not be accepted."
        : "Something went wrong on our side. Please try again in a moment.");
  return { title, message };
}

export function ErrorPage({ status, reason, path, lang, logoUrl = null }: ErrorPageProps) {
  const backOffice = isBackOfficePath(path);
  const { title, message } =
    status === 404 && !backOffice
      ? { title: t(lang, "error.notFound"), message: t(lang, "error.notFoundText") }
      : errorText(status, reason);
  const body = (
    <section className="error-page" role="alert" aria-labelledby="error-title" data-status={status}>
      <h1 id="error-title">{title}</h1>
      <p>{message}</p>
      <p>
        <a href={backOffice ? "/admin" : "/"}>{backOffice ? "Go to the back office" : t(lang, "error.home")}</a>
      </p>
    </section>
  );
  if (backOffice) {
    return (
      <div className="admin">
        <aside className="sidebar">
          <a href="/admin" className="brand">
            Thrill Back Office
          </a>
        </aside>
        <div className="admin-main">
          <main className="admin-content">{body}</main>
        </div>
      </div>
    );
  }
  const chrome = { lang, path, logoUrl, social: [], website: "/", registrationOpen: true };
  return (
    <>
      <link rel="stylesheet" href={publicCss} />
      <PublicShell chrome={chrome}>{body}</PublicShell>
    </>
  );
}
