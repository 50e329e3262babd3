/**
 * The payout preview of the scheme screen: for a date, a branch and a number of
 * entries, the expected winners and cost per amount of every pool type, from
 * the exact expectation the model computes. A GET form, so it works without
 * JavaScript. A date that does not read shows its message under the field
 * (and the preview of today).
 */
import { Form } from "@remix-run/react";
import { DayInput } from "~/components/DayInput";
import type { Errors } from "~/components/Field";
import type { PayoutPreview as Preview } from "~/models/allocation.server";
import { displayDay } from "~/utils/time";
import { expected, rupees, typeLabel } from "./format";

type Props = {
  preview: Preview;
  branches: { id: number; title: string }[];
  /** Query values of the list (kept when the preview is submitted). */
  keep: Record<string, string>;
  /** The date as typed, and its message when it does not read. */
  typedDate?: string;
  dateErrors?: Errors;
};

export function PayoutPreview({ preview, branches, keep, typedDate, dateErrors }: Props) {
  const dateError = dateErrors?.[0];
  return (
    <section className="card scheme-preview" aria-labelledby="preview-title">
      <h2 id="preview-title">Payout preview</h2>
      <Form method="get" className="table-tools preview-form">
        {Object.entries(keep).map(([k, v]) => (
          <input key={k} type="hidden" name={k} value={v} />
        ))}
        <label className={dateError ? "invalid" : undefined}>
          <span id="preview-date-label">Date</span>
          <DayInput
            name="preview_date"
            aria-labelledby="preview-date-label"
            defaultValue={dateError ? typedDate : preview.date}
            required
            aria-invalid={dateError ? true : undefined}
            aria-describedby={dateError ? "preview-date-error" : undefined}
          />
          {dateError ? (
            <span className="field-error" id="preview-date-error" role="alert">
              {dateError}
            </span>
          ) : null}
        </label>
        <label>
          <span>Branch</span>
          <select name="preview_branch" aria-label="Branch" defaultValue={preview.branchId ?? ""}>
            <option value="">Public pools only</option>
            {branches.map((b) => (
              <option key={b.id} value={b.id}>
                {b.title}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>Entries of each type</span>
          <input type="number" name="entries" min={0} step={1} defaultValue={preview.entries} inputMode="numeric" />
        </label>
        <button type="submit">Preview</button>
      </Form>
      <p className="muted">
        Exact expectation for {preview.entries} further {preview.entries === 1 ? "entry" : "entries"} of each type on{" "}
        {displayDay(preview.date)}, counting only prizes not yet paid. Entries no pool pays get the base table.
      </p>
      {preview.types.map((t) => (
        <div key={t.type} className="preview-type">
          <h3>{typeLabel(t.type)}</h3>
          <div className="table-scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">Amount</th>
                  <th scope="col">Pools</th>
                  <th scope="col">Prizes left</th>
                  <th scope="col">Expected winners</th>
                  <th scope="col">Expected cost</th>
                </tr>
              </thead>
              <tbody>
                {t.byAmount.length === 0 ? (
                  <tr>
                    <td colSpan={5} className="empty">
                      No pool with prizes left on this date
                    </td>
                  </tr>
                ) : (
                  t.byAmount.map((a) => (
                    <tr key={a.amount}>
                      <td>{rupees(a.amount)}</td>
                      <td>{a.pools}</td>
                      <td>{a.remaining}</td>
                      <td>{expected(a.expectedWinners)}</td>
                      <td>{rupees(a.expectedCost)}</td>
                    </tr>
                  ))
                )}
                <tr className="fallback">
                  <td>Base table (average {rupees(t.fallbackMean)})</td>
                  <td />
                  <td />
                  <td>{expected(t.expectedFallbackEntries)}</td>
                  <td>{rupees(t.expectedFallbackCost)}</td>
                </tr>
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row" colSpan={3}>
                    Expected cost
                  </th>
                  <td>{expected(t.expectedPoolWinners)} from pools</td>
                  <td>{rupees(t.expectedTotalCost)}</td>
                </tr>
              </tfoot>
            </table>
          </div>
        </div>
      ))}
      <p className="preview-total">
        Expected total cost: <strong>{rupees(preview.expectedTotalCost)}</strong>
      </p>
    </section>
  );
}
