/**
 * The winner video form (spec 001 §2.7): title, url (http or https), amount
 * (Fifty Thousand, One Lakh, Ten Lakh), Registration ID (citizenship_no),
 * phone and the thumbnail through the file picker. The first server error
 * shows under each field (§5).
 */
import { useForm } from "@conform-to/react";
import { Field, SelectField, textOf } from "~/components/Field";
import { ConformForm } from "~/components/ConformForm";
import { FilePicker, type PickerImage } from "~/components/FilePicker";
import { VIDEO_AMOUNTS } from "~/schemas/video";
import type { FormReply } from "./form";
import { SaveCancel } from "~/components/FormActions";

export type VideoValues = {
  title: string;
  url: string;
  amount: string;
  citizenship_no: string;
  phone: string;
  thumbnail: string;
};

type Props = { id: string; defaults: VideoValues; files: PickerImage[]; reply?: FormReply; cancelTo: string };

export function VideoForm({ id, defaults, files, reply, cancelTo }: Props) {
  const [form, fields] = useForm({ id, lastResult: reply?.result, defaultValue: defaults });
  const thumbnail = textOf(fields.thumbnail.initialValue) ?? "";
  return (
    <ConformForm form={form} upload className="card catalogue-form">
      <Field meta={fields.title} label="Title" required maxLength={150} />
      <Field
        meta={fields.url}
        label="Url"
        type="url"
        inputMode="url"
        required
        placeholder="https://"
        hint="The video's address (http or https); the winner list opens it in a new tab."
      />
      <div className="grid-2">
        <SelectField
          meta={fields.amount}
          label="Amount"
          required
          placeholder="Choose a prize"
          options={VIDEO_AMOUNTS.map((a) => ({ value: a.amount, label: a.label }))}
        />
        <Field
          meta={fields.citizenship_no}
          label="Registration ID"
          maxLength={30}
          hint="The winner's citizenship number or PAN."
        />
        <Field
          meta={fields.phone}
          label="Phone"
          type="tel"
          inputMode="tel"
          maxLength={20}
          hint="Not shown on the public site."
        />
      </div>
      <FilePicker
        key={`${fields.thumbnail.key ?? ""}-${thumbnail}`}
        label="Thumbnail"
        name="thumbnail"
        type="video"
        files={files}
        defaultValue={thumbnail}
        errors={fields.thumbnail.errors}
        hint="Shown on the winner list; a click opens the video."
      />
      <SaveCancel cancelTo={cancelTo} />
    </ConformForm>
  );
}
