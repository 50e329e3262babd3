/**
 * "Book a Ride": type, full name, state, district, city, email, phone, model,
 * branch and the captcha, through conform (useForm with the action's
 * lastResult: the values sent come back with the server's errors under their
 * fields). The cascade narrows on the server from the values sent when
 * "Update choices" is pressed (no JavaScript) and at once in the browser
 * (CASCADE_SCRIPT). Errors: the spec's booking fields; the city field shows
 * the district error (spec 001 §8), and its own error when the district has none.
 *
 * The public pages ship no framework bundle: the form renders on the server
 * only, so the browser's own required checks and the server's answer are its
 * validation.
 */
import { getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Field, FieldError, SelectField } from "~/components/Field";
import { narrowBooking, type BookingBranch } from "~/models/booking-cascade";
import { t, translateErrors, type Lang } from "~/utils/i18n";
import { Captcha, ErrorSummary, FormBanner, Honeypot, type Option } from "./PreregistrationForm";
import { CloseLink } from "./PublicShell";
import { titledOptions } from "~/utils/options";

export type BookingDefaults = Partial<
  Record<"type" | "bike_model_id" | "utm_source" | "state" | "district" | "city", string>
>;

const FIELDS = ["type", "name", "state", "district", "city", "email", "phone", "bike_model_id", "branch_id"] as const;
const CAPTCHA = "g-recaptcha-response";
/** The error summary's order: the page's (captcha last). */
const SUMMARY_ORDER = [...FIELDS, CAPTCHA] as const;

/** The form's values as conform sees them: strings as sent. */
type BookingShape = Record<(typeof FIELDS)[number] | "utm_source" | "form_token" | typeof CAPTCHA, string>;

const str = (v: unknown): string => (typeof v === "string" ? v : Array.isArray(v) ? str(v[v.length - 1]) : "");

