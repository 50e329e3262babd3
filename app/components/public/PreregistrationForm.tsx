/**
 * The public pre-registration form (landing page and /enquiry) and its
 * server-rendered confirmation step. Posts to /enquiry as multipart. Without
 * JavaScript the first post shows "Please Confirm Your Phone Number." (Go Back /
 * Save) and the second saves; with JavaScript the same question is a dialog and
 * the form posts once (PREREG_SCRIPT).
 *
 * The fields are conform's (ids, names, values and errors from the server's
 * `lastResult`), rendered on the server only: public pages ship no framework
 * bundle, so nothing in the browser re-renders or resets what a visitor types.
 *
 * A phone that is already pre-registered gets its message and, for its owner,
 * "We can send a code to 98XXXXXX12 to continue": a button posting the phone
 * (urlencoded, so no screenshot travels) to /enquiry/continue. The form never
 * links to another entry.
 */
import { getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Field, FieldError, SelectField, TextareaField } from "~/components/Field";
import { FILTERS, PREREGISTRATION_MESSAGES, SOURCE_OPTIONS } from "~/schemas/preregistration";
import { t, tm, type Lang } from "~/utils/i18n";
import { labelOptions } from "~/utils/labels";
import { maskPhone, normalizePhone } from "~/utils/phone";
import { HONEYPOT_FIELD_NAME } from "./constants";
import { PendingPurchaseHelp } from "./PendingPurchaseHelp";
import { titledOptions } from "~/utils/options";
import { IMAGE_TOO_LARGE, IMAGE_WRONG_TYPE } from "~/schemas/image";

export type Option = { id: number; title: string };

export type PreregResult = SubmissionResult<string[]>;

type Props = {
  lang: Lang;
  open: boolean;
  formToken: string;
  /** The last post's values and errors (conform's SubmissionResult). */
  lastResult?: PreregResult | null;
  models: Option[];
  branches: Option[];
  captchaSiteKey: string | null;
  id?: string;
  /** Changing an unverified entry of this browser ("Wrong number? Change it"): its slug. */
  change?: string | null;
};

/** The fields in page order, for the error summary (captcha last). */
const SUMMARY_ORDER = [
  "name",
  "address",
  "email",
  "phone",
  "citizenship_no",
  "nearest_branch_id",
  "bike_model_id",
  "source",
  "note",
  "screenshot",
  "g-recaptcha-response",
] as const;

/**
 * After a refused post: a short list of what to fix, first in the form, each
 * item a link to its field. The form posts to /enquiry#form-errors, so without
 * JavaScript the page opens on it; with JavaScript it also takes the focus.
 */
