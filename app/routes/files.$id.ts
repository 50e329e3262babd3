import type { LoaderFunctionArgs } from "@remix-run/node";
import { getFile, PRIVATE_FILE_TYPES, readFileBytes } from "~/models/file.server";
import { getOptionalUser } from "~/utils/auth.server";

/**
 * Serves an uploaded image. Catalogue images are public with long cache
 * headers; proof screenshots (personal data) only to signed-in staff.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = Number(params.id);
  const file = Number.isInteger(id) ? getFile(id) : undefined;
  const isPrivate = file ? PRIVATE_FILE_TYPES.includes(file.type) : false;
  if (file && isPrivate && !(await getOptionalUser(request))) throw new Response("Not Found", { status: 404 });
  const bytes = file ? readFileBytes(file) : null;
  if (!file || !bytes) throw new Response("Not Found", { status: 404 });
  return new Response(new Uint8Array(bytes), {
    headers: {
      "Content-Type": file.mime,
      "Content-Length": String(bytes.length),
      "Cache-Control": isPrivate ? "private, max-age=3600" : "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
