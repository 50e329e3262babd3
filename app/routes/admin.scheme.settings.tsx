import { getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { FieldError, FormError } from "~/components/Field";
import { rupees } from "~/components/scheme/format";
import { FairDrawsPanel } from "~/components/scheme/FairDrawsPanel";
import { SchemeNav } from "~/components/scheme/SchemeNav";
import { beaconStatus } from "~/models/beacon.server";
import { announcements } from "~/models/fair-draw.server";
import { fallbackCounts, MAX_OBSERVERS, observerPhones, setObservers } from "~/models/fair-observers.server";
import { can } from "~/utils/permissions";
import { schemeLinks } from "~/components/scheme/styles";
import { failureStatus } from "~/utils/failure";
import {
  baseTableMean,
  getBaseTable,
  setBaseTable,
  type BaseTableKind,
  type BaseTableRow,
} from "~/models/prize-settings.server";
import { baseTableFormSchema, type BaseTableFormValue } from "~/schemas/base-table";
import { requireIntent, requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { redirectWithToast, success } from "~/http/toast.server";

/**
 * The permission this route needs; its action saves one of the two base tables (the intent names it),
 * or the fair draws' observers: those need update-settings, not manage-allocation, as the observers
 * watch every branch's draws and head office names them (decision 19).
 */
export const handle = {
  permission: "manage-allocation",
  intents: { second: null, third: null, observers: "update-settings" },
} as const satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Fallback tables" }];
export const links = schemeLinks;

/** Blank rows offered below the saved ones (save, and more blank rows come back). */
const BLANK_ROWS = 3;
const MIN_ROWS = 5;

const TITLES: Record<BaseTableKind, string> = {
  second: "Second thrill (pre-registration)",
  third: "Third thrill (registration)",
};

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const second = getBaseTable("second");
  const third = getBaseTable("third");
  return {
    second,
    third,
    means: { second: baseTableMean(second), third: baseTableMean(third) },
    fair: {
      phones: observerPhones(),
      max: MAX_OBSERVERS,
      canEdit: can(user, "update-settings"),
      beacon: beaconStatus(),
      days: fallbackCounts(),
      sends: announcements().slice(0, 14),
    },
  };
}

/** The refused form: which table, and conform's result (the rows as sent, errors under their inputs); or the observers as sent. */
type ActionData =
  { kind: BaseTableKind; result: SubmissionResult<string[]> } | { kind: "observers"; error: string; value: string };

/** intent=second|third: saves that table from its rows[i].amount / rows[i].weight; rows left blank are dropped. */
export async function action({ request }: ActionFunctionArgs) {
  const { intent: kind, form, staff: user } = await requireIntent(request, handle);
  if (kind === "observers") {
    const value = String(form.get("phones") ?? "");
    const saved = setObservers(user, value);
    if (!saved.ok) return data<ActionData>({ kind, error: saved.message, value }, { status: failureStatus(saved) });
    return redirectWithToast("/admin/scheme/settings", success("Observers saved."));
  }
  const submission = parseWithZod(form, { schema: baseTableFormSchema });
  if (submission.status !== "success") {
    return data<ActionData>({ kind, result: submission.reply() }, { status: 422 });
  }
  const result = setBaseTable(user, submission.value.kind, submission.value.rows);
  if (!result.ok) {
    // The form's rules are the model's, so a refusal here is not about one row: above the table.
    const reply = submission.reply({ formErrors: [result.message] });
    return data<ActionData>({ kind, result: reply }, { status: failureStatus(result) });
  }
  return redirectWithToast("/admin/scheme/settings", success(`${TITLES[kind]} base table saved.`));
}

function chance(rows: BaseTableRow[], weight: number) {
  const total = rows.reduce((s, r) => s + r.weight, 0);
  return total > 0 ? `${((weight / total) * 100).toFixed(1)}%` : "";
}

/** The saved rows as the form shows them, with blank rows to add more. */
function formRows(saved: BaseTableRow[]) {
  const rows = saved.map((r) => ({ amount: String(r.amount), weight: String(r.weight) }));
  while (rows.length < Math.max(MIN_ROWS, saved.length + BLANK_ROWS)) rows.push({ amount: "", weight: "" });
  return rows;
}

/** The form's fields as the inputs hold them. */
type TableFields = { intent: BaseTableKind; rows: { amount: string; weight: string }[] };

type TableFormProps = {
  kind: BaseTableKind;
  saved: BaseTableRow[];
  mean: number;
  lastResult?: SubmissionResult<string[]>;
};

function TableForm({ kind, saved, mean, lastResult }: TableFormProps) {
  const [form, fields] = useForm<TableFields, BaseTableFormValue>({
    id: `base-table-${kind}`,
    lastResult,
    defaultValue: { intent: kind, rows: formRows(saved) },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: baseTableFormSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const rows = fields.rows.getFieldList();
  // The chances are those of the saved table, shown while the form shows it (not after a refusal).
  const showsSaved = !lastResult;
  const formErrors = [...(form.errors ?? []), ...(fields.rows.errors ?? [])];
  const id = `table-${kind}`;
  return (
    <Form
      method="post"
      id={form.id}
      onSubmit={form.onSubmit}
      className="card base-table"
      aria-labelledby={id}
      noValidate
    >
      <h2 id={id}>{TITLES[kind]}</h2>
      <p className="muted">
        {kind === "second"
          ? "What a verified pre-registration gets when no pool pays it. At least one row."
          : "What a confirmed registration gets when no pool pays it. Leave every row empty for no coupon."}{" "}
        Each row is an amount in rupees and its weight: a row's chance is its weight over the sum of the weights.
      </p>
      <FormError errors={formErrors} />
      <input type="hidden" name="intent" value={kind} />
      <table>
        <thead>
          <tr>
            <th scope="col">Amount (Rs)</th>
            <th scope="col">Weight</th>
            <th scope="col">Chance</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => {
            const { amount, weight } = row.getFieldset();
            const savedRow = showsSaved ? saved[i] : undefined;
            return (
              <tr key={row.key}>
                <td className={amount.errors ? "invalid" : undefined}>
                  <input
                    {...getInputProps(amount, { type: "number" })}
                    key={amount.key}
                    min={1}
                    step={1}
                    inputMode="numeric"
                    aria-label={`Amount ${i + 1}`}
                  />
                  <FieldError id={amount.errorId} errors={amount.errors} />
                </td>
                <td className={weight.errors ? "invalid" : undefined}>
                  <input
                    {...getInputProps(weight, { type: "number" })}
                    key={weight.key}
                    min={0}
                    step="any"
                    inputMode="decimal"
                    aria-label={`Weight ${i + 1}`}
                  />
                  <FieldError id={weight.errorId} errors={weight.errors} />
                </td>
                <td>{savedRow ? chance(saved, savedRow.weight) : ""}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p>
        Average: <strong>{saved.length ? rupees(mean) : "no coupon"}</strong>
      </p>
      <button type="submit" className="primary">
        Save
      </button>
    </Form>
  );
}

export default function FallbackTables() {
  const { second, third, means, fair } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const refused = answer && answer.kind !== "observers" ? answer : undefined;
  return (
    <>
      <div className="scheme-head">
        <h1>Fallback tables</h1>
        <SchemeNav />
      </div>
      <p className="muted">
        When none of an entry's pools pays it, its prize comes from a base table: one more cryptographic roll picks a
        row by weight. Changes apply to draws made after saving.
      </p>
      <div className="base-tables">
        {/* A saved table starts its form afresh (its rows as stored, blank rows below). */}
        <TableForm
          key={`second-${JSON.stringify(second)}`}
          kind="second"
          saved={second}
          mean={means.second}
          lastResult={refused?.kind === "second" ? refused.result : undefined}
        />
        <TableForm
          key={`third-${JSON.stringify(third)}`}
          kind="third"
          saved={third}
          mean={means.third}
          lastResult={refused?.kind === "third" ? refused.result : undefined}
        />
      </div>
      <FairDrawsPanel {...fair} refused={answer?.kind === "observers" ? answer : undefined} />
    </>
  );
}
