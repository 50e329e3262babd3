import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { CROSS_SITE_MESSAGE } from "~/http/same-origin.server";

export const meta: MetaFunction = () => [{ title: "Not allowed" }];

const REASONS: Record<string, string> = { "cross-site": CROSS_SITE_MESSAGE };

/** Where server.js sends a refused request (a form posted from another site): the 403 page. */
export async function loader({ request }: LoaderFunctionArgs) {
  const reason = new URL(request.url).searchParams.get("reason") ?? "";
  throw new Response(REASONS[reason] ?? "You are not allowed to do that.", { status: 403 });
}

/** Never rendered: the loader always refuses, and the error page shows the reason. */
export default function Forbidden() {
  return null;
}
