import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { useEffect } from "react";
import { counterLinks } from "~/components/counter/styles";
import { prizeLabel } from "~/utils/prize-constants";
import { failureStatus } from "~/utils/failure";
import { parseRegistrationQuery } from "~/http/list-query.server";
import { printLimit, printSheet, type PrintCoupon } from "~/models/registration-print.server";
import { pageLanguage } from "~/http/language.server";
import { publicChrome } from "~/models/public-chrome.server";
import { requireRouteAccess, type RouteAccess } from "~/http/auth.server";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "read-registration" } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Print Coupons" }];
export const links = counterLinks;

/** Coupons on one A4 page: six registrations, each as a customer copy and a dealer copy. */
const COUPONS_PER_PAGE = 12;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const params = new URL(request.url).searchParams;
  const limit = printLimit(params.get("limit"));
  const logoUrl = publicChrome(pageLanguage(request)).logoUrl;
  const query = parseRegistrationQuery(params);
  if (!query.ok) {
    const none = [] as PrintCoupon[];
    const failed = { coupons: none, pending: none, held: [], total: 0, limit, logoUrl, filterErrors: query.errors };
    return data(failed, { status: failureStatus(query) });
  }
  return { ...printSheet(user.scope, query.filters, limit), logoUrl, filterErrors: null };
}

/** "1 coupon", "12 coupons". */
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function Coupon({ c, copy, logoUrl }: { c: PrintCoupon; copy: "customer" | "dealer"; logoUrl: string | null }) {
  const p = c.prizes;
  return (
    <article
      className={`coupon coupon-${copy}`}
      aria-label={`${copy === "customer" ? "Customer" : "Dealer"} copy ${c.coupon_code}`}
    >
      <header>
        {logoUrl ? <img className="coupon-logo" src={logoUrl} alt="" height={28} /> : null}
        <strong>Thrill Coupon</strong>
        <span className="copy">{copy === "customer" ? "Customer Copy" : "Dealer Copy"}</span>
      </header>
      <p className="code">{c.coupon_code}</p>
      <dl>
        <dt>Name</dt>
        <dd>{c.name}</dd>
        <dt>Phone</dt>
        <dd>{copy === "customer" ? c.phone_masked : c.phone}</dd>
        <dt>Model</dt>
        <dd>{c.model}</dd>
        <dt>Engine</dt>
        <dd>{c.engine_no}</dd>
        <dt>Chassis</dt>
        <dd>{c.chasis_no}</dd>
        <dt>Branch</dt>
        <dd>{c.branch}</dd>
        <dt>Date</dt>
        <dd>
          {c.date}
          {c.date_bs ? ` (${c.date_bs} BS)` : ""} · {c.bill_no}
        </dd>
      </dl>
      <p className="prizes">
        <span>1st {p.first ? prizeLabel(p.first) : "—"}</span>
        <span>2nd {p.second ? prizeLabel(p.second) : "—"}</span>
        <span>3rd {p.third ? prizeLabel(p.third) : "—"}</span>
        <strong>Total {prizeLabel(p.total)}</strong>
      </p>
      <p className="draw-check">
        Draw {c.draw_id}: check it at {c.check_url}
      </p>
      {copy === "dealer" ? <p className="sign">Customer signature ____________________</p> : null}
    </article>
  );
}

export default function PrintSheet() {
  const { coupons, pending, held, total, logoUrl, filterErrors } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const preview = params.get("preview") === "1";
  useEffect(() => {
    if (preview || coupons.length === 0) return;
    const close = () => window.close();
    window.addEventListener("afterprint", close);
    const t = setTimeout(() => window.print(), 300);
    return () => {
      clearTimeout(t);
      window.removeEventListener("afterprint", close);
    };
  }, [preview, coupons.length]);

  // What the sheet read (at most `limit` rows): the coupons and the registrations left out.
  const read = coupons.length + pending.length + held.length;
  const perPage = COUPONS_PER_PAGE / 2;
  const pages: PrintCoupon[][] = [];
  for (let i = 0; i < coupons.length; i += perPage) pages.push(coupons.slice(i, i + perPage));
  return (
    <div className="print-sheet">
      <div className="print-toolbar">
        <h1>Print coupons</h1>
        <strong>
          {plural(coupons.length, "coupon")} to print · {plural(pages.length, "page")}
        </strong>
        <span>
          {plural(total, "registration")} match{total === 1 ? "es" : ""} the filters
          {pending.length ? `; ${pending.length} ${pending.length === 1 ? "is" : "are"} left out, listed below` : ""}.
        </span>
        {total > read ? (
          <span className="notice">
            The sheet holds the newest {read} of them. Narrow the filters to print the rest.
          </span>
        ) : null}
        <span>Use your browser&apos;s Print command (Ctrl+P) and A4 paper.</span>
        <Link to="/admin/registration">Back to registrations</Link>
      </div>
      {pending.length ? (
        <section className="print-pending" aria-label="Left out: coupon not drawn yet">
          <p>
            <strong>
              {pending.length} registration{pending.length === 1 ? " is" : "s are"} left out: the coupon is not drawn
              yet.
            </strong>{" "}
            Draw it first, then print again.
          </p>
          <ul>
            {pending.map((c) => (
              <li key={c.slug}>
                <Link to={`/admin/registration/${c.slug}`}>
                  {c.name} · {c.bill_no}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <HeldPrizes held={held} />
      {filterErrors ? (
        <p className="form-error" role="alert">
          {Object.values(filterErrors)
            .map((m) => m[0])
            .join(" ")}
        </p>
      ) : coupons.length === 0 && pending.length === 0 ? (
        <p className="print-empty">No registrations match these filters.</p>
      ) : null}
      {pages.map((page, i) => (
        <section className="print-page" key={i} aria-label={`Page ${i + 1}`}>
          {page.map((c) => (
            <div className="coupon-pair" key={c.slug}>
              <Coupon c={c} copy="customer" logoUrl={logoUrl} />
              <Coupon c={c} copy="dealer" logoUrl={logoUrl} />
            </div>
          ))}
        </section>
      ))}
    </div>
  );
}

/** Registrations whose prize head office holds (decision 21): left out of the sheet, listed with why. */
function HeldPrizes({ held }: { held: { slug: string; name: string; bill_no: string; hold: "held" | "voided" }[] }) {
  if (!held.length) return null;
  return (
    <section className="print-pending" aria-label="Left out: prize held by head office">
      <p>
        <strong>
          {held.length} registration{held.length === 1 ? " is" : "s are"} left out: head office holds the prize.
        </strong>{" "}
        A prize under review prints once head office clears it; a voided one never prints.
      </p>
      <ul>
        {held.map((c) => (
          <li key={c.slug}>
            <Link to={`/admin/registration/${c.slug}`}>
              {c.name} · {c.bill_no}
            </Link>{" "}
            · {c.hold === "voided" ? "prize voided" : "under review"}
          </li>
        ))}
      </ul>
    </section>
  );
}
