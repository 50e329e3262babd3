/**
 * The registration list's filter inputs (spec 000 §2), placed inside the
 * DataTable's GET form, each with the message of a value that could not be read.
 */
import { useSearchParams } from "@remix-run/react";
import { FilterErrors, FilterRange, FilterSelect } from "~/components/TableFilters";
import { REGISTRATION_PRE_PRIZES, REGISTRATION_PRIZES } from "~/utils/prize-constants";
import { PAYMENT_MODE_LABELS, PAYMENT_MODES } from "~/schemas/registration";
import { titledOptions } from "~/utils/options";

type Option = { id: number; title: string };

// The search's message is under the search box (DataTable's searchErrors).
const SHOWN = ["payment_mode", "bike_model", "from", "to", "search"];

/**
 * The Pre Prize filter (the second thrill): the registration pre-prize list of
 * spec 000 §9 and 001 §3, 8,000 to 18,000 in steps of 1,000, and 50,000. The
 * query itself reads any amount (GET /api/v1/registration?pre_prize=4000).
 */
export const PRE_PRIZE_OPTIONS = REGISTRATION_PRE_PRIZES.map((p) => ({ value: p.amount, label: p.label }));
const PRIZE_FILTERS = ["prize", "pre_prize", "post_prize"];

export function RegistrationFilters({
  bikeModels,
  branches,
  prizes = true,
  errors,
}: {
  bikeModels: Option[];
  /** Head office only (branch users see their branch). */
  branches: Option[] | null;
  prizes?: boolean;
  /** The filters that could not be read, by name. */
  errors?: Record<string, string[]> | null;
}) {
  const [params] = useSearchParams();
  const e = (name: string) => errors?.[name];
  return (
    <>
      <FilterErrors
        errors={errors}
        shown={[...SHOWN, ...(branches ? ["branch"] : []), ...(prizes ? PRIZE_FILTERS : [])]}
      />
      <FilterSelect
        name="payment_mode"
        label="Payment Mode"
        options={PAYMENT_MODES.map((m) => ({ value: m, label: PAYMENT_MODE_LABELS[m] }))}
        errors={e("payment_mode")}
      />
      <FilterSelect name="bike_model" label="Model" options={titledOptions(bikeModels)} errors={e("bike_model")} />
      {branches ? (
        <FilterSelect name="branch" label="Branch" options={titledOptions(branches)} errors={e("branch")} />
      ) : null}
      <FilterRange errors={errors} />
      {prizes ? (
        <>
          <label className={e("prize") ? "invalid" : undefined}>
            <span>Total Prize</span>
            <input
              type="number"
              name="prize"
              min={0}
              step={1000}
              defaultValue={params.get("prize") ?? ""}
              className="narrow-input"
              aria-invalid={e("prize") ? true : undefined}
              aria-describedby={e("prize") ? "filter-prize-error" : undefined}
            />
            {e("prize") ? (
              <span className="field-error" id="filter-prize-error" role="alert">
                {e("prize")![0]}
              </span>
            ) : null}
          </label>
          <FilterSelect name="pre_prize" label="Pre Prize" options={PRE_PRIZE_OPTIONS} errors={e("pre_prize")} />
          <FilterSelect
            name="post_prize"
            label="Post Prize"
            errors={e("post_prize")}
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
