import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { BranchForm } from "~/components/catalogue/BranchForm";
import { catalogueLinks } from "~/components/catalogue/styles";
import { BRANCH_ERRORS, branchCities, getBranch, updateBranch } from "~/models/branch.server";
import { branchSchema } from "~/schemas/branch";
import { requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { parseValue, readForm } from "~/http/body.server";
import { notFound, pageFailure, replyFailure } from "~/http/http.server";
import { redirectWithToast, success } from "~/http/toast.server";

export { AdminErrorBoundary as ErrorBoundary } from "~/components/AdminErrorBoundary";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "update-branch" } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Dealer Registration" }];
export const links = catalogueLinks;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const branch = getBranch(user.scope, params.slug ?? "");
  if (!branch) throw notFound(BRANCH_ERRORS.notFound);
  const defaults = {
    title: branch.title,
    state: branch.state,
    district: branch.district,
    city: branch.city,
    location: branch.location ?? "",
    email: branch.email ?? "",
    phone: branch.phone ?? "",
    mobile: branch.mobile ?? "",
    one_lakh_allocation_count: String(branch.one_lakh_allocation_count),
    ten_lakhs_allocation_count: String(branch.ten_lakhs_allocation_count),
  };
  return { branch: { slug: branch.slug, title: branch.title }, defaults, cities: branchCities() };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const form = await readForm(request);
  const parsed = await parseValue({ kind: "form", form }, branchSchema);
  const result = parsed.ok ? updateBranch(user, params.slug ?? "", parsed.value) : parsed;
  if (!result.ok) {
    if (result.code === "not_found") throw pageFailure(result);
    return replyFailure(form, result);
  }
  return redirectWithToast(`/admin/branch/${result.branch.slug}`, success("Branch updated."));
}

export default function EditBranch() {
  const { branch, defaults, cities } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <>
      <h1>Dealer Registration</h1>
      <p className="muted">Editing {branch.title}</p>
      <BranchForm
        id="branch-edit"
        defaults={defaults}
        cities={cities}
        reply={reply}
        cancelTo={`/admin/branch/${branch.slug}`}
      />
    </>
  );
}
