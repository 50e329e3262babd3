/**
 * The winner video form (spec 001 §2.7): title, url (http or https), amount
 * (Fifty Thousand, One Lakh, Ten Lakh), Registration ID (citizenship_no),
 * phone and the thumbnail through the file picker. The first server error
 * shows under each field (§5).
 */
import { useForm } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { Field, FormError, SelectField } from "~/components/Field";
import { FilePicker, type PickerImage } from "~/components/FilePicker";
import { VIDEO_AMOUNTS } from "~/schemas/video";
import { str, type FormReply } from "./form";
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
  const value = (name: keyof VideoValues) => str(fields[name].initialValue) ?? "";
  const thumbnail = value("thumbnail");
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
        maxLength={150}
        key={fields.title.key}
        defaultValue={value("title")}
        errors={fields.title.errors}
      />
      <Field
        label="Url"
        name="url"
        type="url"
        inputMode="url"
        required
        placeholder="https://"
        key={fields.url.key}
        defaultValue={value("url")}
        errors={fields.url.errors}
        hint="The video's address (http or https); the winner list opens it in a new tab."
      />
      <div className="grid-2">
        <SelectField
          label="Amount"
          name="amount"
          required
          placeholder="Choose a prize"
          options={VIDEO_AMOUNTS.map((a) => ({ value: a.amount, label: a.label }))}
          key={fields.amount.key}
          defaultValue={value("amount")}
          errors={fields.amount.errors}
        />
        <Field
          label="Registration ID"
          name="citizenship_no"
          maxLength={30}
          key={fields.citizenship_no.key}
          defaultValue={value("citizenship_no")}
          errors={fields.citizenship_no.errors}
          hint="The winner's citizenship number or PAN."
        />
        <Field
          label="Phone"
          name="phone"
          type="tel"
          inputMode="tel"
          maxLength={20}
          key={fields.phone.key}
          defaultValue={value("phone")}
          errors={fields.phone.errors}
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
    </Form>
  );
}
