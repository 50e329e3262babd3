/**
 * The public pre-registration form (landing page and /enquiry) and its
 * server-rendered confirmation step. Posts to /enquiry as multipart. Without
 * JavaScript the first post shows "Please Confirm Your Phone Number." (Go Back /
 * Save) and the second saves; with JavaScript the same question is a dialog and
 * the form posts once (PREREG_SCRIPT).
 */
import { Field, FieldError, SelectField, TextareaField } from "~/components/Field";
import { SOURCE_OPTIONS } from "~/schemas/preregistration";
import { HONEYPOT_FIELD_NAME } from "./constants";
import { t, translateErrors, type Lang, type TextKey } from "~/utils/i18n";

export type Option = { id: number; title: string };

export type PreregFormValues = Partial<
  Record<
    | "name"
    | "address"
    | "email"
    | "phone"
    | "citizenship_no"
    | "shared"
    | "bike_model_id"
    | "source"
    | "note"
    | "nearest_branch_id"
    | "form_token"
    | "screenshot_ref",
    string
  >
>;

export const PREREG_FIELDS = [
  "name",
  "address",
  "email",
  "phone",
  "citizenship_no",
  "shared",
  "bike_model_id",
  "source",
  "note",
  "nearest_branch_id",
  "form_token",
  "screenshot_ref",
] as const;

type Props = {
  lang: Lang;
  open: boolean;
  formToken: string;
  values?: PreregFormValues;
  errors?: Record<string, string[]>;
  models: Option[];
  branches: Option[];
  captchaSiteKey: string | null;
  id?: string;
};

export function Captcha({ siteKey, lang, errors }: { siteKey: string | null; lang: Lang; errors?: string[] }) {
  if (!siteKey) return null;
  return (
    <div className="field captcha">
      <span className="label">{t(lang, "common.captcha")}</span>
      <div className="g-recaptcha" data-sitekey={siteKey} />
      <script src={`https://www.google.com/recaptcha/api.js?hl=${lang}`} async defer />
      <FieldError id="e-g-recaptcha-response" errors={errors} />
    </div>
  );
}

export function Honeypot({ lang }: { lang: Lang }) {
  return (
    <div className="hp" aria-hidden="true">
      <label>
        {t(lang, "common.honeypot")}
        <input type="text" name={HONEYPOT_FIELD_NAME} tabIndex={-1} autoComplete="off" defaultValue="" />
      </label>
    </div>
  );
}

/** A form-level message (closed, rate limited, rejected). */
export function FormBanner({ messages }: { messages?: string[] }) {
  if (!messages?.length) return null;
  return (
    <p className="banner banner-error" role="alert">
      {messages[0]}
    </p>
  );
}

