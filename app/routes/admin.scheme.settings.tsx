import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { FieldError } from "~/components/Field";
import { rupees } from "~/components/scheme/format";
import { SchemeNav } from "~/components/scheme/SchemeNav";
import { schemeLinks } from "~/components/scheme/styles";
import {
  BaseTableError,
  baseTableMean,
  getBaseTable,
  setBaseTable,
  type BaseTableKind,
  type BaseTableRow,
} from "~/models/prize-settings.server";
import { requireRouteAccess, type RouteAccess } from "~/utils/auth.server";
import { redirectWithToast, success } from "~/utils/toast.server";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: "manage-allocation" } satisfies RouteAccess;

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
  await requireRouteAccess(request, handle);
  const second = getBaseTable("second");
  const third = getBaseTable("third");
  return { second, third, means: { second: baseTableMean(second), third: baseTableMean(third) } };
}

type RowValue = { amount: string; weight: string };
type Failure = {
  kind: BaseTableKind;
  values: RowValue[];
  rowErrors: Record<number, { amount?: string[]; weight?: string[] }>;
  formErrors: string[];
};

/** intent=second|third: saves that table from its amount/weight rows; rows left blank are dropped. */
export async function action({ request }: ActionFunctionArgs) {
  await requireRouteAccess(request, handle);
  const form = await request.formData();
  const kind = form.get("intent");
  if (kind !== "second" && kind !== "third") throw new Response("Bad Request", { status: 400 });
  const amounts = form.getAll("amount").map(String);
  const weights = form.getAll("weight").map(String);
  const values: RowValue[] = amounts.map((amount, i) => ({ amount, weight: weights[i] ?? "" }));
  const kept = values.map((v, i) => ({ ...v, at: i })).filter((v) => v.amount.trim() !== "" || v.weight.trim() !== "");
  try {
    setBaseTable(
      kind,
      kept.map(({ amount, weight }) => ({ amount, weight })),
    );
  } catch (err) {
    if (!(err instanceof BaseTableError)) throw err;
    const failure: Failure = { kind, values, rowErrors: {}, formErrors: [] };
    for (const [key, messages] of Object.entries(err.fieldErrors)) {
      const m = /^rows\.(\d+)\.(amount|weight)$/.exec(key);
      const at = m ? kept[Number(m[1])]?.at : undefined;
      if (m && at !== undefined) (failure.rowErrors[at] ??= {})[m[2] as "amount" | "weight"] = messages;
      else failure.formErrors.push(...messages);
    }
    return data(failure, { status: 400 });
  }
  return redirectWithToast("/admin/scheme/settings", success(`${TITLES[kind]} base table saved.`));
}

function chance(rows: BaseTableRow[], weight: number) {
  const total = rows.reduce((s, r) => s + r.weight, 0);
  return total > 0 ? `${((weight / total) * 100).toFixed(1)}%` : "";
}

type TableFormProps = { kind: BaseTableKind; saved: BaseTableRow[]; mean: number; failure?: Failure };

function TableForm({ kind, saved, mean, failure }: TableFormProps) {
  const mine = failure?.kind === kind ? failure : undefined;
  const values: RowValue[] = mine
    ? mine.values
    : saved.map((r) => ({ amount: String(r.amount), weight: String(r.weight) }));
  const rows = [...values];
  while (rows.length < Math.max(MIN_ROWS, values.length + (mine ? 0 : BLANK_ROWS)))
    rows.push({ amount: "", weight: "" });
  const id = `table-${kind}`;
  return (
    <Form method="post" className="card base-table" aria-labelledby={id} noValidate>
      <h2 id={id}>{TITLES[kind]}</h2>
      <p className="muted">
        {kind === "second"
          ? "What a verified pre-registration gets when no pool pays it. At least one row."
          : "What a confirmed registration gets when no pool pays it. Leave every row empty for no coupon."}{" "}
        Each row is an amount in rupees and its weight: a row's chance is its weight over the sum of the weights.
      </p>
      {mine?.formErrors.length ? (
        <p className="form-error" role="alert">
          {mine.formErrors[0]}
        </p>
      ) : null}
      <table>
        <thead>
          <tr>
            <th scope="col">Amount (Rs)</th>
            <th scope="col">Weight</th>
            <th scope="col">Chance</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => {
            const errors = mine?.rowErrors[i];
            const savedRow = !mine ? saved[i] : undefined;
            return (
              <tr key={`${mine ? "f" : "s"}-${i}-${r.amount}-${r.weight}`}>
                <td className={errors?.amount ? "invalid" : undefined}>
                  <input
                    name="amount"
                    type="number"
                    min={1}
                    step={1}
                    inputMode="numeric"
                    aria-label={`Amount ${i + 1}`}
                    aria-invalid={errors?.amount ? true : undefined}
                    defaultValue={r.amount}
                  />
                  <FieldError errors={errors?.amount} />
                </td>
                <td className={errors?.weight ? "invalid" : undefined}>
                  <input
                    name="weight"
                    type="number"
                    min={0}
                    step="any"
                    inputMode="decimal"
                    aria-label={`Weight ${i + 1}`}
                    aria-invalid={errors?.weight ? true : undefined}
                    defaultValue={r.weight}
                  />
                  <FieldError errors={errors?.weight} />
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
      <button type="submit" name="intent" value={kind} className="primary">
        Save
      </button>
    </Form>
  );
}

export default function FallbackTables() {
  const { second, third, means } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
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
        <TableForm kind="second" saved={second} mean={means.second} failure={failure} />
        <TableForm kind="third" saved={third} mean={means.third} failure={failure} />
      </div>
    </>
  );
}
