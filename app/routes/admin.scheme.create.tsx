import { getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useHydrated } from "~/components/useHydrated";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { DayField } from "~/components/DayInput";
import { FormError, SelectField, textOf, WholeNumberField } from "~/components/Field";
import { schemeFormData } from "~/components/scheme/allocation-form";
import { SchemeNav } from "~/components/scheme/SchemeNav";
import { schemeLinks } from "~/components/scheme/styles";
import { createAllocation } from "~/models/allocation.server";
import { branchOptionsInScope } from "~/models/branch.server";
import { replyFailure } from "~/http/http.server";
import {
  ALLOCATION_TYPES,
  isAllocationType,
  prizeOptionsForType,
  typeNeedsBranch,
  ALLOCATION_TYPE_OPTIONS,
} from "~/utils/prize-constants";
import { ALLOCATION_MESSAGES, allocationFormSchema, PROBABILITY_HINT } from "~/schemas/allocation";
import { requireIntent, requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { kathmanduDate } from "~/utils/time";
import { redirectWithToast, success } from "~/http/toast.server";
import { SaveCancel } from "~/components/FormActions";
import { titledOptions } from "~/utils/options";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = {
  permission: "manage-allocation",
  intents: { create: null, refresh: null },
} as const satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Create Scheme" }];
export const links = schemeLinks;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const params = new URL(request.url).searchParams;
  const type = params.get("type");
  return {
    branches: branchOptionsInScope(user.scope),
    defaults: {
      type: isAllocationType(type) ? type : ALLOCATION_TYPES[0],
      branch_id: params.get("branch_id") ?? "",
      date: params.get("date") ?? kathmanduDate(),
      amount: "",
      count: "1",
      probability: "0",
      never_pays: "",
    },
  };
}

type ActionData = { result: SubmissionResult<string[]> };

/**
 * intent=refresh (the no-JavaScript "Update amounts" button): the same form
 * again with its values and the amounts of the chosen type, no errors.
 * Otherwise: create, or the form again with the errors under their fields.
 */
export async function action({ request }: ActionFunctionArgs) {
  const { intent, form, staff: user } = await requireIntent(request, handle, { fallback: "create" });
  if (intent === "refresh") {
    form.delete("intent");
    const { initialValue } = parseWithZod(form, { schema: allocationFormSchema }).reply();
    return data<ActionData>({ result: { initialValue, error: {} } });
  }
  const submission = parseWithZod(schemeFormData(form), { schema: allocationFormSchema });
  if (submission.status !== "success") return data<ActionData>({ result: submission.reply() }, { status: 422 });
  const result = createAllocation(user, submission.value);
  if (!result.ok) return replyFailure(schemeFormData(form), result);
  return redirectWithToast("/admin/scheme", success("Scheme saved."));
}

export default function CreateScheme() {
  const { branches, defaults } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // Until the script runs, the type change needs the server (the "Update amounts" button).
  const hydrated = useHydrated();

  const [form, fields] = useForm({
    id: "scheme-create",
    lastResult: actionData?.result,
    defaultValue: defaults,
    onValidate: ({ formData }) => parseWithZod(schemeFormData(formData), { schema: allocationFormSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const chosen = textOf(fields.type.value) ?? textOf(fields.type.initialValue);
  const type = isAllocationType(chosen) ? chosen : ALLOCATION_TYPES[0];
  const amounts = prizeOptionsForType(type);
  // A pool that never pays is saved only when asked for: the box shows once the form has asked (or it is ticked).
  const askedZero =
    fields.probability.errors?.includes(ALLOCATION_MESSAGES.probabilityZero) ||
    textOf(fields.never_pays.value ?? fields.never_pays.initialValue) === "on";
  // A type chosen before the script ran (a slow counter PC): the amounts follow what the select shows.
  useEffect(() => {
    const shown = (document.getElementById(form.id) as HTMLFormElement | null)?.elements.namedItem(fields.type.name);
    if (shown instanceof HTMLSelectElement && shown.value !== type) {
      form.update({ name: fields.type.name, value: shown.value });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the page hydrates
  }, []);

  return (
    <>
      <div className="scheme-head">
        <h1>Create Scheme</h1>
        <SchemeNav />
      </div>
      <Form method="post" id={form.id} onSubmit={form.onSubmit} noValidate className="card scheme-form">
        {!hydrated ? (
          // Enter in a field saves (the first submit button is the default one), not "Update amounts".
          <button
            type="submit"
            name="intent"
            value="create"
            className="visually-hidden"
            tabIndex={-1}
            aria-hidden="true"
          >
            Save
          </button>
        ) : null}
        <FormError errors={form.errors} />
        <div className="scheme-type">
          <SelectField label="Type" meta={fields.type} options={ALLOCATION_TYPE_OPTIONS} />
          {!hydrated ? (
            <button type="submit" name="intent" value="refresh" className="refresh">
              Update amounts
            </button>
          ) : null}
        </div>
        <div className="scheme-branch" hidden={hydrated && !typeNeedsBranch(type)}>
          <SelectField
            label="Branch"
            meta={fields.branch_id}
            placeholder="Choose a branch"
            options={titledOptions(branches)}
          />
        </div>
        <DayField label="Date" meta={fields.date} />
        <WholeNumberField meta={fields.count} label="Count (between 1 and 5)" min={1} max={5} />
        <SelectField
          label="Amount"
          meta={fields.amount}
          placeholder="Choose an amount"
          options={amounts.map((o) => ({ value: o.amount, label: o.label }))}
          hint={type === "registration_branch" ? "Registration prize list." : "Pre-registration prize list."}
        />
        <WholeNumberField
          meta={fields.probability}
          label="Probability (in 100)"
          min={0}
          max={100}
          hint={PROBABILITY_HINT}
        />
        {askedZero ? (
          <label className="check">
            <input {...getInputProps(fields.never_pays, { type: "checkbox" })} /> Never pays: save this pool with 0 in
            100
          </label>
        ) : null}
        <SaveCancel cancelTo="/admin/scheme" intent="create" />
      </Form>
    </>
  );
}
