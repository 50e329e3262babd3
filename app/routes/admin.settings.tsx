import { useForm } from "@conform-to/react";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { FormReply } from "~/components/catalogue/form";
import { readPickerForm, withUpload } from "~/http/picker-form.server";
import { pickerChoices } from "~/models/file.server";
import { catalogueLinks } from "~/components/catalogue/styles";
import { Field, FieldError, FormError, TextareaField, textOf } from "~/components/Field";
import { FilePicker } from "~/components/FilePicker";
import { RichTextEditor } from "~/components/RichTextEditor";
import { fileUrl } from "~/models/file.server";
import {
  describeChange,
  lastSettingChanges,
  readSettings,
  settingVersions,
  updateSettings,
} from "~/models/settings.server";
import {
  CLOSED_MESSAGE_MAX,
  DEFAULT_CLOSED_MESSAGE,
  SETTING_FIELDS,
  settingsFormSchema,
  TEXT_FIELDS,
  withClearedFields,
  type SettingField,
} from "~/schemas/settings";
import settingsStyles from "~/styles/settings.css?url";
import { requireRouteAccess, type RouteAccess } from "~/http/auth.server";
import { parseValue } from "~/http/body.server";
import { replyFailure } from "~/http/http.server";
import { can, permissionRefusal } from "~/utils/permissions";
import { htmlForEditing } from "~/utils/rich-text";
import { oops, redirectWithToast, success } from "~/http/toast.server";

export { AdminErrorBoundary as ErrorBoundary } from "~/components/AdminErrorBoundary";

/** The permission this route needs, checked by every loader and action of the module. */
export const handle = { permission: null } satisfies RouteAccess;

/** Saving needs update-settings (the page itself is login only, spec 001 §2.1). */
const SAVE = "update-settings" as const;

export const meta: MetaFunction = () => [{ title: "Settings" }];
export const links: LinksFunction = () => [...catalogueLinks(), { rel: "stylesheet", href: settingsStyles }];

/** The page's values as the form shows them (text). */
function formValues(s: ReturnType<typeof readSettings>): Record<SettingField, string> {
  const texts = Object.fromEntries(TEXT_FIELDS.map((k) => [k, htmlForEditing(s[k])]));
  return {
    ...s,
    ...texts,
    logo: s.logo ? String(s.logo) : "",
    video: s.video ?? "",
    registration_open: String(s.registration_open),
  };
}

