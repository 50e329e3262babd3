import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { PreregistrationFields, type PreregValues } from "~/components/counter/PreregistrationFields";
import { newFormToken } from "~/components/counter/reply.server";
import { counterLinks } from "~/components/counter/styles";
import { listBikeModels } from "~/models/bike-model.server";
import { findActiveBranch, listBranchOptions } from "~/models/branch.server";
import { createPreregistration, reviewPreregistration } from "~/models/preregistration.server";
import { requireRouteAccess, type RouteAccess } from "~/utils/auth.server";
import { redirectWithToast, success } from "~/utils/toast.server";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "create-registration" } satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "New Pre-Registration" }];
export const links = counterLinks;

const BRANCH_REQUIRED = "Choose the branch this pre-registration belongs to.";

/** The form fields carried from the confirmation step back to the form or on to the save. */
const CARRIED = [
  "name",
  "address",
  "email",
  "phone",
  "citizenship_no",
  "shared",
  "bike_model_id",
  "source",
  "note",
  "send_sms",
  "branch_id",
  "form_token",
  "screenshot_ref",
] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const headOffice = user.scope.branchId === null;
  return {
    bikeModels: listBikeModels().map((m) => ({ id: m.id, title: m.title })),
    branches: headOffice ? listBranchOptions() : null,
    branchTitle: user.branch?.title ?? null,
    formToken: newFormToken(24),
  };
}

type ActionData = {
  step: "form" | "confirm";
  values: PreregValues;
  errors: Record<string, string[]>;
};

function valuesOf(form: FormData): PreregValues {
  const values: PreregValues = {};
  for (const key of CARRIED) {
    const all = form.getAll(key).filter((v): v is string => typeof v === "string");
    if (all.length) values[key] = all[all.length - 1];
  }
  return values;
}

export async function action({ request }: ActionFunctionArgs): Promise<ActionData | Response> {
  const user = await requireRouteAccess(request, handle);
  const form = await request.formData();
  const intent = form.get("intent");
  const values = valuesOf(form);
  if (intent === "edit") return { step: "form", values, errors: {} };

  let branchId = user.scope.branchId;
  if (branchId === null) {
    const chosen = Number(form.get("branch_id"));
    branchId = Number.isInteger(chosen) && chosen > 0 && findActiveBranch(chosen) ? chosen : null;
    if (branchId === null) return { step: "form", values, errors: { branch_id: [BRANCH_REQUIRED] } };
  }
  const ctx = {
    channel: "branch" as const,
    branchId,
    userId: user.id,
    screenshotRef: typeof values.screenshot_ref === "string" ? values.screenshot_ref : null,
  };

  if (intent === "save") {
    const created = await createPreregistration(form, ctx);
    if (!created.ok) return { step: "form", values, errors: created.errors };
    const slug = created.preregistration.slug;
    return redirectWithToast(
      `/admin/preregistration/${slug}/verify`,
      success(
        created.duplicate
          ? "Pre-registration saved."
          : "Pre-registration saved. A verification code was sent to the customer.",
      ),
    );
  }

  // First post: every check, the screenshot stored, then "Please Confirm Your Phone Number."
  const review = await reviewPreregistration(form, ctx);
  if (!review.ok) return { step: "form", values, errors: review.errors };
  return {
    step: "confirm",
    values: {
      ...values,
      phone: review.value.phone,
      send_sms: review.value.send_sms ? "on" : "off",
      shared: review.value.shared ? "on" : "",
      screenshot_ref: review.screenshotRef ?? undefined,
    },
    errors: {},
  };
}

export default function CreatePreregistration() {
  const { bikeModels, branches, branchTitle, formToken } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>() as ActionData | undefined;
  const busy = useNavigation().state === "submitting";
  const values = data?.values ?? {};
  const errors = data?.errors ?? {};
  const confirming = data?.step === "confirm";
  const token = values.form_token || formToken;
  return (
    <>
      <h1>New Pre-Registration{branchTitle ? ` · ${branchTitle}` : ""}</h1>
      {confirming ? (
        <Form method="post" className="confirm-step" aria-labelledby="confirm-title">
          {CARRIED.map((k) =>
            values[k] !== undefined && k !== "form_token" ? (
              <input key={k} type="hidden" name={k} value={values[k]} />
            ) : null,
          )}
          <input type="hidden" name="form_token" value={token} />
          <div className="card" role="dialog" aria-modal="true" aria-labelledby="confirm-title">
            <h2 id="confirm-title">Please Confirm Your Phone Number.</h2>
            <p className="phone">{values.phone}</p>
            <div className="actions">
              <button type="submit" name="intent" value="edit">
                Go Back
              </button>
              <button type="submit" name="intent" value="save" className="primary" disabled={busy} autoFocus>
                {values.send_sms === "on" ? "Save and Notify" : "Save"}
              </button>
            </div>
          </div>
        </Form>
      ) : null}
      <Form method="post" encType="multipart/form-data" className="card counter-form" hidden={confirming}>
        {errors.form?.length ? (
          <p className="form-error" role="alert">
            {errors.form[0]}
          </p>
        ) : null}
        <input type="hidden" name="form_token" value={token} />
        {values.screenshot_ref ? <input type="hidden" name="screenshot_ref" value={values.screenshot_ref} /> : null}
        <input type="hidden" name="send_sms" value="off" />
        <PreregistrationFields values={values} errors={errors} bikeModels={bikeModels} branches={branches} />
        <div className="actions">
          <Link to="/admin/preregistration" className="button">
            Cancel
          </Link>
          <button type="submit" name="intent" value="review" className="primary" disabled={busy}>
            {busy ? "Checking…" : "Save"}
          </button>
        </div>
      </Form>
    </>
  );
}
