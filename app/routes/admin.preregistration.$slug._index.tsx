import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { EmailText } from "~/components/EmailText";
import { label } from "~/utils/labels";
import { DateText } from "~/components/DateText";
import { canSeeCodes } from "~/utils/permissions";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { ConfirmSubmit } from "~/components/ConfirmSubmit";
import { Guard } from "~/components/Guard";
import { Details } from "~/components/counter/Details";
import { amountText, PrizeBreakdown } from "~/components/counter/PrizeBreakdown";
import { ProofViewer } from "~/components/counter/ProofViewer";
import { counterLinks } from "~/components/counter/styles";
import {
  deletePreregistration,
  getPreregistrationDetail,
  PREREGISTRATION_ADMIN_MESSAGES,
  mayRulePreregistration,
  preregistrationActions,
} from "~/models/preregistration-admin.server";
import { preregistrationNotFound } from "~/http/http.server";
import { grantsOfEntry } from "~/models/counter-grant.server";
import { isHeadOffice } from "~/models/scope.server";
import { STATUS_LABELS } from "~/utils/preregistration-status";
import { requireIntent, requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { oops, redirectWithToast, success } from "~/http/toast.server";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = {
  permission: "read-registration",
  intents: { delete: "delete-registration" },
} as const satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Pre-Registration" }];
export const links = counterLinks;

const DELETE_QUESTION = "Are you sure you want to delete this preregistration?";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const pre = getPreregistrationDetail(user.scope, params.slug!, { showCode: canSeeCodes(user) });
  // Spec 000 §2: a load failure redirects to /admin.
  if (!pre) throw await preregistrationNotFound();
  // The branches that opened it at their counter (decision 5); who did it is head office's to read.
  const headOffice = isHeadOffice(user.scope);
  const grants = grantsOfEntry(pre.id).map((g) => ({ ...g, granted_by: headOffice ? g.granted_by : null }));
  return { pre, grants, actions: preregistrationActions(pre, mayRulePreregistration(user.scope, pre.id)) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { staff } = await requireIntent(request, handle);
  const here = `/admin/preregistration/${params.slug}`;
  const res = deletePreregistration(staff, params.slug!);
  if (!res.ok) return redirectWithToast(res.code === "not_found" ? "/admin/preregistration" : here, oops(res.message));
  return redirectWithToast("/admin/preregistration", success(PREREGISTRATION_ADMIN_MESSAGES.deleted));
}

export default function PreregistrationDetail() {
  const { pre, grants, actions } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>
        Pre-Registration <span className={`badge ${pre.status}`}>{STATUS_LABELS[pre.status]}</span>
      </h1>
      <Details
        title="Customer"
        rows={[
          ["Name", pre.name],
          ["Address", pre.address],
          ["Email", <EmailText key="email" email={pre.email} />],
          [
            "Phone",
            <>
              {pre.phone}
              {pre.code ? (
                <span className="otp" title="Latest verification code">
                  Code {pre.code}
                </span>
              ) : null}
            </>,
          ],
          ["Citizenship No/PAN", pre.citizenship_no],
          ["Note", pre.note],
          ["Shared in social media", <ProofViewer key="p" shared={pre.shared} url={pre.screenshot_url} />],
        ]}
      />
      <Details
        title="Pre-Registration"
        rows={[
          ["Reference", pre.ref],
          ["Slug", pre.slug],
          ["Model", pre.bike_model?.title],
          ["Source", label("source", pre.source)],
          ["Branch", pre.branch?.title ?? "Online"],
          ["Nearest Branch", pre.nearest_branch?.title],
          [
            "Found at the counter by",
            grants.length ? (
              <ul className="plain" key="grants">
                {grants.map((g) => (
                  <li key={`${g.branch}-${g.granted_at}`}>
                    {g.branch}, <DateText at={g.granted_at} time />
                    {g.granted_by ? ` (${g.granted_by})` : null}
                  </li>
                ))}
              </ul>
            ) : null,
          ],
          ["City", pre.city],
          ["Status", STATUS_LABELS[pre.status]],
          ["Prize won", amountText(pre.prize)],
          ["Send SMS", pre.send_sms ? "Yes" : "No"],
          ["Registered", <DateText key="at" at={pre.created_at} time />],
        ]}
      />
      {pre.is_verified ? (
        <section className="detail-block" aria-label="Prize breakdown">
          <h2>Prize breakdown</h2>
          <PrizeBreakdown
            prizes={{ first: pre.first_prize, second: pre.prize ?? 0, third: 0, total: pre.total_prize }}
            third={false}
          />
        </section>
      ) : null}
      <div className="actions">
        <Link to="/admin/preregistration" className="button">
          Close
        </Link>
        {actions.edit ? (
          <Guard permission="update-registration">
            <Link to={`/admin/preregistration/${pre.slug}/edit`} className="button">
              Edit
            </Link>
          </Guard>
        ) : null}
        {actions.viewRegistration && pre.registration ? (
          <Link to={`/admin/registration/${pre.registration.slug}`} className="button primary">
            View Registration
          </Link>
        ) : null}
        {actions.verify ? (
          <Link to={`/admin/preregistration/${pre.slug}/verify`} className="button primary">
            Proceed with Verification
          </Link>
        ) : null}
        {actions.register ? (
          <Guard permission="create-registration">
            <Link to={`/admin/registration/create/${pre.slug}`} className="button primary">
              Proceed with Registration
            </Link>
          </Guard>
        ) : null}
        {actions.delete ? (
          <Guard permission="delete-registration">
            <Form method="post">
              <ConfirmSubmit name="intent" value="delete" className="danger" message={DELETE_QUESTION}>
                Delete
              </ConfirmSubmit>
            </Form>
          </Guard>
        ) : null}
      </div>
    </>
  );
}
