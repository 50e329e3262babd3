/**
 * The details a visitor typed, shown on the verify and draw pages only to the
 * browser that created or proved the entry (app/http/owned-entries.server.ts).
 */
import type { OwnerDetails } from "~/models/preregistration-read.server";
import { EmailText } from "~/components/EmailText";
import { t, type Lang } from "~/utils/i18n";

export function EntryDetails({ lang, details }: { lang: Lang; details: OwnerDetails | null }) {
  if (!details) return null;
  return (
    <section className="entry-details" aria-labelledby="entry-details-title">
      <h2 id="entry-details-title">{t(lang, "entry.title")}</h2>
      <dl>
        <dt>{t(lang, "form.name")}</dt>
        <dd>{details.name}</dd>
        <dt>{t(lang, "form.address")}</dt>
        <dd>{details.address}</dd>
        <dt>{t(lang, "form.citizenship")}</dt>
        <dd>{details.citizenship_no}</dd>
        {details.email ? (
          <>
            <dt>{t(lang, "form.email")}</dt>
            <dd>
              <EmailText email={details.email} />
            </dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}
