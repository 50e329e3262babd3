/**
 * The fields of the back-office pre-registration form (create and edit),
 * spec 000 §3 and §5. Values and errors come from the server (every post
 * works without JavaScript); with it, the spec's typing filters apply and the
 * screenshot field follows the "shared" box.
 */
import { Link } from "@remix-run/react";
import { useState } from "react";
import { Field, FieldError, SelectField, TextareaField } from "~/components/Field";
import { FILTERS, SOURCE_OPTIONS } from "~/schemas/preregistration";

type Option = { id: number; title: string };
export type PreregValues = Record<string, string | undefined>;

const filterInput = (fn: (v: string) => string) => (e: React.FormEvent<HTMLInputElement>) => {
  const el = e.currentTarget;
  const next = fn(el.value);
  if (next !== el.value) el.value = next;
};

export function PreregistrationFields({
  values,
  errors,
  bikeModels,
  branches,
  phoneLocked = false,
  hasScreenshot = false,
}: {
  values: PreregValues;
  errors: Record<string, string[] | undefined>;
  bikeModels: Option[];
  /** Head office: the branch the pre-registration belongs to. */
  branches: Option[] | null;
  phoneLocked?: boolean;
  hasScreenshot?: boolean;
}) {
  const [shared, setShared] = useState(values.shared === "on" || values.shared === "true");
  const pendingCitizenship = errors.citizenship_no?.[1];
  const pendingPhone = errors.phone?.[1];
  return (
    <div className="form-grid">
      {branches ? (
        <SelectField
          label="Branch"
          name="branch_id"
          required
          placeholder="Select the branch"
          options={branches.map((b) => ({ value: b.id, label: b.title }))}
          defaultValue={values.branch_id}
          errors={errors.branch_id}
        />
      ) : null}
      <Field
        label="Full Name"
        name="name"
        required
        defaultValue={values.name}
        errors={errors.name}
        onInput={filterInput(FILTERS.text)}
      />
      <Field
        label="Address"
        name="address"
        required
        defaultValue={values.address}
        errors={errors.address}
        onInput={filterInput(FILTERS.text)}
      />
      <Field
        label="Email"
        name="email"
        type="email"
        defaultValue={values.email}
        errors={errors.email}
        onInput={filterInput(FILTERS.email)}
      />
      <div className={`field${errors.phone?.length ? " invalid" : ""}`}>
        <label htmlFor="f-phone">
          Phone Number<span className="req"> *</span>
        </label>
        <input
          id="f-phone"
          name="phone"
          inputMode="numeric"
          required
          readOnly={phoneLocked}
          defaultValue={values.phone}
          aria-invalid={errors.phone?.length ? true : undefined}
          onInput={filterInput(FILTERS.digits)}
        />
        {phoneLocked ? <small>The phone of a verified pre-registration cannot change.</small> : null}
        <FieldError id="e-phone" errors={errors.phone} />
        {pendingPhone ? (
          <Link to={`/admin/preregistration/${pendingPhone}/verify`}>Continue its verification</Link>
        ) : null}
      </div>
      <div className={`field${errors.citizenship_no?.length ? " invalid" : ""}`}>
        <label htmlFor="f-citizenship_no">
          Citizenship No/PAN<span className="req"> *</span>
        </label>
        <input
          id="f-citizenship_no"
          name="citizenship_no"
          inputMode="numeric"
          required
          defaultValue={values.citizenship_no}
          aria-invalid={errors.citizenship_no?.length ? true : undefined}
          onInput={filterInput(FILTERS.digits)}
        />
        <FieldError id="e-citizenship_no" errors={errors.citizenship_no} />
        {pendingCitizenship ? <Link to={`/admin/preregistration/${pendingCitizenship}`}>View</Link> : null}
      </div>
      <SelectField
        label="Bike Model"
        name="bike_model_id"
        placeholder="Select a model"
        options={bikeModels.map((m) => ({ value: m.id, label: m.title }))}
        defaultValue={values.bike_model_id}
        errors={errors.bike_model_id}
      />
      <SelectField
        label="Source of information"
        name="source"
        placeholder="Select a source"
        options={SOURCE_OPTIONS.map((s) => ({ value: s, label: s }))}
        defaultValue={values.source}
        errors={errors.source}
      />
      <TextareaField label="Note" name="note" rows={2} defaultValue={values.note} errors={errors.note} />
      <label className="check">
        <input
          type="checkbox"
          name="shared"
          defaultChecked={shared}
          onChange={(e) => setShared(e.currentTarget.checked)}
        />{" "}
        Shared in social media
      </label>
      <div className={`wide screenshot-field${shared ? "" : " when-shared"}`}>
        <Field
          label={hasScreenshot ? "Replace the proof screenshot" : "Proof screenshot"}
          name="screenshot"
          type="file"
          accept="image/jpeg,image/png,image/webp"
          errors={errors.screenshot}
          hint="Shown only when the customer shared the campaign. JPEG, PNG or WebP."
        />
      </div>
      <label className="check">
        <input
          type="checkbox"
          name="send_sms"
          defaultChecked={values.send_sms === undefined ? true : values.send_sms === "on"}
        />{" "}
        Send SMS
      </label>
    </div>
  );
}
