import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { DRAW_REVEAL_CSS, DrawReveal, markRevealStart } from "~/components/DrawReveal";
import { Guard } from "~/components/Guard";
import { PrizeBreakdown } from "~/components/counter/PrizeBreakdown";
import { counterLinks } from "~/components/counter/styles";
import { prizeLabel } from "~/utils/prize-constants";
import { drawCoupon } from "~/models/registration.server";
import { findRegistration } from "~/models/registration-list.server";
import { requireIntent, requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { notFound, pageFailure } from "~/http/http.server";
import { oops, redirectWithToast, success } from "~/http/toast.server";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "create-registration", intents: { draw: null } } as const satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Coupon Draw" }];
export const links: LinksFunction = () => [...counterLinks(), { rel: "stylesheet", href: DRAW_REVEAL_CSS }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const reg = findRegistration(user.scope, params.slug!);
  if (!reg) throw notFound();
  if (reg.status === "pending") throw redirect(`/admin/registration/${reg.slug}/verify`);
  return {
    reg: {
      slug: reg.slug,
      name: reg.name,
      status: reg.status,
      coupon_code: reg.coupon_code,
      coupon: reg.coupon,
      prizes: reg.prizes,
    },
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { staff: user } = await requireIntent(request, handle, { fallback: "draw" });
  const here = `/admin/registration/${params.slug}/draw`;
  const res = await drawCoupon(user, params.slug!);
  if (!res.ok) {
    if (res.code === "not_found") throw pageFailure(res);
    return redirectWithToast(res.code === "conflict" ? `/admin/registration/${params.slug}` : here, oops(res.message));
  }
  return redirectWithToast(here, success(res.created ? "Coupon drawn." : "The coupon was already drawn."));
}

export default function RegistrationDraw() {
  const { reg } = useLoaderData<typeof loader>();
  const busy = useNavigation().state === "submitting";
  const third = reg.prizes.third;
  return (
    <div className="draw-page">
      <h1>Coupon Draw</h1>
      {reg.status === "confirmed" ? (
        <div className="card">
          <p>
            The purchase of <strong>{reg.name}</strong> is confirmed. Draw the third-thrill coupon now.
          </p>
          {/* The coupon waits for its beacon round inside the reveal's 5 s, counted from this press. */}
          <Form method="post" onSubmit={markRevealStart}>
            <button type="submit" name="intent" value="draw" className="primary" disabled={busy}>
              {busy ? "Drawing…" : "Draw the Coupon"}
            </button>
          </Form>
        </div>
      ) : (
        <>
          <div className="card">
            <DrawReveal
              amount={third}
              total={reg.prizes.total}
              congratulation={
                third
                  ? `Congratulations ${reg.name}! You won a coupon of ${prizeLabel(third)}.`
                  : `Thank you for your purchase, ${reg.name}. No coupon this time.`
              }
              // The breakdown and what to do with the result come with the result, never while the digits roll.
              after={
                <>
                  <section className="detail-block" aria-label="Prize breakdown">
                    <h2>Prize breakdown · coupon {reg.coupon_code}</h2>
                    <PrizeBreakdown prizes={reg.prizes} />
                  </section>
                  <div className="actions">
                    <Link to={`/admin/registration/${reg.slug}`} className="button">
                      View Registration
                    </Link>
                    <Guard permission="create-registration">
                      <Form method="post" action={`/admin/registration/${reg.slug}`}>
                        <button type="submit" name="intent" value="notify">
                          Notify
                        </button>
                      </Form>
                    </Guard>
                    <a
                      href={`/admin/print?slug=${reg.slug}`}
                      className="button primary"
                      target="_blank"
                      rel="noreferrer"
                    >
                      Print Coupon
                    </a>
                  </div>
                </>
              }
            />
          </div>
        </>
      )}
    </div>
  );
}
