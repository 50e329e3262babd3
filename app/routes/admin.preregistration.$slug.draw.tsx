import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { DRAW_REVEAL_CSS, DrawReveal } from "~/components/DrawReveal";
import { Guard } from "~/components/Guard";
import { PrizeBreakdown } from "~/components/counter/PrizeBreakdown";
import { counterLinks } from "~/components/counter/styles";
import { preregistrationNotFound } from "~/http/http.server";
import { findPreregistration } from "~/models/preregistration-admin.server";
import { counterPrizeSummary } from "~/models/preregistration-verify.server";
import { prizeLabel } from "~/utils/prize-constants";
import { requireRouteAccess, type RouteAccess } from "~/http/auth.server";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "read-registration" } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Pre-Registration Draw" }];
export const links: LinksFunction = () => [...counterLinks(), { rel: "stylesheet", href: DRAW_REVEAL_CSS }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  // The draw was fixed at verification and is made once its beacon round comes (seconds); if a
  // race left it unfixed it is fixed now (and audited).
  const drawn = await counterPrizeSummary(user, params.slug!);
  if (!drawn.ok) throw await preregistrationNotFound(drawn);
  const { summary } = drawn;
  if (!summary) throw redirect(`/admin/preregistration/${drawn.preregistration.slug}/verify`);
  const pre = findPreregistration(user.scope, drawn.preregistration.slug);
  if (!pre) throw await preregistrationNotFound();
  return {
    pre: { slug: pre.slug, name: pre.name, registration: pre.registration, purchased: pre.purchased },
    summary,
  };
}

/** What the draw won, what sharing added and the total, so the sentence adds up to the total shown. */
function counterCongratulation(name: string, prize: { amount: number; first: number; total: number }) {
  const won = `Congratulations ${name}! You won ${prizeLabel(prize.amount)} on your new bike in the draw.`;
  if (!prize.first) return won;
  return `${won} Sharing on social media adds ${prizeLabel(prize.first)}, so the total prize is ${prizeLabel(prize.total)}.`;
}

export default function PreregistrationDraw() {
  const { pre, summary } = useLoaderData<typeof loader>();
  return (
    <div className="draw-page">
      <h1>Pre-Registration Draw</h1>
      <div className="card">
        <DrawReveal
          amount={summary.amount}
          total={summary.total}
          congratulation={counterCongratulation(pre.name, summary)}
          // The breakdown and the way on come with the result, never while the digits roll.
          after={
            <>
              <section className="detail-block" aria-label="Prize breakdown">
                <h2>Prize breakdown</h2>
                <PrizeBreakdown
                  prizes={{ first: summary.first, second: summary.amount, third: 0, total: summary.total }}
                  third={false}
                />
              </section>
              <div className="actions">
                <Link to={`/admin/preregistration/${pre.slug}`} className="button">
                  Close
                </Link>
                {pre.registration ? (
                  <Link to={`/admin/registration/${pre.registration.slug}`} className="button primary">
                    View Registration
                  </Link>
                ) : (
                  <Guard permission="create-registration">
                    <Link to={`/admin/registration/create/${pre.slug}`} className="button primary">
                      Proceed with Registration
                    </Link>
                  </Guard>
                )}
              </div>
            </>
          }
        />
      </div>
    </div>
  );
}
