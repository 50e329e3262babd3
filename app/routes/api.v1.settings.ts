import { publicSettings } from "~/models/settings.server";
import { apiData } from "~/http/api.server";
import { methodNotAllowed } from "~/http/http.server";

/**
 * GET /api/v1/settings (public): logo (file id) and logo_url; the texts
 * scheme, terms, policy and their Nepali twins (sanitised HTML); video;
 * registration_open; closed_message (the spec's banner unless head office
 * wrote its own) and closed_message_ne. Read from the database on every
 * request, so a saved change shows at once.
 */
export async function loader() {
  return apiData(publicSettings());
}

/** Not a call to change anything: 405 with Allow. */
export const action = () => methodNotAllowed("GET");
