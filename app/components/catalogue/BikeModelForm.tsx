/** The bike model form (spec 001 §2.5): title and thumbnail image through the file picker; the server's errors under the fields. */
import { useForm } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { Field, FormError } from "~/components/Field";
import { FilePicker, type PickerImage } from "~/components/FilePicker";
import { str, type FormReply } from "./form";
import { SaveCancel } from "~/components/FormActions";

type Props = {
  id: string;
  defaults: { title: string; thumbnail: string };
  files: PickerImage[];
  reply?: FormReply;
  cancelTo: string;
};

export function BikeModelForm({ id, defaults, files, reply, cancelTo }: Props) {
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
      <FormError errors={form.errors} />
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
      <SaveCancel cancelTo={cancelTo} />
    </Form>
  );
}
