/**
 * "Book a Ride": type, full name, state, district, city, email, phone, model,
 * branch and the captcha. The cascade narrows on the server when "Update
 * choices" is pressed (no JavaScript) and at once in the browser (CASCADE_SCRIPT).
 * Errors: the spec's booking fields; the city field shows the district error (spec 001 §8),
 * and its own error when the district has none.
 */
import { t, translateErrors, type Lang } from "~/utils/i18n";
import { Field, FieldError, SelectField } from "~/components/Field";
import { Captcha, FormBanner, Honeypot, type Option } from "./PreregistrationForm";

export type BookingBranchOption = { id: number; title: string; state: string; district: string; city: string };

export type BookingCascadeView = {
  states: string[];
  districts: string[];
  cities: string[];
  branches: BookingBranchOption[];
  selection: { state: string; district: string; city: string; branch_id: number | null };
};

export type BookingValues = Partial<
  Record<"type" | "name" | "email" | "phone" | "bike_model_id" | "utm_source" | "form_token", string>
>;

export function BookingForm({
  lang,
  values,
  errors: rawErrors,
  cascade,
  allBranches,
  models,
  formToken,
  captchaSiteKey,
}: {
  lang: Lang;
  values: BookingValues;
  errors?: Record<string, string[]>;
  cascade: BookingCascadeView;
  allBranches: BookingBranchOption[];
  models: Option[];
  formToken: string;
  captchaSiteKey: string | null;
}) {
  const errors = translateErrors(lang, rawErrors);
  const choose = t(lang, "common.choose");
  const sel = cascade.selection;
  const type = values.type === "BOOKING" ? "BOOKING" : "TESTRIDE";
  return (
    <form
      method="post"
      action="/book-a-ride"
      className="booking-form"
      data-cascade={JSON.stringify(allBranches)}
      data-placeholder={choose}
    >
      <FormBanner messages={errors.form} />
      <input type="hidden" name="form_token" value={values.form_token || formToken} />
      {values.utm_source ? <input type="hidden" name="utm_source" value={values.utm_source} /> : null}
      <fieldset className={`choice${errors.type ? " invalid" : ""}`}>
        <legend>{t(lang, "book.type")}</legend>
        {(["TESTRIDE", "BOOKING"] as const).map((v) => (
          <label key={v} className="radio">
            <input type="radio" name="type" value={v} defaultChecked={type === v} /> {t(lang, `book.${v}`)}
          </label>
        ))}
        <FieldError errors={errors.type} />
      </fieldset>
      <Field
        id="bk-name"
        label={t(lang, "form.name")}
        name="name"
        required
        errors={errors.name}
        defaultValue={values.name}
        autoComplete="name"
        maxLength={100}
      />
      <SelectField
        key={`s-${sel.state}`}
        id="bk-state"
        label={t(lang, "book.state")}
        name="state"
        required
        errors={errors.state}
        defaultValue={sel.state}
        placeholder={choose}
        options={cascade.states.map((s) => ({ value: s, label: s }))}
      />
      <SelectField
        key={`d-${sel.state}-${sel.district}`}
        id="bk-district"
        label={t(lang, "book.district")}
        name="district"
        required
        errors={errors.district}
        defaultValue={sel.district}
        placeholder={choose}
        options={cascade.districts.map((s) => ({ value: s, label: s }))}
      />
      <SelectField
        key={`c-${sel.district}-${sel.city}`}
        id="bk-city"
        label={t(lang, "book.city")}
        name="city"
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
        id="bk-email"
        label={t(lang, "form.email")}
        name="email"
        type="email"
        errors={errors.email}
        defaultValue={values.email}
        autoComplete="email"
        maxLength={100}
      />
      <Field
        id="bk-phone"
        label={t(lang, "form.phone")}
        name="phone"
        type="tel"
        inputMode="numeric"
        required
        maxLength={14}
        placeholder="98XXXXXXXX"
        errors={errors.phone}
        defaultValue={values.phone}
        autoComplete="tel-national"
      />
      <SelectField
        id="bk-model"
        label={t(lang, "book.model")}
        name="bike_model_id"
        required
        errors={errors.bike_model_id}
        defaultValue={values.bike_model_id ?? ""}
        placeholder={choose}
        options={models.map((m) => ({ value: m.id, label: m.title }))}
      />
      <SelectField
        key={`b-${sel.city}-${sel.branch_id}`}
        id="bk-branch"
        label={t(lang, "book.branch")}
        name="branch_id"
        required
        errors={errors.branch_id}
        defaultValue={sel.branch_id ?? ""}
        placeholder={choose}
        options={cascade.branches.map((b) => ({ value: b.id, label: b.title }))}
      />
      <Captcha siteKey={captchaSiteKey} lang={lang} errors={errors["g-recaptcha-response"]} />
      <Honeypot lang={lang} />
      <div className="actions">
        <a href="/" className="button" data-close="">
          {t(lang, "common.cancel")}
        </a>
        <button type="submit" name="intent" value="book" className="primary">
          {t(lang, "common.submit")}
        </button>
      </div>
    </form>
  );
}
