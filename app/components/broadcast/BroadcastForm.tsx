/**
 * The SMS broadcast form (spec 001 §2.10): category, branches, customers,
 * mobiles, message and Send. It is a plain form: without JavaScript every
 * section shows (the server reads the chosen category's) and the customer
 * search is a button that posts the form back with the results, keeping what
 * was typed and chosen. With JavaScript only the chosen category's section
 * shows, customers are suggested as you type, and the message shows its
 * characters and SMS parts as you type.
 */
import { useForm, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import type { Errors } from "~/components/Field";
import { useHydrated } from "~/components/useHydrated";
import { BROADCAST_TYPE_LABELS, BROADCAST_TYPES, type BroadcastType } from "~/schemas/broadcast";
import { encodingLabel, smsParts } from "~/utils/sms-parts";
import { FormError } from "~/components/Field";

export type Choice = { value: number; label: string };

export type BroadcastValues = {
  type: string;
  text: string;
  branches: string[];
  registrants: string[];
  mobiles: string;
  customer_q: string;
};

export const EMPTY_VALUES: BroadcastValues = {
  type: "ALL",
  text: "",
  branches: [],
  registrants: [],
  mobiles: "",
  customer_q: "",
};

/** The values of a posted form, as the form shows them again. */
export function valuesOf(form: FormData): BroadcastValues {
  const str = (k: string) => {
    const v = form.get(k);
    return typeof v === "string" ? v : "";
  };
  const all = (k: string) => form.getAll(k).filter((v): v is string => typeof v === "string" && v !== "");
  return {
    type: str("type") || "ALL",
    text: str("text"),
    branches: all("branches"),
    registrants: [...new Set(all("registrants"))],
    mobiles: str("mobiles"),
    customer_q: str("customer_q"),
  };
}

const isType = (v: string): v is BroadcastType => (BROADCAST_TYPES as readonly string[]).includes(v);

function Messages({ id, errors }: { id: string; errors: Errors }) {
  if (!errors?.length) return null;
  return (
    <div id={id} role="alert">
      {errors.map((e) => (
        <p key={e} className="field-error">
          {e}
        </p>
      ))}
    </div>
  );
}

const invalid = (id: string, errors: Errors) =>
  errors?.length ? { "aria-invalid": true as const, "aria-describedby": id } : {};

/** The message's live count (JavaScript only; the preview shows it in any case). */
function PartsLine({ text }: { text: string }) {
  const p = smsParts(text);
  return (
    <small className="sms-count" aria-live="polite">
      {p.characters} characters · {p.parts} SMS {p.parts === 1 ? "part" : "parts"} ({encodingLabel(p.encoding)},{" "}
      {p.perPart} per part)
    </small>
  );
}

/** The customer select: chosen customers as ticked boxes; suggestions as you type (JavaScript) or by the Search button. */
function CustomerPicker({
  chosen: initialChosen,
  found,
  query,
  errors,
}: {
  chosen: Choice[];
  found: Choice[];
  query: string;
  errors: Errors;
}) {
  const hydrated = useHydrated();
  const [chosen, setChosen] = useState<Choice[]>(initialChosen);
  const [results, setResults] = useState<Choice[]>(found);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);

  const search = (term: string) => {
    clearTimeout(timer.current);
    if (term.trim().length < 2) return setResults([]);
    timer.current = setTimeout(async () => {
      const res = await fetch(`/api/v1/sms/registrants?${new URLSearchParams({ q: term })}`, {
        headers: { Accept: "application/json" },
      }).catch(() => null);
      if (res?.ok) setResults(((await res.json()) as { data: Choice[] }).data);
    }, 200);
  };
  const add = (c: Choice) => setChosen((list) => (list.some((x) => x.value === c.value) ? list : [...list, c]));
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== "Enter" || !hydrated) return;
    e.preventDefault();
    search(e.currentTarget.value);
  };
  const offered = results.filter((r) => !chosen.some((c) => c.value === r.value));

  return (
    <fieldset className="customer-picker">
      <legend>Customers</legend>
      <Messages id="registrants-error" errors={errors} />
      {chosen.length ? (
        <ul className="chosen" aria-label="Chosen customers">
          {chosen.map((c) => (
            <li key={c.value}>
              <label>
                <input type="checkbox" name="registrants" value={c.value} defaultChecked /> {c.label}
              </label>
            </li>
          ))}
        </ul>
      ) : (
        <p className="hint">No customer chosen yet.</p>
      )}
      <div className="customer-search">
        <label htmlFor="customer_q">Find a customer by name or phone</label>
        <input
          id="customer_q"
          name="customer_q"
          type="search"
          autoComplete="off"
          defaultValue={query}
          onInput={(e) => search(e.currentTarget.value)}
          onKeyDown={onKey}
          {...invalid("registrants-error", errors)}
        />
        {!hydrated ? (
          <button type="submit" name="intent" value="search" formNoValidate>
            Search customers
          </button>
        ) : null}
      </div>
      {offered.length ? (
        <ul className="found" aria-label="Customers found">
          {offered.map((c) =>
            hydrated ? (
              <li key={c.value}>
                <button type="button" className="link-button" onClick={() => add(c)}>
                  Add {c.label}
                </button>
              </li>
            ) : (
              <li key={c.value}>
                <label>
                  <input type="checkbox" name="registrants" value={c.value} /> {c.label}
                </label>
              </li>
            ),
          )}
        </ul>
      ) : null}
    </fieldset>
  );
}

