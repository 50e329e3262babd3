/**
 * The fair draws' panel of the scheme settings (decision 19): the observers head office names (one
 * mobile a line; saving needs update-settings), the beacon's state, each recent day's draws made
 * with the house seed, and what was sent to the observers.
 */
import { Form } from "@remix-run/react";
import { displayDateTime } from "~/utils/time";

export type FairDrawsPanelProps = {
  phones: string[];
  max: number;
  canEdit: boolean;
  beacon: { configured: boolean; up: boolean; since: string; lastError: string | null };
  days: { date: string; draws: number; house: number }[];
  sends: { date: string; phones: number; sent_at: string }[];
  refused?: { error: string; value: string };
};

export function FairDrawsPanel({ phones, max, canEdit, beacon, days, sends, refused }: FairDrawsPanelProps) {
  return (
    <section className="card" aria-labelledby="fair-panel">
      <h2 id="fair-panel">Fair draws</h2>
      <p>
        {!beacon.configured
          ? "The beacon is off: every draw uses the house seed."
          : beacon.up
            ? `The beacon answers (since ${displayDateTime(beacon.since)}).`
            : `The beacon is unreachable since ${displayDateTime(beacon.since)}: draws use the house seed. ${beacon.lastError ?? ""}`}
      </p>
      <table>
        <caption>Draws made with the house seed (the beacon did not answer): each should be 0.</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Draws</th>
            <th scope="col">With the house seed</th>
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.date}>
              <th scope="row">{d.date}</th>
              <td>{d.draws}</td>
              <td>{d.house}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Form method="post" noValidate>
        <input type="hidden" name="intent" value="observers" />
        <div className={refused ? "field invalid" : "field"}>
          <label htmlFor="observers">Observers: mobile numbers, one a line (at most {max})</label>
          <textarea
            id="observers"
            name="phones"
            rows={4}
            readOnly={!canEdit}
            defaultValue={refused?.value ?? phones.join("\n")}
            aria-invalid={refused ? true : undefined}
            aria-describedby={refused ? "observers-error observers-hint" : "observers-hint"}
          />
          <p id="observers-hint" className="muted">
            Each closed day's chain head and the next day's terms go to them by SMS (an auditor, a notary, a
            journalist); the sends are listed on the public /fair-draws page.
          </p>
          {refused ? (
            <p id="observers-error" className="field-error">
              {refused.error}
            </p>
          ) : null}
        </div>
        {canEdit ? (
          <button type="submit" className="primary">
            Save observers
          </button>
        ) : null}
      </Form>
      {sends.length ? (
        <ul>
          {sends.map((s) => (
            <li key={s.date}>
              {s.date}: told {s.phones} observers, {displayDateTime(s.sent_at)}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">Nothing sent to the observers yet.</p>
      )}
    </section>
  );
}
