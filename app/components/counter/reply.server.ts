/** A fresh idempotency token for a rendered form (a double submit makes one record). */
export { randomToken as newFormToken } from "~/utils/crypto.server";
