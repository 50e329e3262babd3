/** The bike model form (spec 001 §2.5): title and thumbnail image through the file picker; the server's errors under the fields. */
import { useForm } from "@conform-to/react";
import { Field, textOf } from "~/components/Field";
import { ConformForm } from "~/components/ConformForm";
import { FilePicker, type PickerImage } from "~/components/FilePicker";
import type { FormReply } from "./form";
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
  const thumbnail = textOf(fields.thumbnail.initialValue) ?? "";
  return (
    <ConformForm form={form} upload className="card catalogue-form">
      <Field meta={fields.title} label="Title" required maxLength={100} />
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
    </ConformForm>
  );
}
