import type { LoaderFunctionArgs } from "@remix-run/node";
import { getFileByKey, PRIVATE_FILE_TYPES, readFileBytes } from "~/models/file.server";
import { isVariantWidth, variantBytes } from "~/models/image-variant.server";
import { canOpenScreenshot } from "~/models/preregistration-admin.server";
import { scopeOf } from "~/models/scope.server";
import { getOptionalUser } from "~/http/auth.server";

const notFound = () => new Response("Not Found", { status: 404 });

/**
 * GET /files/{key}: an uploaded image by its unguessable key. Catalogue images
 * are public with long cache headers (?w=240 or ?w=480: a smaller copy); a proof screenshot (personal data) only
 * to signed-in staff who may open the pre-registration it belongs to.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const file = getFileByKey(params.key ?? "");
  if (!file) throw notFound();
  const isPrivate = PRIVATE_FILE_TYPES.includes(file.type);
  if (isPrivate) {
    const user = await getOptionalUser(request);
    if (!user || !canOpenScreenshot(scopeOf(user), file.id)) throw notFound();
  }
  // ?w=240 / ?w=480: a smaller copy of a public image (the landing's bike thumbnails on phones).
  const width = Number(new URL(request.url).searchParams.get("w"));
  const bytes =
    !isPrivate && isVariantWidth(width) && file.mime === "image/webp"
      ? await variantBytes(file, width)
      : readFileBytes(file);
  if (!bytes) throw notFound();
  return new Response(new Uint8Array(bytes), {
    headers: {
      "Content-Type": file.mime,
      "Content-Length": String(bytes.length),
      "Cache-Control": isPrivate ? "private, no-store" : "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
