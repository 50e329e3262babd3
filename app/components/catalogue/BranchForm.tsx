/**
 * "Dealer Registration" (spec 001 §2.4): every field of a branch (§3), the
 * e-mail as an email input. State and district are chosen from Nepal's seven
 * provinces and 77 districts (grouped by province; with JavaScript, only the
 * chosen state's), so the public cascade offers real places; city offers the
 * cities the branches already use (a datalist), and the server takes an
 * existing city's spelling when only the letter case differs. Errors are the
 * server's, the first under each field (§5).
 */
import { useForm } from "@conform-to/react";
import { useState } from "react";
import { Field, SelectField, WholeNumberField } from "~/components/Field";
import { PROVINCES } from "~/schemas/places";
import { ConformForm } from "~/components/ConformForm";
import type { FormReply } from "./form";
import { SaveCancel } from "~/components/FormActions";

export type BranchValues = Record<string, string>;

type Props = {
  id: string;
  defaults: BranchValues;
  /** The cities the branches already use. */
  cities: string[];
  reply?: FormReply;
  cancelTo: string;
};

function Options({ id, values }: { id: string; values: string[] }) {
  return (
    <datalist id={id}>
      {values.map((v) => (
        <option key={v} value={v} />
      ))}
    </datalist>
  );
}

const STATES = PROVINCES.map((p) => ({ value: p.name, label: p.name }));
const DISTRICTS = PROVINCES.flatMap((p) => p.districts.map((d) => ({ value: d, label: d, group: p.name })));

export function BranchForm({ id, defaults, cities, reply, cancelTo }: Props) {
  const [form, fields] = useForm({ id, lastResult: reply?.result, defaultValue: defaults });
  // The state chosen: the district offers its districts only (without JavaScript, all, under their states).
  const [state, setState] = useState(String(fields.state.initialValue ?? ""));
  const districts = STATES.some((s) => s.value === state) ? DISTRICTS.filter((d) => d.group === state) : DISTRICTS;
  return (
    <ConformForm form={form} className="card catalogue-form">
      <Field meta={fields.title} label="Name" required maxLength={100} autoComplete="organization" />
      <div className="grid-2">
        <SelectField
          meta={fields.state}
          label="State"
          required
          options={STATES}
          placeholder="Choose a province"
          hint="Zone on the public site"
          onChange={(e) => setState(e.currentTarget.value)}
        />
        <SelectField
          meta={fields.district}
          label="District"
          required
          options={districts}
          placeholder="Choose a district"
        />
        <Field meta={fields.city} label="City" required list={`${id}-cities`} autoComplete="off" />
        <Field meta={fields.location} label="Location" maxLength={200} />
      </div>
      <Options id={`${id}-cities`} values={cities} />
      <Field meta={fields.email} label="Email" type="email" autoComplete="email" />
      <div className="grid-2">
        <Field
          meta={fields.phone}
          label="Phone"
          inputMode="tel"
          hint='Several numbers separated by "/"'
          autoComplete="off"
        />
        <Field
          meta={fields.mobile}
          label="Mobile"
          inputMode="tel"
          hint='10-digit mobiles starting with 9, separated by "/"'
          autoComplete="off"
        />
        <WholeNumberField meta={fields.one_lakh_allocation_count} label="One Lakh Allocation" min={0} max={1000} />
        <WholeNumberField meta={fields.ten_lakhs_allocation_count} label="Ten Lakhs Allocation" min={0} max={1000} />
      </div>
      <SaveCancel cancelTo={cancelTo} />
    </ConformForm>
  );
}
