import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { DeleteForm } from "~/components/ConfirmSubmit";
import { WholeNumberField } from "~/components/Field";
import { probabilityText, rupees, typeLabel } from "~/components/scheme/format";
import { SchemeNav } from "~/components/scheme/SchemeNav";
import { schemeLinks } from "~/components/scheme/styles";
import { deleteAllocation, getAllocation, updateAllocationCount } from "~/models/allocation.server";
import { branchOptionsInScope } from "~/models/branch.server";
import { failureStatus } from "~/utils/failure";
import { allocationCountSchema } from "~/schemas/allocation";
import { requireIntent, requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { parseValue } from "~/http/body.server";
import { notFound, pageFailure } from "~/http/http.server";
import { displayDateTime, displayDay } from "~/utils/time";
import { oops, redirectWithToast, success } from "~/http/toast.server";
import { DetailList } from "~/components/DetailList";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = {
  permission: "manage-allocation",
  intents: { count: null, delete: null },
} as const satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Scheme" }];
export const links = schemeLinks;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const row = getAllocation(user.scope, Number(params.id));
  if (!row) throw notFound();
  const { created_by: _by, ...scheme } = row;
  const branch =
    scheme.branch_id === null ? null : branchOptionsInScope(user.scope).find((b) => b.id === scheme.branch_id);
  return { scheme: { ...scheme, remaining: scheme.count - scheme.paid, branch: branch?.title ?? null } };
}

/**
 * intent=count changes the count (never below what was paid); intent=delete deletes a pool that paid nothing.
 * A pool out of the user's reach (another branch's, or gone) is a 404, as for the loader.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const { intent, form, staff: user } = await requireIntent(request, handle);
  const id = Number(params.id);
  const here = `/admin/scheme/${id}`;
  switch (intent) {
    case "count": {
      const parsed = await parseValue({ kind: "form", form }, allocationCountSchema);
      const result = parsed.ok ? updateAllocationCount(user, id, parsed.value) : parsed;
      if (result.ok) return redirectWithToast(here, success("Count saved."));
      if (result.code === "not_found") throw pageFailure(result);
      if (result.code !== "invalid") return redirectWithToast(here, oops(result.message));
      return data({ count: String(form.get("count") ?? ""), errors: result.errors }, { status: failureStatus(result) });
    }
    case "delete": {
      const result = deleteAllocation(user, id);
      if (!result.ok && result.code === "not_found") throw pageFailure(result);
      return result.ok
        ? redirectWithToast("/admin/scheme", success("Scheme deleted."))
        : redirectWithToast(here, oops(result.message));
    }
  }
}

export default function SchemeDetail() {
  const { scheme } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const rows: [string, string | number][] = [
    ["Type", typeLabel(scheme.type)],
    ["Branch", scheme.branch ?? "Public"],
    ["Date", displayDay(scheme.date)],
    ["Amount", rupees(scheme.amount)],
    ["Count", scheme.count],
    ["Probability", probabilityText(scheme.probability)],
    ["Paid", scheme.paid],
    ["Remaining", scheme.remaining],
    ["Created", displayDateTime(scheme.created_at)],
  ];
  return (
    <>
      <div className="scheme-head">
        <h1>Scheme</h1>
        <SchemeNav />
      </div>
      <DetailList rows={rows} />
      <Form method="post" className="card scheme-count" noValidate>
        <WholeNumberField
          label="Count (between 1 and 5)"
          name="count"
          min={Math.max(1, scheme.paid)}
          max={5}
          key={`${scheme.count}-${failed?.count ?? ""}`}
          defaultValue={failed?.count ?? scheme.count}
          errors={failed?.errors.count}
          hint={scheme.paid > 0 ? `Not below the ${scheme.paid} already paid out.` : undefined}
        />
        <button type="submit" name="intent" value="count">
          Save count
        </button>
      </Form>
      <div className="actions">
        <Link to="/admin/scheme" className="button">
          Close
        </Link>
        <Link
          to={`/admin/scheme/draws?pool_type=${scheme.type}${scheme.branch_id ? `&branch_id=${scheme.branch_id}` : ""}&from=${scheme.date}&to=${scheme.date}`}
          className="button"
        >
          Draws of this day
        </Link>
        {scheme.paid === 0 ? (
          <DeleteForm />
        ) : (
          <span className="muted">A scheme that has paid out cannot be deleted.</span>
        )}
      </div>
    </>
  );
}