/**
 * GET /admin/settings (login only): the logo, the scheme, terms and privacy
 * policy texts in English and Nepali, the landing video, the registration
 * switch and its closed message, each with its last change. Staff without
 * update-settings read them; the form is theirs to save only with it.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  const settings = readSettings();
  const changes = lastSettingChanges();
  const canEdit = can(user, SAVE);
  return {
    canEdit,
    values: formValues(settings),
    versions: settingVersions(settings),
    changes: Object.fromEntries(SETTING_FIELDS.map((k) => [k, describeChange(changes[k])])) as Record<
      SettingField,
      string | null
    >,
    files: canEdit ? pickerChoices("logo", settings.logo) : [],
    logoUrl: fileUrl(settings.logo),
  };
}

/**
 * POST /admin/settings (update-settings): the whole form, multipart (the
 * logo's upload without JavaScript) or urlencoded. Texts come as the
 * editor's HTML or the textarea's HTML or plain text; the model stores its
 * own sanitised HTML. A field emptied is cleared; one someone else changed
 * since the page was opened is refused on its field (409) unless left as shown.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess(request, handle);
  if (!can(user, SAVE)) throw await redirectWithToast("/admin/settings", oops(permissionRefusal(SAVE)));
  const { form, upload } = await readPickerForm(request, user, { field: "logo", type: "logo" });
  const parsed = await parseValue({ kind: "form", form }, settingsFormSchema);
  if (upload) return replyFailure(form, withUpload(upload, parsed.ok ? null : parsed));
  if (!parsed.ok) return replyFailure(form, parsed);
  const { seen, ...value } = parsed.value;
  const result = await updateSettings(user, withClearedFields(value, form.keys()), seen);
  if (!result.ok) return replyFailure(form, result);
  return redirectWithToast(
    "/admin/settings",
    success(result.changed.length ? "Settings saved." : "Nothing to save: no setting was changed."),
  );
}

const TEXTS = [
  { key: "scheme", title: "Scheme details", path: "/scheme" },
  { key: "terms", title: "Terms and conditions", path: "/terms" },
  { key: "policy", title: "Privacy policy", path: "/privacy-policy" },
] as const;

export default function Settings() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  // A save starts the form afresh from what was stored (its texts as sanitised); a refusal keeps what was sent.
  return <SettingsForm key={JSON.stringify(data.versions)} {...data} reply={reply} />;
}

type SettingsFormProps = ReturnType<typeof useLoaderData<typeof loader>> & { reply?: FormReply };

function SettingsForm({ canEdit, values, versions, changes, files, logoUrl, reply }: SettingsFormProps) {
  const busy = useNavigation().state === "submitting";
  // Checked by the server (the texts are sanitised there); conform carries the values sent and the errors back.
  const [form, fields] = useForm<Record<SettingField, string>>({
    id: "settings",
    lastResult: reply?.result,
    defaultValue: values,
  });
  /** What the form shows: what was sent when it comes back refused, else the saved value. */
  const value = (k: SettingField) => textOf(fields[k].initialValue) ?? "";
  const errors = (k: SettingField) => fields[k].errors;
  const formErrors = form.errors;
  const open = value("registration_open") !== "false";

  return (
    <>
      <h1>Settings</h1>
      {canEdit ? (
        <p className="muted">
          Changes show on the public site on the next page load. Each change is kept in the audit trail with who made it
          and when.
        </p>
      ) : (
        <p className="form-error" role="status">
          You can read the settings here; changing them needs the update-settings permission.
        </p>
      )}
      <Form
        method="post"
        id={form.id}
        onSubmit={form.onSubmit}
        encType="multipart/form-data"
        className="settings-form"
        noValidate
      >
        <FormError errors={formErrors} />
        {SETTING_FIELDS.map((k) => (
          <input key={`${k}-${versions[k]}`} type="hidden" name={`seen.${k}`} value={versions[k]} />
        ))}
        <fieldset disabled={!canEdit} className="settings-fieldset">
          <section className="card settings-section" aria-labelledby="settings-registration">
            <h2 id="settings-registration">Registration</h2>
            <fieldset
              className={`settings-switch${errors("registration_open") ? " invalid" : ""}`}
              key={`open-${versions.registration_open}`}
            >
              <legend>Public pre-registration</legend>
              <label className="check">
                <input type="radio" name="registration_open" value="true" defaultChecked={open} /> Open
              </label>
              <label className="check">
                <input type="radio" name="registration_open" value="false" defaultChecked={!open} /> Closed: the landing
                page shows “Registration Closed”, the form is disabled and the server refuses new pre-registrations
              </label>
              <FieldError errors={errors("registration_open")} />
              <Changed text={changes.registration_open} />
            </fieldset>
            <div className="grid-2">
              <TextareaField
                key={`cm-${versions.closed_message}`}
                label="Closed message"
                name="closed_message"
                rows={2}
                maxLength={CLOSED_MESSAGE_MAX}
                defaultValue={value("closed_message")}
                placeholder={DEFAULT_CLOSED_MESSAGE}
                errors={errors("closed_message")}
                hint={
                  changes.closed_message ??
                  "Shown on the landing page while registration is closed; empty: the standard banner only."
                }
              />
              <TextareaField
                key={`cmne-${versions.closed_message_ne}`}
                label="Closed message (Nepali)"
                name="closed_message_ne"
                lang="ne"
                rows={2}
                maxLength={CLOSED_MESSAGE_MAX}
                defaultValue={value("closed_message_ne")}
                errors={errors("closed_message_ne")}
                hint={changes.closed_message_ne ?? "For visitors reading Nepali; empty: the English message."}
              />
            </div>
          </section>

          <section className="card settings-section" aria-labelledby="settings-brand">
            <h2 id="settings-brand">Logo and video</h2>
            {canEdit ? (
              <FilePicker
                key={`logo-${versions.logo}-${value("logo")}`}
                label="Logo"
                name="logo"
                type="logo"
                files={files}
                defaultValue={value("logo")}
                errors={errors("logo")}
                hint={changes.logo ?? "Shown at the top of every public page."}
              />
            ) : (
              <div className="field">
                <span className="label">Logo</span>
                {logoUrl ? <img src={logoUrl} alt="Logo" height={48} /> : <p className="muted">No logo</p>}
                <Changed text={changes.logo} />
              </div>
            )}
            <Field
              key={`video-${versions.video}`}
              label="Landing video"
              name="video"
              type="url"
              inputMode="url"
              maxLength={500}
              placeholder="https://www.youtube.com/watch?v=…"
              defaultValue={value("video")}
              errors={errors("video")}
              hint={changes.video ?? "An http or https address; the landing page links to it. Empty: no video."}
            />
          </section>

          {TEXTS.map((t) => (
            <section key={t.key} className="card settings-section" aria-labelledby={`settings-${t.key}`}>
              <h2 id={`settings-${t.key}`}>
                {t.title}{" "}
                <a href={t.path} target="_blank" rel="noreferrer" className="settings-view">
                  View on the site
                </a>
              </h2>
              <div className="settings-texts">
                <RichTextEditor
                  key={`${t.key}-${versions[t.key]}`}
                  label={`${t.title} (English)`}
                  name={t.key}
                  defaultValue={value(t.key)}
                  errors={errors(t.key)}
                  hint={changes[t.key] ?? "Not changed here yet."}
                  readOnly={!canEdit}
                />
                <RichTextEditor
                  key={`${t.key}_ne-${versions[`${t.key}_ne`]}`}
                  label={`${t.title} (Nepali)`}
                  name={`${t.key}_ne`}
                  lang="ne"
                  defaultValue={value(`${t.key}_ne`)}
                  errors={errors(`${t.key}_ne`)}
                  hint={changes[`${t.key}_ne`] ?? "Not changed here yet. Empty: Nepali readers see the English text."}
                  readOnly={!canEdit}
                />
              </div>
            </section>
          ))}
        </fieldset>
        {canEdit ? (
          <div className="actions settings-actions">
            <button type="submit" className="primary" disabled={busy}>
              {busy ? "Saving…" : "Submit"}
            </button>
          </div>
        ) : null}
      </Form>
      <p className="muted settings-help">
        Without JavaScript each text is its HTML: use &lt;p&gt;, &lt;h2&gt;, &lt;strong&gt;, &lt;em&gt;, &lt;ul&gt;,
        &lt;ol&gt;, &lt;li&gt; and &lt;a href&gt;, or plain text with blank lines between paragraphs. Anything else
        (scripts, styles, images, event attributes, javascript: or data: links) is removed when saved.
      </p>
    </>
  );
}

function Changed({ text }: { text: string | null }) {
  return text ? <small className="muted settings-changed">{text}</small> : null;
}
