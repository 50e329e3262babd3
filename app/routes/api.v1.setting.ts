import type { ActionFunctionArgs } from "@remix-run/node";
import { fail } from "~/utils/failure";
import { publicSettings, updateSettings } from "~/models/settings.server";
import { SETTINGS_MESSAGES, sentFields, settingsSchema, withClearedFields } from "~/schemas/settings";
import { apiData, requireApiUser } from "~/http/api.server";
import { parseValue, readApiBody } from "~/http/body.server";
import { apiFailure, methodNotAllowed } from "~/http/http.server";

/** Six texts of up to 100,000 characters each, urlencoded Nepali included. */
const LIMIT = 4 * 1024 * 1024;

/**
 * PATCH /api/v1/setting (update-settings; also POST and PUT): any of logo (a
 * file id from GET /api/v1/file?type=logo, null for none), scheme, terms,
 * policy and their Nepali twins scheme_ne, terms_ne, policy_ne (HTML or plain
 * text; stored as the server's sanitised HTML), video (an http or https
 * address, "" or null for none), registration_open (true or false),
 * closed_message and closed_message_ne ("" or null for the spec's banner).
 * A field left out is not changed. JSON, urlencoded or multipart.
 * → 200 {data: the settings as GET /api/v1/settings shows them, message};
 * 401, 403, 422 {message, errors} per field.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (!["PATCH", "POST", "PUT"].includes(request.method)) return methodNotAllowed("POST", "PUT", "PATCH");
  const user = await requireApiUser(request, "update-settings");
  const body = await readApiBody(request, { limit: LIMIT });
  const parsed = await parseValue(body, settingsSchema);
  if (!parsed.ok) return apiFailure(parsed);
  const sent = body.kind === "form" ? [...body.form.keys()] : body.kind === "json" ? Object.keys(body.json) : [];
  const value = withClearedFields(parsed.value, sent);
  if (!sentFields(value).length) return apiFailure(fail.invalid({ form: [SETTINGS_MESSAGES.nothing] }));
  const result = await updateSettings(user, value);
  if (!result.ok) return apiFailure(result);
  return apiData(publicSettings(), result.changed.length ? "Settings updated." : "Nothing changed.");
}

/** GET: the settings are read at GET /api/v1/settings. */
export async function loader() {
  return methodNotAllowed("POST", "PUT", "PATCH");
}
