import { getFormProps } from "@conform-to/react";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useCounterFields } from "~/components/counter/form";
import { PreregistrationFields, type PreregFieldset } from "~/components/counter/PreregistrationFields";
import { newFormToken } from "~/utils/crypto.server";
import { counterLinks } from "~/components/counter/styles";
import { listBikeModels } from "~/models/bike-model.server";
import { listBranchOptions } from "~/models/branch.server";
import type { Failure } from "~/utils/failure";
import { createPreregistration, reviewPreregistration, type Counter } from "~/models/preregistration.server";
import { counterPreregistrationSchema } from "~/schemas/preregistration";
import { requireIntent, requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { BODY_LIMITS, parseValue } from "~/http/body.server";
import { echoForm, echoResult, fileField } from "~/http/echo.server";
import { replyFailure } from "~/http/http.server";
import { redirectWithToast, success } from "~/http/toast.server";
import { isHeadOffice } from "~/models/scope.server";
import { FormError } from "~/components/Field";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = {
  permission: "create-registration",
  intents: { review: null, edit: null, save: null },
} as const satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "New Pre-Registration" }];
export const links = counterLinks;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const headOffice = isHeadOffice(user.scope);
  return {
    bikeModels: listBikeModels().map((m) => ({ id: m.id, title: m.title })),
    branches: headOffice ? listBranchOptions() : null,
    branchTitle: user.branch?.title ?? null,
    formToken: newFormToken(),
  };
}

/** The form again with the post's values and the failure under its field. */
function again(form: FormData, failure: Failure) {
  const reply = replyFailure(echoForm(form), failure);
  return data({ step: "form" as const, result: reply.data.result }, reply.init ?? undefined);
}

/**
 * intent=review (Save): every check, the screenshot stored, then "Please
 * Confirm Your Phone Number."; intent=edit (Go Back): the form again;
 * intent=save (Save / Save and Notify): creates and opens the verify page.
 */
export async function action({ request }: ActionFunctionArgs) {
  const {
    intent,
    form,
    staff: user,
  } = await requireIntent(request, handle, { fallback: "review", limit: BODY_LIMITS.upload });
  if (intent === "edit") return data({ step: "form" as const, result: echoResult(form) });

  const parsed = await parseValue({ kind: "form", form }, counterPreregistrationSchema);
  if (!parsed.ok) return again(form, parsed);
  const counter: Counter = { channel: "counter", actor: user };
  const screenshot = { file: fileField(form, "screenshot"), ref: parsed.value.screenshot_ref };

  if (intent === "save") {
    const created = await createPreregistration(counter, parsed.value, screenshot);
    if (!created.ok) return again(form, created);
    return redirectWithToast(
      `/admin/preregistration/${created.preregistration.slug}/verify`,
      success(
        created.duplicate
          ? "Pre-registration saved."
          : "Pre-registration saved. A verification code was sent to the customer.",
      ),
    );
  }

  const review = await reviewPreregistration(counter, parsed.value, screenshot);
  if (!review.ok) return again(form, review);
  return data({
    step: "confirm" as const,
    result: echoResult(form, {
      phone: review.value.phone,
      send_sms: review.value.send_sms ? "on" : "off",
      shared: review.value.shared ? "on" : null,
      screenshot_ref: review.screenshotRef,
    }),
  });
}

export default function CreatePreregistration() {
  const { bikeModels, branches, branchTitle, formToken } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useCounterFields({
    id: "prereg-create",
    schema: counterPreregistrationSchema,
    lastResult: answer?.result,
  });
  const confirming = answer?.step === "confirm";
  const carried = Object.entries(answer?.result.initialValue ?? {}).filter(
    (entry): entry is [string, string] => typeof entry[1] === "string" && entry[0] !== "form_token",
  );
  const value = (name: string) => carried.find(([k]) => k === name)?.[1];
  const token = (answer?.result.initialValue?.form_token as string | undefined) || formToken;
  const screenshotRef = value("screenshot_ref");
  return (
    <>
      <h1>New Pre-Registration{branchTitle ? ` · ${branchTitle}` : ""}</h1>
      {confirming ? (
        <Form method="post" className="confirm-step" aria-labelledby="confirm-title">
          {carried.map(([k, v]) => (
            <input key={k} type="hidden" name={k} value={v} />
          ))}
          <input type="hidden" name="form_token" value={token} />
          <div className="card" role="dialog" aria-modal="true" aria-labelledby="confirm-title">
            <h2 id="confirm-title">Please Confirm Your Phone Number.</h2>
            <p className="phone">{value("phone")}</p>
            <div className="actions">
              <button type="submit" name="intent" value="edit">
                Go Back
              </button>
              <button type="submit" name="intent" value="save" className="primary" disabled={busy} autoFocus>
                {value("send_sms") === "on" ? "Save and Notify" : "Save"}
              </button>
            </div>
          </div>
        </Form>
      ) : null}
      <Form
        method="post"
        encType="multipart/form-data"
        className="card counter-form"
        hidden={confirming}
        {...getFormProps(form)}
      >
        <FormError errors={form.errors} />
        <input type="hidden" name="form_token" value={token} />
        {screenshotRef ? <input type="hidden" name="screenshot_ref" value={screenshotRef} /> : null}
        <PreregistrationFields
          fields={fields as unknown as PreregFieldset}
          bikeModels={bikeModels}
          branches={branches}
        />
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
