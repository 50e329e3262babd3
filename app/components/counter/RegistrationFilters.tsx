/** The registration list's filter inputs (spec 000 §2), placed inside the DataTable's GET form. */
import { useSearchParams } from "@remix-run/react";
import { FilterDate, FilterSelect } from "~/components/TableFilters";
import { PRE_PRIZES, REGISTRATION_PRIZES } from "~/models/prize-constants";
import { PAYMENT_MODE_LABELS, PAYMENT_MODES } from "~/schemas/registration";

type Option = { id: number; title: string };

export function RegistrationFilters({
  bikeModels,
  branches,
  prizes = true,
}: {
  bikeModels: Option[];
  /** Head office only (branch users see their branch). */
  branches: Option[] | null;
  prizes?: boolean;
}) {
  const [params] = useSearchParams();
  return (
    <>
      <FilterSelect
        name="payment_mode"
        label="Payment Mode"
        options={PAYMENT_MODES.map((m) => ({ value: m, label: PAYMENT_MODE_LABELS[m] }))}
      />
      <FilterSelect
        name="bike_model"
        label="Model"
        options={bikeModels.map((m) => ({ value: m.id, label: m.title }))}
      />
      {branches ? (
        <FilterSelect name="branch" label="Branch" options={branches.map((b) => ({ value: b.id, label: b.title }))} />
      ) : null}
      <FilterDate name="from" label="From" />
      <FilterDate name="to" label="To" />
      {prizes ? (
        <>
          <label>
            <span>Total Prize</span>
            <input
              type="number"
              name="prize"
              min={0}
              step={1000}
              defaultValue={params.get("prize") ?? ""}
              className="narrow-input"
            />
          </label>
          <FilterSelect
            name="pre_prize"
            label="Pre Prize"
            options={PRE_PRIZES.map((p) => ({ value: p.amount, label: p.label }))}
          />
          <FilterSelect
            name="post_prize"
            label="Post Prize"
            options={[
              { value: 0, label: "No coupon" },
              ...REGISTRATION_PRIZES.map((p) => ({ value: p.amount, label: p.label })),
            ]}
          />
        </>
      ) : null}
    </>
  );
}

/** The list's filters as a query string for the Download and Print links. */
export function useFilterQuery(keys: readonly string[]): string {
  const [params] = useSearchParams();
  const q = new URLSearchParams();
  for (const k of keys) {
    const v = params.get(k);
    if (v) q.set(k, v);
  }
  return q.toString();
}
