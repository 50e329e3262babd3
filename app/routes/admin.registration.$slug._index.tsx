import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { EmailText } from "~/components/EmailText";
import { label } from "~/utils/labels";
import { DateText } from "~/components/DateText";
import { canSeeCodes } from "~/utils/permissions";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { DeleteForm } from "~/components/ConfirmSubmit";
import { Guard } from "~/components/Guard";
import { Details } from "~/components/counter/Details";
import { amountText, PrizeBreakdown } from "~/components/counter/PrizeBreakdown";
import { ProofViewer } from "~/components/counter/ProofViewer";
import { counterLinks } from "~/components/counter/styles";
import { deleteRegistration, notifyRegistration, restoreRegistration } from "~/models/registration.server";
import { referrerText } from "~/models/labels";
import { shareLinkOf } from "~/models/referrer.server";
import { getRegistrationDetail } from "~/models/registration-list.server";
import { PAYMENT_MODE_LABELS } from "~/schemas/registration";
import { requireIntent, requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { notFound } from "~/http/http.server";
import { oops, redirectWithToast, success } from "~/http/toast.server";

/** The permission this route needs, checked by every loader and action of the module, and its action's intents. */
export const handle = {
  permission: "read-registration",
  intents: { delete: "delete-registration", restore: "delete-registration", notify: "create-registration" },
} as const satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Registration" }];
export const links = counterLinks;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const reg = getRegistrationDetail(user.scope, params.slug!, { showCode: canSeeCodes(user) });
  if (!reg) throw notFound();
  return { reg, shareLink: reg.deleted_at ? null : shareLinkOf(reg.id) };
}

/** The intents of `handle`; a refusal by the model comes back as a toast. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { intent, staff } = await requireIntent(request, handle);
  const slug = params.slug!;
  const here = `/admin/registration/${slug}`;
  switch (intent) {
    case "delete": {
      const res = deleteRegistration(staff, slug);
      if (!res.ok) return redirectWithToast(here, oops(res.message));
      return redirectWithToast("/admin/registration", success("Registration deleted."));
    }
    case "restore": {
      const res = restoreRegistration(staff, slug);
      return redirectWithToast(here, res.ok ? success("Registration restored.") : oops(res.message));
    }
    case "notify": {
      const res = notifyRegistration(staff, slug);
      return redirectWithToast(
        here,
        res.ok ? success("The prize summary is on its way to the customer by SMS.") : oops(res.message),
      );
    }
  }
}

export default function RegistrationDetail() {
  const { reg, shareLink } = useLoaderData<typeof loader>();
  const deleted = Boolean(reg.deleted_at);
  const pre = reg.preregistration;
  return (
    <>
      <h1>
        Registration{" "}
        {deleted ? (
          <span className="badge danger">Deleted</span>
        ) : (
          <span className={`badge ${reg.status}`}>{label("registration_status", reg.status)}</span>
        )}
      </h1>
      <Details
        title="Customer"
        rows={[
          ["Name", reg.name],
          ["Address", reg.address],
          ["Email", <EmailText key="email" email={reg.email} />],
          [
            "Phone",
            <>
              {reg.phone}
              {reg.code ? (
                <span className="otp" title="Latest purchase code">
                  Code {reg.code}
                </span>
              ) : null}
            </>,
          ],
          ["Citizenship No", reg.citizenship_no],
          ["PAN", reg.pan],
          ["Note", reg.note],
          ["Shared in social media", <ProofViewer key="p" shared={pre.shared} url={pre.screenshot_url} />],
          ["Total prize won", amountText(reg.prizes.total)],
        ]}
      />
      <Details
        title="Pre-Registration"
        rows={[
          ["Branch", pre.branch?.title ?? "Online"],
          ["Prize won", amountText(pre.prize)],
          ["Pre-registered", <DateText key="pre" at={pre.created_at} time />],
          [
            "Details",
            <Link key="l" to={`/admin/preregistration/${pre.slug}`}>
              View Pre-Registration
            </Link>,
          ],
        ]}
      />
      <Details
        title="Registration"
        rows={[
          ["Slug No", reg.slug],
          ["Bill/Chalan No", reg.bill_no],
          ["Branch", reg.branch.title],
          [
            "Model",
            <span key="m" className="model-with-thumb">
              {reg.thumbnail ? <img src={reg.thumbnail} alt="" width={96} height={60} loading="lazy" /> : null}
              {reg.bike_model.title}
            </span>,
          ],
          ["Engine No", reg.engine_no],
          ["Chassis No", reg.chasis_no],
          ["Vehicle Registration No", reg.registration_no],
          ["Date of Purchase", <DateText key="purchase" day={reg.purchase_date} />],
          ["Payment Mode", PAYMENT_MODE_LABELS[reg.payment_mode]],
          ["Referred by", referrerText(reg)],
          [
            "Share link",
            shareLink ? (
              <a key="s" href={shareLink} style={{ wordBreak: "break-all" }} target="_blank" rel="noreferrer">
                {shareLink}
              </a>
            ) : null,
          ],
          ["Coupon Code", <code key="c">{reg.coupon_code}</code>],
          ["Status", label("registration_status", reg.status)],
        ]}
      />
      <section className="detail-block" aria-label="Prize breakdown">
        <h2>Prize breakdown</h2>
        <PrizeBreakdown prizes={reg.prizes} />
      </section>
      <div className="actions">
        <Link to="/admin/registration" className="button">
          Close
        </Link>
        {!deleted ? (
          <>
            <Guard permission="update-registration">
              <Link to={`/admin/registration/${reg.slug}/edit`} className="button">
                Edit
              </Link>
            </Guard>
            {reg.status === "pending" ? (
              <Link to={`/admin/registration/${reg.slug}/verify`} className="button primary">
                Confirm with Code
              </Link>
            ) : null}
            {reg.status === "confirmed" ? (
              <Guard permission="create-registration">
                <Link to={`/admin/registration/${reg.slug}/draw`} className="button primary">
                  Draw Coupon
                </Link>
              </Guard>
            ) : null}
            {reg.status === "drawn" ? (
              <Guard permission="create-registration">
                <Form method="post">
                  <button type="submit" name="intent" value="notify">
                    Notify
                  </button>
                </Form>
              </Guard>
            ) : null}
            <a href={`/admin/print?slug=${reg.slug}`} className="button" target="_blank" rel="noreferrer">
              Print
            </a>
            <Guard permission="delete-registration">
              <DeleteForm />
            </Guard>
          </>
        ) : (
          <Guard permission="delete-registration">
            <Form method="post">
              <button type="submit" name="intent" value="restore" className="primary">
                Restore
              </button>
            </Form>
          </Guard>
        )}
      </div>
    </>
  );
}
