/**
 * The fields of the back-office pre-registration form (create and edit),
 * spec 000 §3 and §5, as conform fields: ids, names, values and errors come
 * from the form's metadata (the server's `lastResult`, so every post works
 * without JavaScript). With JavaScript the spec's typing filters apply and the
 * screenshot field follows the "shared" box.
 */
import { getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import { Link } from "@remix-run/react";
import { useState } from "react";
import { Field, SelectField, TextareaField } from "~/components/Field";
import { FILTERS, SOURCE_OPTIONS } from "~/schemas/preregistration";
import { labelOptions } from "~/utils/labels";
import { titledOptions } from "~/utils/options";

type Option = { id: number; title: string };

/** The conform fields of the form, by name (the schemas of create and edit share them). */
export type PreregFieldset = Record<
  | "branch_id"
  | "name"
  | "address"
  | "email"
  | "phone"
  | "citizenship_no"
  | "bike_model_id"
  | "source"
  | "note"
  | "shared"
  | "screenshot"
  | "send_sms",
  FieldMetadata<unknown>
>;

const filterInput = (fn: (v: string) => string) => (e: React.FormEvent<HTMLInputElement>) => {
  const el = e.currentTarget;
  const next = fn(el.value);
  if (next !== el.value) el.value = next;
};

const ticked = (value: unknown, fallback: boolean) => {
  const last = Array.isArray(value) ? value[value.length - 1] : value;
  if (last === undefined || last === null) return fallback;
  return last === "on" || last === "true" || last === true;
};

export function PreregistrationFields({
  fields,
  bikeModels,
  branches,
  branchRequired = true,
  phoneLocked = false,
  hasScreenshot = false,
}: {
  fields: PreregFieldset;
  /** Creating, head office must choose the branch; editing, an empty choice keeps it. */
  branchRequired?: boolean;
  bikeModels: Option[];
  /** Head office: the branch the pre-registration belongs to. */
  branches: Option[] | null;
  phoneLocked?: boolean;
  hasScreenshot?: boolean;
}) {
  const [shared, setShared] = useState(ticked(fields.shared.initialValue, false));
  const pendingCitizenship = fields.citizenship_no.errors?.[1];
  const pendingPhone = fields.phone.errors?.[1];
  return (
    <div className="form-grid">
      {branches ? (
        <SelectField
          label="Branch"
          {...getSelectProps(fields.branch_id)}
          required={branchRequired}
          placeholder={branchRequired ? "Select the branch" : "Keep as it is"}
          options={titledOptions(branches)}
          errors={fields.branch_id.errors}
        />
      ) : null}
      <Field
        label="Full Name"
        {...getInputProps(fields.name, { type: "text" })}
        required
        errors={fields.name.errors}
        onInput={filterInput(FILTERS.text)}
      />
      <Field
        label="Address"
        {...getInputProps(fields.address, { type: "text" })}
        required
        errors={fields.address.errors}
        onInput={filterInput(FILTERS.address)}
      />
      <Field
        label="Email"
        {...getInputProps(fields.email, { type: "email" })}
        errors={fields.email.errors}
        onInput={filterInput(FILTERS.email)}
      />
      <Field
        label="Phone Number"
        {...getInputProps(fields.phone, { type: "text" })}
        required
        inputMode="numeric"
        readOnly={phoneLocked}
        errors={fields.phone.errors}
        onInput={filterInput(FILTERS.digits)}
        hint={
          phoneLocked ? (
            "The phone of a verified pre-registration cannot change."
          ) : pendingPhone ? (
            <Link to={`/admin/preregistration/${pendingPhone}/verify`}>Continue its verification</Link>
          ) : undefined
        }
      />
      <Field
        label="Citizenship No/PAN"
        {...getInputProps(fields.citizenship_no, { type: "text" })}
        required
        inputMode="numeric"
        errors={fields.citizenship_no.errors}
        onInput={filterInput(FILTERS.digits)}
        hint={pendingCitizenship ? <Link to={`/admin/preregistration/${pendingCitizenship}`}>View</Link> : undefined}
      />
      <SelectField
        label="Bike Model"
        {...getSelectProps(fields.bike_model_id)}
        placeholder="Select a model"
        options={titledOptions(bikeModels)}
        errors={fields.bike_model_id.errors}
      />
      <SelectField
        label="Source of information"
        {...getSelectProps(fields.source)}
        placeholder="Select a source"
        options={labelOptions("source", SOURCE_OPTIONS)}
        errors={fields.source.errors}
      />
      <TextareaField label="Note" {...getTextareaProps(fields.note)} rows={2} errors={fields.note.errors} />
      <label className="check">
        <input
          {...getInputProps(fields.shared, { type: "checkbox" })}
          onChange={(e) => setShared(e.currentTarget.checked)}
        />{" "}
        Shared in social media
      </label>
      <div className={`wide screenshot-field${shared ? "" : " when-shared"}`}>
        <Field
          label={hasScreenshot ? "Replace the proof screenshot" : "Proof screenshot"}
          {...getInputProps(fields.screenshot, { type: "file" })}
          accept="image/jpeg,image/png,image/webp"
          errors={fields.screenshot.errors}
          hint="Shown only when the customer shared the campaign. JPEG, PNG or WebP."
        />
      </div>
      <label className="check">
        {/* Unticked sends the hidden "off" before it; ticked, the box's "on" comes last and wins. */}
        <input type="hidden" name="send_sms" value="off" />
        <input
          {...getInputProps(fields.send_sms, { type: "checkbox" })}
          defaultChecked={ticked(fields.send_sms.initialValue, true)}
        />{" "}
        Send SMS
      </label>
    </div>
  );
}
