/**
 * The fields of the registration (purchase) form, shared by create and edit
 * (spec 000 §3 and §5). Engine, chassis and vehicle numbers keep letters,
 * digits, - . _ and are upper-cased as they are typed (and again on the
 * server); the referrer field suggests registered customers with JavaScript
 * and takes a customer's phone number without it.
 */
import { useEffect, useRef, useState } from "react";
import { Field, SelectField, TextareaField } from "~/components/Field";
import { emailChars, PAYMENT_MODE_LABELS, PAYMENT_MODES, vehicleNumber } from "~/schemas/registration";
import type { CounterForm } from "./form";

const filterInput = (fn: (v: string) => string) => (e: React.FormEvent<HTMLInputElement>) => {
  const el = e.currentTarget;
  const next = fn(el.value);
  if (next !== el.value) el.value = next;
};

type Option = { value: number; label: string; slug: string; phone: string };

function ReferrerField({ f }: { f: CounterForm }) {
  const [options, setOptions] = useState<Option[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  const search = (q: string) => {
    clearTimeout(timer.current);
    if (q.trim().length < 3) return setOptions([]);
    timer.current = setTimeout(async () => {
      const res = await fetch("/api/v1/registration/search", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ q }),
      }).catch(() => null);
      if (res?.ok) setOptions(((await res.json()) as { data: Option[] }).data);
    }, 250);
  };
  return (
    <>
      <Field
        label="Referred by (a registered customer's phone)"
        name="referrer"
        list="referrer-options"
        autoComplete="off"
        defaultValue={f.value("referrer")}
        errors={f.errors("referrer") ?? f.errors("registration_id")}
        onInput={(e) => search(e.currentTarget.value)}
        hint="Type a name, phone or bill number to search."
      />
      <datalist id="referrer-options">
        {options.map((o) => (
          <option key={o.value} value={o.phone.includes("X") ? o.slug : o.phone}>
            {o.label}
          </option>
        ))}
      </datalist>
    </>
  );
}

export function RegistrationFields({
  f,
  branchId,
  phone,
  purchaseDate,
  bikeModels,
}: {
  f: CounterForm;
  branchId: number | null;
  phone: string;
  purchaseDate: string;
  bikeModels: { id: number; title: string }[];
}) {
  return (
    <div className="form-grid">
      <Field
        label="Date of Purchase"
        name="purchase_date_display"
        value={purchaseDate.replaceAll("-", "/")}
        readOnly
        required
        disabled
      />
      <div className={`field${f.errors("bill_no")?.length ? " invalid" : ""}`}>
        <label htmlFor="f-bill_no">
          Bill/Chalan No<span className="req"> *</span>
        </label>
        <div className="prefixed">
          {branchId !== null ? <span className="prefix">B{branchId}-</span> : null}
          <input
            id="f-bill_no"
            name="bill_no"
            required
            defaultValue={f.value("bill_no")}
            aria-invalid={f.errors("bill_no")?.length ? true : undefined}
            aria-describedby="e-bill_no"
          />
        </div>
        {f.errors("bill_no")?.[0] ? (
          <p className="field-error" id="e-bill_no" role="alert">
            {f.errors("bill_no")![0]}
          </p>
        ) : null}
      </div>
      <Field label="Full Name" name="name" required defaultValue={f.value("name")} errors={f.errors("name")} />
      <Field label="Address" name="address" required defaultValue={f.value("address")} errors={f.errors("address")} />
      <Field
        label="Email"
        name="email"
        type="email"
        defaultValue={f.value("email")}
        errors={f.errors("email")}
        onInput={filterInput(emailChars)}
      />
      <Field label="Phone Number" name="phone" value={phone} readOnly required />
      <Field
        label="Citizenship No"
        name="citizenship_no"
        required
        defaultValue={f.value("citizenship_no")}
        errors={f.errors("citizenship_no")}
      />
      <Field label="PAN" name="pan" defaultValue={f.value("pan")} errors={f.errors("pan")} />
      <SelectField
        label="Bike Model"
        name="bike_model_id"
        required
        placeholder="Select a model"
        options={bikeModels.map((m) => ({ value: m.id, label: m.title }))}
        defaultValue={f.value("bike_model_id")}
        errors={f.errors("bike_model_id")}
      />
      <Field
        label="Engine No"
        name="engine_no"
        required
        defaultValue={f.value("engine_no")}
        errors={f.errors("engine_no")}
        onInput={filterInput(vehicleNumber)}
        className="upper"
      />
      <Field
        label="Chassis No"
        name="chasis_no"
        required
        defaultValue={f.value("chasis_no")}
        errors={f.errors("chasis_no")}
        onInput={filterInput(vehicleNumber)}
        className="upper"
      />
      <Field
        label="Vehicle Registration No"
        name="registration_no"
        required
        defaultValue={f.value("registration_no")}
        errors={f.errors("registration_no")}
        onInput={filterInput(vehicleNumber)}
        className="upper"
      />
      <SelectField
        label="Payment Mode"
        name="payment_mode"
        required
        options={PAYMENT_MODES.map((m) => ({ value: m, label: PAYMENT_MODE_LABELS[m] }))}
        defaultValue={f.value("payment_mode") ?? "CASH"}
        errors={f.errors("payment_mode")}
      />
      <ReferrerField f={f} />
      <TextareaField label="Note" name="note" rows={2} defaultValue={f.value("note")} errors={f.errors("note")} />
      <label className="check">
        <input type="checkbox" name="send_sms" defaultChecked={f.checked("send_sms", true)} /> Send the customer an SMS
        with the prize summary after the draw
      </label>
    </div>
  );
}