/** A conform value as one text, or as a list. */
const one = (v: unknown): string => (typeof v === "string" ? v : Array.isArray(v) ? one(v[v.length - 1]) : "");
const list = (v: unknown): string[] =>
  (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === "string" && x !== "");

export function BroadcastForm({
  result,
  branches,
  chosen,
  found,
  busy,
}: {
  /** The form sent back (values and field errors), or none for an empty form. */
  result?: SubmissionResult<string[]>;
  branches: { id: number; title: string }[];
  chosen: Choice[];
  found: Choice[];
  busy: boolean;
}) {
  const hydrated = useHydrated();
  // Checked by the server (the preview step); conform carries the values sent and the errors back.
  const [form, fields] = useForm<BroadcastValues>({ id: "broadcast", lastResult: result, defaultValue: EMPTY_VALUES });
  const values: BroadcastValues = {
    type: one(fields.type.initialValue) || "ALL",
    text: one(fields.text.initialValue),
    branches: list(fields.branches.initialValue),
    registrants: list(fields.registrants.initialValue),
    mobiles: one(fields.mobiles.initialValue),
    customer_q: one(fields.customer_q.initialValue),
  };
  const errors = {
    type: fields.type.errors,
    text: fields.text.errors,
    branches: fields.branches.errors,
    registrants: fields.registrants.errors,
    mobiles: fields.mobiles.errors,
  };
  // The fields are never controlled: what is typed while the page loads stays; the state follows the fields.
  const [type, setType] = useState<BroadcastType>(isType(values.type) ? values.type : "ALL");
  const [text, setText] = useState(values.text);
  const typeRef = useRef<HTMLSelectElement>(null);
  const textRef = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const t = typeRef.current?.value ?? "";
    if (isType(t)) setType(t);
    setText(textRef.current?.value ?? "");
  }, []);
  // The chosen category's inputs only: as it is picked (JavaScript), or once the form came back from the
  // server (without it); a first plain load shows them all, since nothing can react to the choice there.
  const shows = (t: BroadcastType) => (hydrated || result !== undefined ? type === t : true);
  const formErrors = form.errors;

  return (
    <Form method="post" id={form.id} onSubmit={form.onSubmit} className="card broadcast-form" noValidate>
      {/* Enter in a field sends for the preview (the first submit button is the default one). */}
      <button type="submit" name="intent" value="preview" className="visually-hidden" tabIndex={-1} aria-hidden="true">
        Send
      </button>
      <FormError errors={formErrors} />
      <div className={`field${errors.type?.length ? " invalid" : ""}`}>
        <label htmlFor="sms-type">Category</label>
        <select
          id="sms-type"
          name="type"
          ref={typeRef}
          defaultValue={isType(values.type) ? values.type : "ALL"}
          onChange={(e) => setType(e.currentTarget.value as BroadcastType)}
          {...invalid("type-error", errors.type)}
        >
          {BROADCAST_TYPES.map((t) => (
            <option key={t} value={t}>
              {BROADCAST_TYPE_LABELS[t]}
            </option>
          ))}
        </select>
        {!hydrated ? (
          <small>Fill in the part of the chosen category below; the others are left out.</small>
        ) : type === "ALL" ? (
          <small>Every registered customer and every verified pre-registration, each number once.</small>
        ) : null}
        <Messages id="type-error" errors={errors.type} />
      </div>

      <div className={`field for-branch${errors.branches?.length ? " invalid" : ""}`} hidden={!shows("BRANCH")}>
        <label htmlFor="sms-branches">Branches{!hydrated ? " (category Branch)" : ""}</label>
        <select
          id="sms-branches"
          name="branches"
          multiple
          size={Math.min(8, Math.max(3, branches.length))}
          defaultValue={values.branches}
          {...invalid("branches-error", errors.branches)}
        >
          {branches.map((b) => (
            <option key={b.id} value={b.id}>
              {b.title}
            </option>
          ))}
        </select>
        <small>Customers of these branches, and public pre-registrations naming them as nearest showroom.</small>
        <Messages id="branches-error" errors={errors.branches} />
      </div>

      <div className="for-customer" hidden={!shows("REGISTRANTS")}>
        {!hydrated ? <p className="hint">Category Customer:</p> : null}
        <CustomerPicker chosen={chosen} found={found} query={values.customer_q} errors={errors.registrants} />
      </div>

      <div className={`field for-mobile${errors.mobiles?.length ? " invalid" : ""}`} hidden={!shows("MOBILE")}>
        <label htmlFor="sms-mobiles">Mobile numbers{!hydrated ? " (category Mobile)" : ""}</label>
        <textarea
          id="sms-mobiles"
          name="mobiles"
          rows={3}
          defaultValue={values.mobiles}
          placeholder="98XXXXXXXX, 97XXXXXXXX"
          {...invalid("mobiles-error", errors.mobiles)}
        />
        <small>Separate the numbers with commas.</small>
        <Messages id="mobiles-error" errors={errors.mobiles} />
      </div>

      <div className={`field${errors.text?.length ? " invalid" : ""}`}>
        <label htmlFor="sms-text">Message</label>
        <textarea
          id="sms-text"
          name="text"
          rows={5}
          ref={textRef}
          defaultValue={values.text}
          onInput={(e) => setText(e.currentTarget.value)}
          {...invalid("text-error", errors.text)}
        />
        {hydrated ? <PartsLine text={text} /> : null}
        <Messages id="text-error" errors={errors.text} />
      </div>

      <div className="actions">
        <button type="submit" name="intent" value="preview" className="primary" disabled={busy}>
          {busy ? "Checking…" : "Send"}
        </button>
      </div>
    </Form>
  );
}
