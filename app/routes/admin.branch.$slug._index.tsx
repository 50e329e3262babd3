import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { ConfirmSubmit, DeleteForm } from "~/components/ConfirmSubmit";
import { Guard, useStaff } from "~/components/Guard";
import { catalogueLinks } from "~/components/catalogue/styles";
import {
  BRANCH_ERRORS,
  closeBranch,
  deleteBranch,
  getBranch,
  reopenBranch,
  type BranchDetail,
} from "~/models/branch.server";
import { failureStatus } from "~/utils/failure";
import { requireIntent, requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { notFound, pageFailure } from "~/http/http.server";
import { displayDateTime } from "~/utils/time";
import { redirectWithToast, success } from "~/http/toast.server";
import { DetailList, type DetailRow } from "~/components/DetailList";

export { AdminErrorBoundary as ErrorBoundary } from "~/components/AdminErrorBoundary";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = {
  permission: "read-branch",
  intents: { delete: "update-branch", close: "update-branch", reopen: "update-branch" },
} as const satisfies RouteAccess;

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.branch.title ?? "Branch" }];
export const links = catalogueLinks;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const branch = getBranch(user.scope, params.slug ?? "");
  if (!branch) throw notFound(BRANCH_ERRORS.notFound);
  return { branch };
}

/**
 * intent=delete (a branch nothing names), close, reopen: update-branch and
 * head office. A refusal (in use, already closed) shows on the page with what
 * to do; success goes to the list (delete) or back here with a toast.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const { intent, staff: user } = await requireIntent(request, handle);
  const slug = params.slug ?? "";
  const here = `/admin/branch/${slug}`;
  const act = { delete: deleteBranch, close: closeBranch, reopen: reopenBranch }[intent];
  const result = act(user, slug);
  if (!result.ok) {
    if (result.code === "not_found") throw pageFailure(result);
    return data({ refused: { intent: String(intent), message: result.message } }, { status: failureStatus(result) });
  }
  if (intent === "delete")
    return redirectWithToast("/admin/branch", success(`Branch "${result.branch.title}" deleted.`));
  return redirectWithToast(
    here,
    success(
      intent === "close"
        ? "Branch closed. It no longer shows on the public site or in the forms."
        : "Branch reopened. It shows on the public site again.",
    ),
  );
}

function Numbers({ list }: { list: BranchDetail["phones"] }) {
  if (!list.length) return <>—</>;
  return (
    <ul className="phone-list">
      {list.map((p) => (
        <li key={p.label}>
          <a href={p.href}>{p.label}</a>
        </li>
      ))}
    </ul>
  );
}

const USAGE: [keyof BranchDetail["usage"], string][] = [
  ["users", "Users"],
  ["preregistrations", "Pre-registrations"],
  ["registrations", "Registrations"],
  ["test_rides", "Test rides"],
  ["allocations", "Schemes"],
];

export default function BranchDetailPage() {
  const { branch } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const staff = useStaff();
  const headOffice = staff?.branch_id === null;
  const closed = Boolean(branch.closed_at);
  const rows: [string, ReactNode][] = [
    ["Name", branch.title],
    ["State", branch.state],
    ["District", branch.district],
    ["City", branch.city],
    ["Location", branch.location || "—"],
    ["Email", branch.email ? <a href={`mailto:${branch.email}`}>{branch.email}</a> : "—"],
    ["Phone", <Numbers key="phone" list={branch.phones} />],
    ["Mobile", <Numbers key="mobile" list={branch.mobiles} />],
    ["One Lakh Allocation", branch.one_lakh_allocation_count],
    ["Ten Lakhs Allocation", branch.ten_lakhs_allocation_count],
    ["Total Sales", branch.registrations_count],
    ["Status", closed ? `Closed on ${displayDateTime(branch.closed_at!)}` : "Open"],
  ];
  return (
    <>
      <h1>
        {branch.title}
        {closed ? <span className="badge closed">Closed</span> : null}
      </h1>
      {reply?.refused ? (
        <div className="notice error" role="alert">
          <p>{reply.refused.message}</p>
          {reply.refused.intent === "delete" && !closed && headOffice ? (
            <Form method="post">
              <button type="submit" name="intent" value="close">
                Close this branch
              </button>
            </Form>
          ) : null}
        </div>
      ) : null}
      <DetailList rows={rows} />
      <section className="detail-section" aria-labelledby="usage-title">
        <h2 id="usage-title">Records at this branch</h2>
        <DetailList rows={USAGE.map(([k, label]): DetailRow => [label, branch.usage[k]])} />
        {!branch.deletable ? (
          <p className="muted">
            A branch with records cannot be deleted; close it instead. A closed branch leaves the public showrooms, the
            book-a-ride form and the pre-registration form at once, and its records keep its name.
          </p>
        ) : null}
      </section>
      <div className="actions">
        <Link to="/admin/branch" className="button">
          Back
        </Link>
        <Guard permission="update-branch">
          <Link to={`/admin/branch/${branch.slug}/edit`} className="button primary">
            Edit
          </Link>
          {headOffice ? (
            <>
              {closed ? (
                <Form method="post">
                  <button type="submit" name="intent" value="reopen">
                    Reopen branch
                  </button>
                </Form>
              ) : (
                <Form method="post">
                  <ConfirmSubmit
                    name="intent"
                    value="close"
                    message="Close this branch? It leaves the public site and the forms at once."
                    confirmLabel="Yes, close it"
                  >
                    Close branch
                  </ConfirmSubmit>
                </Form>
              )}
              <DeleteForm />
            </>
          ) : null}
        </Guard>
      </div>
    </>
  );
}
