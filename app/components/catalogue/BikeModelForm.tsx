/** The bike model form (spec 001 §2.5): title and thumbnail image through the file picker; the server's errors under the fields. */
import { useForm } from "@conform-to/react";
import { Form, Link, useNavigation } from "@remix-run/react";
import { Field } from "~/components/Field";
import { FilePicker, type PickerImage } from "~/components/FilePicker";
import { str, type FormReply } from "./form";

type Props = {
  id: string;
  defaults: { title: string; thumbnail: string };
  files: PickerImage[];
  reply?: FormReply;
  cancelTo: string;
};

export function BikeModelForm({ id, defaults, files, reply, cancelTo }: Props) {
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm({ id, lastResult: reply?.result, defaultValue: defaults });
  const thumbnail = str(fields.thumbnail.initialValue) ?? "";
  return (
    <Form
      method="post"
      id={form.id}
      onSubmit={form.onSubmit}
      noValidate
      encType="multipart/form-data"
      className="card catalogue-form"
    >
      {form.errors?.length ? (
        <p className="form-error" role="alert">
          {form.errors[0]}
        </p>
      ) : null}
      <Field
        label="Title"
        name="title"
        required
        maxLength={100}
        key={fields.title.key}
        defaultValue={str(fields.title.initialValue) ?? ""}
        errors={fields.title.errors}
      />
      <FilePicker
        key={`${fields.thumbnail.key ?? ""}-${thumbnail}`}
        label="Thumbnail"
        name="thumbnail"
        type="bike-model"
        files={files}
        defaultValue={thumbnail}
        errors={fields.thumbnail.errors}
        hint="Shown beside the model on the public site and in the list."
      />
      <div className="actions">
        <Link to={cancelTo} className="button">
          Cancel
        </Link>
        <button type="submit" className="primary" disabled={busy}>
          {busy ? "Saving…" : "Save"}
        </button>
      </div>
    </Form>
  );
}