export function BookingForm({
  lang,
  lastResult,
  defaultValue,
  allBranches,
  models,
  formToken,
  captchaSiteKey,
}: {
  lang: Lang;
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue: BookingDefaults;
  allBranches: BookingBranch[];
  models: Option[];
  formToken: string;
  captchaSiteKey: string | null;
}) {
  const [form, fields] = useForm<BookingShape>({ id: "bk", lastResult: lastResult ?? undefined, defaultValue });
  const sent = (name: keyof BookingShape) => str(fields[name].initialValue);
  const errors = translateErrors(lang, {
    ...Object.fromEntries(FIELDS.map((name) => [name, fields[name].errors ?? []])),
    [CAPTCHA]: fields[CAPTCHA].errors ?? [],
    form: form.errors ?? [],
  });
  const cascade = narrowBooking(allBranches, {
    state: sent("state"),
    district: sent("district"),
    city: sent("city"),
    branch_id: sent("branch_id"),
  });
  const sel = cascade.selection;
  const type = sent("type") === "BOOKING" ? "BOOKING" : "TESTRIDE";
  const choose = t(lang, "common.choose");
  const utm = sent("utm_source");
  const labels: Record<(typeof SUMMARY_ORDER)[number], string> = {
    type: t(lang, "book.type"),
    name: t(lang, "form.name"),
    state: t(lang, "book.state"),
    district: t(lang, "book.district"),
    city: t(lang, "book.city"),
    email: t(lang, "form.email"),
    phone: t(lang, "form.phone"),
    bike_model_id: t(lang, "book.model"),
    branch_id: t(lang, "book.branch"),
    [CAPTCHA]: t(lang, "common.captcha"),
  };
  // What to fix, in page order, each a link to its field (the first radio for the type).
  const summary = SUMMARY_ORDER.flatMap((name) => {
    const message = errors[name]?.[0];
    // A city is chosen after its district: while the district is missing, its error stands for both.
    if (!message || (name === "city" && errors.district)) return [];
    const id = name === CAPTCHA ? `e-${CAPTCHA}` : name === "type" ? `${fields.type.id}-TESTRIDE` : fields[name].id;
    return [{ id, label: labels[name], message }];
  });
  return (
    <form
      method="post"
      action="/book-a-ride"
      id={form.id}
      className="booking-form"
      data-cascade={JSON.stringify(allBranches)}
      data-placeholder={choose}
    >
      <FormBanner messages={errors.form} />
      <ErrorSummary lang={lang} items={summary} />
      <input type="hidden" name="form_token" value={sent("form_token") || formToken} />
      {utm ? <input type="hidden" name="utm_source" value={utm} /> : null}
      <fieldset className={`choice${errors.type ? " invalid" : ""}`}>
        <legend>{t(lang, "book.type")}</legend>
        {(["TESTRIDE", "BOOKING"] as const).map((v) => (
          <label key={v} className="radio">
            <input
              {...getInputProps(fields.type, { type: "radio", value: v })}
              id={`${fields.type.id}-${v}`}
              defaultChecked={type === v}
            />{" "}
            {t(lang, `book.${v}`)}
          </label>
        ))}
        <FieldError id={fields.type.errorId} errors={errors.type} />
      </fieldset>
      <Field
        {...getInputProps(fields.name, { type: "text" })}
        label={t(lang, "form.name")}
        required
        errors={errors.name}
        autoComplete="name"
        maxLength={100}
      />
      <SelectField
        {...getSelectProps(fields.state)}
        key={`s-${sel.state}`}
        label={t(lang, "book.state")}
        required
        errors={errors.state}
        defaultValue={sel.state}
        placeholder={choose}
        options={cascade.states.map((s) => ({ value: s, label: s }))}
      />
      <SelectField
        {...getSelectProps(fields.district)}
        key={`d-${sel.state}-${sel.district}`}
        label={t(lang, "book.district")}
        required
        errors={errors.district}
        defaultValue={sel.district}
        placeholder={choose}
        options={cascade.districts.map((s) => ({ value: s, label: s }))}
      />
      <SelectField
        {...getSelectProps(fields.city)}
        key={`c-${sel.district}-${sel.city}`}
        label={t(lang, "book.city")}
        required
        errors={errors.district ?? errors.city}
        defaultValue={sel.city}
        placeholder={choose}
        options={cascade.cities.map((s) => ({ value: s, label: s }))}
      />
      <div className="nojs-only cascade-update">
        <button type="submit" name="intent" value="refresh" formNoValidate>
          {t(lang, "book.update")}
        </button>
        <small>{t(lang, "book.updateHint")}</small>
      </div>
      <Field
        {...getInputProps(fields.email, { type: "email" })}
        label={t(lang, "form.email")}
        errors={errors.email}
        autoComplete="email"
        maxLength={100}
      />
      <Field
        {...getInputProps(fields.phone, { type: "tel" })}
        label={t(lang, "form.phone")}
        inputMode="numeric"
        required
        maxLength={14}
        placeholder="98XXXXXXXX"
        errors={errors.phone}
        autoComplete="tel-national"
      />
      <SelectField
        {...getSelectProps(fields.bike_model_id)}
        label={t(lang, "book.model")}
        required
        errors={errors.bike_model_id}
        defaultValue={sent("bike_model_id")}
        placeholder={choose}
        options={titledOptions(models)}
      />
      <SelectField
        {...getSelectProps(fields.branch_id)}
        key={`b-${sel.city}-${sel.branch_id}`}
        label={t(lang, "book.branch")}
        required
        errors={errors.branch_id}
        defaultValue={sel.branch_id ?? ""}
        placeholder={choose}
        options={titledOptions(cascade.branches)}
      />
      <Captcha siteKey={captchaSiteKey} lang={lang} errors={errors[CAPTCHA]} />
      <Honeypot lang={lang} />
      <div className="actions">
        <CloseLink>{t(lang, "common.cancel")}</CloseLink>
        <button type="submit" name="intent" value="book" className="primary">
          {t(lang, "common.submit")}
        </button>
      </div>
    </form>
  );
}