export function ErrorSummary({ lang, items }: { lang: Lang; items: { id: string; label: string; message: string }[] }) {
  if (!items.length) return null;
  return (
    <div className="error-summary" id="form-errors" tabIndex={-1} role="alert" aria-labelledby="form-errors-title">
      <h2 id="form-errors-title">{t(lang, "form.errorSummary")}</h2>
      <ul>
        {items.map((item) => (
          <li key={item.id}>
            <a href={`#${item.id}`}>{item.label}</a>: {item.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The global function reCAPTCHA's widget calls when its answer expires (defined by the common script). */
export const CAPTCHA_EXPIRED_CALLBACK = "captchaExpired";

export function Captcha({ siteKey, lang, errors }: { siteKey: string | null; lang: Lang; errors?: string[] }) {
  if (!siteKey) return null;
  return (
    <div className="field captcha">
      <span className="label">{t(lang, "common.captcha")}</span>
      {/* An expired answer resets the widget at once (captchaExpired: app/browser/common.ts). */}
      <div className="g-recaptcha" data-sitekey={siteKey} data-expired-callback={CAPTCHA_EXPIRED_CALLBACK} />
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

/** A field's messages in the visitor's language. */
const translated = (lang: Lang, errors: string[] | undefined) =>
  errors?.length ? errors.map((m) => tm(lang, m)) : undefined;

/** The server's value of a field as text. */
const textOf = (value: unknown): string | undefined => (typeof value === "string" && value ? value : undefined);

export function PreregistrationForm({
  lang,
  open,
  formToken,
  lastResult,
  models,
  branches,
  captchaSiteKey,
  id = "prereg",
  change = null,
}: Props) {
  const [form, fields] = useForm({ id, lastResult: lastResult ?? undefined });
  const err = (name: string) =>
    translated(lang, (fields as unknown as Record<string, { errors?: string[] }>)[name]?.errors);
  // The phone is someone's already: its owner may continue with a code sent to it (nothing of that entry shows here).
  const takenPhone =
    fields.phone.errors?.[0] === PREREGISTRATION_MESSAGES.phoneTaken
      ? normalizePhone(FILTERS.digits(textOf(fields.phone.initialValue) ?? ""))
      : null;
  const screenshotRef = textOf(fields.screenshot_ref.initialValue);
  const changing =
    change ?? textOf((fields as unknown as Record<string, { initialValue?: unknown }>).change?.initialValue) ?? null;
  const choose = t(lang, "common.choose");
  const M = PREREGISTRATION_MESSAGES;
  const msg = (m: string) => tm(lang, m);
  const labels: Record<(typeof SUMMARY_ORDER)[number], string> = {
    name: t(lang, "form.name"),
    address: t(lang, "form.address"),
    email: t(lang, "form.email"),
    phone: t(lang, "form.phone"),
    citizenship_no: t(lang, "form.citizenship"),
    nearest_branch_id: t(lang, "form.nearest"),
    bike_model_id: t(lang, "form.bikeModel"),
    source: t(lang, "form.source"),
    note: t(lang, "form.note"),
    screenshot: t(lang, "form.screenshot"),
    "g-recaptcha-response": t(lang, "common.captcha"),
  };
  const summary = open
    ? SUMMARY_ORDER.flatMap((name) => {
        const first = err(name)?.[0];
        if (!first) return [];
        const target =
          name === "g-recaptcha-response"
            ? "e-g-recaptcha-response"
            : ((fields as unknown as Record<string, { id: string }>)[name]?.id ?? name);
        return [{ id: target, label: labels[name], message: first }];
      })
    : [];
  return (
    <form
      method="post"
      action="/enquiry#form-errors"
      encType="multipart/form-data"
      className="prereg-form"
      data-prereg=""
      id={form.id}
    >
      {!open ? (
        <>
          <p className="banner banner-closed" role="status">
            {t(lang, "landing.closedBanner")}
          </p>
          <p>{t(lang, "form.closed")}</p>
        </>
      ) : (
        <>
          <FormBanner messages={form.errors?.map((m) => tm(lang, m))} />
          <ErrorSummary lang={lang} items={summary} />
          <p className="req-note">{t(lang, "common.required")}</p>
        </>
      )}
      <fieldset className="form-fields" disabled={!open}>
        <input type="hidden" name="form_token" value={textOf(fields.form_token.initialValue) ?? formToken} />
        {changing ? <input type="hidden" name="change" value={changing} /> : null}
        {screenshotRef ? <input type="hidden" name="screenshot_ref" value={screenshotRef} /> : null}
        <Field
          label={t(lang, "form.name")}
          {...getInputProps(fields.name, { type: "text" })}
          required
          errors={err("name")}
          autoComplete="name"
          maxLength={100}
          data-filter="text"
          data-msg-required={msg(M.name)}
        />
        <Field
          label={t(lang, "form.address")}
          {...getInputProps(fields.address, { type: "text" })}
          required
          errors={err("address")}
          autoComplete="street-address"
          maxLength={200}
          data-filter="address"
          data-msg-required={msg(M.address)}
        />
        <Field
          label={t(lang, "form.email")}
          {...getInputProps(fields.email, { type: "email" })}
          errors={err("email")}
          autoComplete="email"
          maxLength={100}
          data-filter="email"
          data-pattern="^[A-Za-z0-9._-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$"
          data-msg-invalid={msg(M.email)}
        />
        <Field
          label={t(lang, "form.phone")}
          {...getInputProps(fields.phone, { type: "tel" })}
          required
          errors={err("phone")}
          inputMode="numeric"
          autoComplete="tel-national"
          maxLength={14}
          placeholder="98XXXXXXXX"
          data-filter="digits"
          data-pattern="^(977)?9\d{9}$"
          data-msg-required={msg(M.phoneRequired)}
          data-msg-invalid={msg(M.phoneInvalid)}
        />
        {takenPhone ? (
          <p className="continue-offer">
            {t(lang, "form.continueOffer", { phone: maskPhone(takenPhone) })}{" "}
            <button
              type="submit"
              formAction="/enquiry/continue"
              formEncType="application/x-www-form-urlencoded"
              formNoValidate
              name="intent"
              value="send"
            >
              {t(lang, "form.sendCode")}
            </button>
          </p>
        ) : null}
        <Field
          label={t(lang, "form.citizenship")}
          {...getInputProps(fields.citizenship_no, { type: "text" })}
          required
          errors={err("citizenship_no")}
          inputMode="numeric"
          maxLength={20}
          data-filter="digits"
          data-pattern="^\d{4,20}$"
          data-msg-required={msg(M.citizenshipRequired)}
          data-msg-invalid={msg(M.citizenshipInvalid)}
        />
        <PendingPurchaseHelp lang={lang} error={fields.citizenship_no.errors?.[0]} />
        <SelectField
          label={t(lang, "form.nearest")}
          {...getSelectProps(fields.nearest_branch_id)}
          required
          errors={err("nearest_branch_id")}
          data-msg-required={msg(M.nearestBranch)}
          placeholder={choose}
          options={titledOptions(branches)}
        />
        <SelectField
          label={t(lang, "form.bikeModel")}
          {...getSelectProps(fields.bike_model_id)}
          errors={err("bike_model_id")}
          placeholder={choose}
          options={titledOptions(models)}
        />
        <SelectField
          label={t(lang, "form.source")}
          {...getSelectProps(fields.source)}
          errors={err("source")}
          placeholder={choose}
          options={labelOptions("source", SOURCE_OPTIONS, lang)}
        />
        <TextareaField
          label={t(lang, "form.note")}
          {...getTextareaProps(fields.note)}
          errors={err("note")}
          rows={2}
          maxLength={1000}
        />
        <label className="check">
          <input {...getInputProps(fields.shared, { type: "checkbox" })} /> {t(lang, "form.shared")}
        </label>
        <div className="screenshot-field">
          <Field
            label={t(lang, "form.screenshot")}
            required={false}
            star
            data-msg-required={msg(M.screenshotRequired)}
            data-msg-type={msg(IMAGE_WRONG_TYPE)}
            data-msg-large={msg(IMAGE_TOO_LARGE)}
            data-msg-shrunk={t(lang, "form.screenshotShrunk")}
            {...getInputProps(fields.screenshot, { type: "file" })}
            errors={err("screenshot")}
            accept="image/jpeg,image/png,image/webp"
            data-bound=""
            hint={screenshotRef ? t(lang, "form.screenshotKept") : t(lang, "form.screenshotHint")}
          />
        </div>
        <Captcha siteKey={captchaSiteKey} lang={lang} errors={err("g-recaptcha-response")} />
        <Honeypot lang={lang} />
      </fieldset>
      <div className="actions">
        <button type="submit" name="intent" value="review" className="primary" disabled={!open}>
          {t(lang, "form.save")}
        </button>
      </div>
      <dialog className="confirm-dialog" data-confirm="" aria-labelledby={`${form.id}-confirm-title`}>
        <h2 id={`${form.id}-confirm-title`}>{t(lang, "confirm.title")}</h2>
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

/**
 * The confirmation step without JavaScript: the checked values travel as
 * hidden fields, read from the last post's result (the values the server
 * checked, the phone as stored and the stored screenshot's reference).
 */
export function PhoneConfirmStep({
  lang,
  lastResult,
  captchaSiteKey,
}: {
  lang: Lang;
  lastResult: PreregResult;
  captchaSiteKey: string | null;
}) {
  const values = Object.entries(lastResult.initialValue ?? {}).filter(
    (entry): entry is [string, string] => typeof entry[1] === "string",
  );
  const phone = values.find(([k]) => k === "phone")?.[1] ?? "";
  return (
    <form method="post" action="/enquiry" className="confirm-step" aria-labelledby="confirm-step-title">
      {values.map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <h2 id="confirm-step-title">{t(lang, "confirm.title")}</h2>
      <p>{t(lang, "confirm.text")}</p>
      <p className="confirm-number">{phone}</p>
      <Captcha siteKey={captchaSiteKey} lang={lang} />
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
