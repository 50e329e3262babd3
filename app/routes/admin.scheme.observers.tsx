import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { SchemeNav } from "~/components/scheme/SchemeNav";
import { schemeLinks } from "~/components/scheme/styles";
import { beaconStatus } from "~/models/beacon.server";
import { announcements } from "~/models/fair-draw.server";
import { fallbackCounts, MAX_OBSERVERS, observerPhones, setObservers } from "~/models/fair-observers.server";
import { failureStatus } from "~/models/failure";
import { requireIntent, requireRouteAccess, type RouteAccess } from "~/utils/auth.server";
import { displayDateTime } from "~/utils/time";
import { redirectWithToast, success } from "~/utils/toast.server";

/**
 * The fair draws' observers and beacon (docs/decisions/0019-fair-draws.md). update-settings, not
 * manage-allocation: the observers watch every draw of the campaign, so head office names them
 * (branch staff may manage their branch's pools); the model refuses a branch user as well.
 */
export const handle = { permission: "update-settings", intents: { save: null } } as const satisfies RouteAccess;

export const meta: MetaFunction = () => [{ title: "Fair draws: observers" }];
export const links = schemeLinks;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRouteAccess(request, handle);
  return {
    phones: observerPhones(),
    beacon: beaconStatus(),
    days: fallbackCounts(),
    sends: announcements().slice(0, 14),
  };
}

type ActionData = { error: string; value: string };

/** Saves the observers: one mobile number a line. */
export async function action({ request }: ActionFunctionArgs) {
  const { form, staff: user } = await requireIntent(request, handle, { fallback: "save" });
  const value = String(form.get("phones") ?? "");
  const result = setObservers(user, value);
  if (!result.ok) return data<ActionData>({ error: result.message, value }, { status: failureStatus(result) });
  return redirectWithToast("/admin/scheme/observers", success("Observers saved."));
}

export default function FairObservers() {
  const { phones, beacon, days, sends } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <>
      <SchemeNav />
      <h1>Fair draws</h1>
      <Form method="post" className="card" noValidate>
        <h2>Observers</h2>
        <p className="muted">
          Each closed day's chain head and the next day's terms go by SMS to these numbers (at most {MAX_OBSERVERS}): an
          auditor, a notary, a journalist. The sends are listed on the public /fair-draws page.
        </p>
        <div className={answer ? "field invalid" : "field"}>
          <label htmlFor="phones">Mobile numbers, one a line</label>
          <textarea
            id="phones"
            name="phones"
            rows={5}
            defaultValue={answer?.value ?? phones.join("\n")}
            aria-invalid={answer ? true : undefined}
            aria-describedby={answer ? "phones-error" : undefined}
          />
          {answer ? (
            <p id="phones-error" className="field-error">
              {answer.error}
            </p>
          ) : null}
        </div>
        <button type="submit" name="intent" value="save" className="primary">
          Save observers
        </button>
      </Form>
      <section className="card" aria-labelledby="beacon-title">
        <h2 id="beacon-title">Beacon</h2>
        <p>
          {!beacon.configured
            ? "Off: every draw uses the house seed."
            : beacon.up
              ? `Answering (since ${displayDateTime(beacon.since)}).`
              : `Unreachable since ${displayDateTime(beacon.since)}: draws use the house seed. ${beacon.lastError ?? ""}`}
        </p>
        <table>
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
      </section>
      <section className="card" aria-labelledby="sends-title">
        <h2 id="sends-title">Sent to the observers</h2>
        {sends.length ? (
          <ul>
            {sends.map((s) => (
              <li key={s.date}>
                {s.date}: {s.phones} observers, {displayDateTime(s.sent_at)}
              </li>
            ))}
          </ul>
        ) : (
          <p>Nothing sent yet.</p>
        )}
      </section>
    </>
  );
}
