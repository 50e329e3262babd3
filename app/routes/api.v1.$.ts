import { fail } from "~/utils/failure";
import { apiFailure } from "~/http/http.server";

/** Any /api/v1 path that is not a call: a JSON 404, whatever the method. */
const notACall = () => apiFailure(fail.notFound("Not found."));

export const loader = notACall;
export const action = notACall;
