import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { BranchForm } from "~/components/catalogue/BranchForm";
import { catalogueLinks } from "~/components/catalogue/styles";
import { branchCities, createBranch } from "~/models/branch.server";
import { branchSchema } from "~/schemas/branch";
import { requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { parseValue, readForm } from "~/http/body.server";
import { replyFailure } from "~/http/http.server";
import { redirectWithToast, success } from "~/http/toast.server";

export { AdminErrorBoundary as ErrorBoundary } from "~/components/AdminErrorBoundary";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "create-branch" } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Dealer Registration" }];
export const links = catalogueLinks;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRouteAccess(request, handle);
  return { cities: branchCities() };
}

/** Creates the branch and opens it; or the form again with the server's errors under the fields. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const form = await readForm(request);
  const parsed = await parseValue({ kind: "form", form }, branchSchema);
  const result = parsed.ok ? createBranch(user, parsed.value) : parsed;
  if (!result.ok) return replyFailure(form, result);
  return redirectWithToast(
    `/admin/branch/${result.branch.slug}`,
    success(`Branch "${result.branch.title}" created. It shows on the public site now.`),
  );
}

const EMPTY = { one_lakh_allocation_count: "0", ten_lakhs_allocation_count: "0" };

export default function CreateBranch() {
  const { cities } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <>
      <h1>Dealer Registration</h1>
      <BranchForm id="branch-create" defaults={EMPTY} cities={cities} reply={reply} cancelTo="/admin/branch" />
    </>
  );
}