export function PreregistrationForm({
  lang,
  open,
  formToken,
  values = {},
  errors: rawErrors,
  models,
  branches,
  captchaSiteKey,
  id,
}: Props) {
  const errors = translateErrors(lang, rawErrors);
  const pendingCitizenship = rawErrors?.citizenship_no?.[1];
  const pendingPhone = rawErrors?.phone?.[1];
  const choose = t(lang, "common.choose");
  return (
    <form
      method="post"
      action="/enquiry"
      encType="multipart/form-data"
      className="prereg-form"
      data-prereg=""
      id={id}
      noValidate={false}
    >
      {!open ? (
        <p className="banner banner-closed" role="status">
          {t(lang, "landing.closedBanner")}
        </p>
      ) : (
        <FormBanner messages={errors.form} />
      )}
      <input type="hidden" name="form_token" value={values.form_token || formToken} />
      {values.screenshot_ref ? <input type="hidden" name="screenshot_ref" value={values.screenshot_ref} /> : null}
      <Field
        label={t(lang, "form.name")}
        name="name"
        required
        errors={errors.name}
        defaultValue={values.name}
        autoComplete="name"
        maxLength={100}
        data-filter="text"
      />
      <Field
        label={t(lang, "form.address")}
        name="address"
        required
        errors={errors.address}
        defaultValue={values.address}
        autoComplete="street-address"
        maxLength={200}
        data-filter="text"
      />
      <Field
        label={t(lang, "form.email")}
        name="email"
        type="email"
        errors={errors.email}
        defaultValue={values.email}
        autoComplete="email"
        maxLength={100}
        data-filter="email"
      />
      <div className={`field${errors.phone ? " invalid" : ""}`}>
        <label htmlFor="f-phone">
          {t(lang, "form.phone")}
          <span className="req"> *</span>
        </label>
        <input
          id="f-phone"
          name="phone"
          type="tel"
          inputMode="numeric"
          autoComplete="tel-national"
          required
          maxLength={14}
          placeholder="98XXXXXXXX"
          defaultValue={values.phone}
          data-filter="digits"
          aria-invalid={errors.phone ? true : undefined}
          aria-describedby={errors.phone ? "e-phone" : undefined}
        />
        <FieldError id="e-phone" errors={errors.phone} />
        {pendingPhone ? (
          <a className="error-link" href={`/enquiry/${encodeURIComponent(pendingPhone)}/verify`}>
            {t(lang, "form.continue")}
          </a>
        ) : null}
      </div>
      <div className={`field${errors.citizenship_no ? " invalid" : ""}`}>
        <label htmlFor="f-citizenship_no">
          {t(lang, "form.citizenship")}
          <span className="req"> *</span>
        </label>
        <input
          id="f-citizenship_no"
          name="citizenship_no"
          inputMode="numeric"
          required
          maxLength={20}
          defaultValue={values.citizenship_no}
          data-filter="digits"
          aria-invalid={errors.citizenship_no ? true : undefined}
          aria-describedby={errors.citizenship_no ? "e-citizenship_no" : undefined}
        />
        <FieldError id="e-citizenship_no" errors={errors.citizenship_no} />
        {pendingCitizenship ? (
          <a className="error-link" href={`/enquiry/${encodeURIComponent(pendingCitizenship)}/verify`}>
            {t(lang, "form.view")}
          </a>
        ) : null}
      </div>
      <SelectField
        label={t(lang, "form.nearest")}
        name="nearest_branch_id"
        required
        errors={errors.nearest_branch_id}
        defaultValue={values.nearest_branch_id ?? ""}
        placeholder={choose}
        options={branches.map((b) => ({ value: b.id, label: b.title }))}
      />
      <SelectField
        label={t(lang, "form.bikeModel")}
        name="bike_model_id"
        errors={errors.bike_model_id}
        defaultValue={values.bike_model_id ?? ""}
        placeholder={choose}
        options={models.map((m) => ({ value: m.id, label: m.title }))}
      />
      <SelectField
        label={t(lang, "form.source")}
        name="source"
        errors={errors.source}
        defaultValue={values.source ?? ""}
        placeholder={choose}
        options={SOURCE_OPTIONS.map((s) => ({ value: s, label: t(lang, `source.${s}` as TextKey) }))}
      />
      <TextareaField
        label={t(lang, "form.note")}
        name="note"
        errors={errors.note}
        defaultValue={values.note}
        rows={2}
        maxLength={1000}
      />
      <label className="check">
        <input type="checkbox" name="shared" id="f-shared" defaultChecked={values.shared === "on"} />{" "}
        {t(lang, "form.shared")}
      </label>
      <div className={`field screenshot-field${errors.screenshot ? " invalid" : ""}`}>
        <label htmlFor="f-screenshot">{t(lang, "form.screenshot")}</label>
        <input id="f-screenshot" name="screenshot" type="file" accept="image/jpeg,image/png,image/webp" data-bound="" />
        <small>{values.screenshot_ref ? t(lang, "form.screenshotKept") : t(lang, "form.screenshotHint")}</small>
        <FieldError id="e-screenshot" errors={errors.screenshot} />
      </div>
      <Captcha siteKey={captchaSiteKey} lang={lang} errors={errors["g-recaptcha-response"]} />
      <Honeypot lang={lang} />
      <div className="actions">
        <button type="submit" name="intent" value="review" className="primary" disabled={!open}>
          {t(lang, "form.save")}
        </button>
      </div>
      <dialog className="confirm-dialog" data-confirm="" aria-labelledby={`${id ?? "prereg"}-confirm-title`}>
        <h2 id={`${id ?? "prereg"}-confirm-title`}>{t(lang, "confirm.title")}</h2>
        <p>{t(lang, "confirm.text")}</p>
        <p className="confirm-number" data-phone="" />
        <div className="actions">
          <button type="button" data-back="">
            {t(lang, "confirm.goBack")}
          </button>
          <button type="button" className="primary" data-save="">
            {t(lang, "form.save")}
          </button>
        </div>
      </dialog>
    </form>
  );
}

/** The confirmation step without JavaScript: the checked values travel as hidden fields. */
export function PhoneConfirmStep({
  lang,
  values,
  captchaSiteKey,
  errors,
}: {
  lang: Lang;
  values: PreregFormValues;
  captchaSiteKey: string | null;
  errors?: Record<string, string[]>;
}) {
  return (
    <form method="post" action="/enquiry" className="confirm-step" aria-labelledby="confirm-step-title">
      {PREREG_FIELDS.map((k) => (values[k] ? <input key={k} type="hidden" name={k} value={values[k]} /> : null))}
      <h2 id="confirm-step-title">{t(lang, "confirm.title")}</h2>
      <p>{t(lang, "confirm.text")}</p>
      <p className="confirm-number">{values.phone}</p>
      <Captcha siteKey={captchaSiteKey} lang={lang} errors={translateErrors(lang, errors)["g-recaptcha-response"]} />
      <div className="actions">
        <button type="submit" name="intent" value="back" formNoValidate>
          {t(lang, "confirm.goBack")}
        </button>
        <button type="submit" name="intent" value="save" className="primary">
          {t(lang, "form.save")}
        </button>
      </div>
    </form>
  );
}
