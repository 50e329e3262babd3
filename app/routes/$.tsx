import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

/**
 * Any address no other route answers. Without this route no loader runs for a
 * missing page, so the error page would not know the visitor's language or the
 * logo; with it the root loader runs and the 404 keeps the site's frame and the
 * language chosen (the root ErrorBoundary draws it, with no JavaScript bundle).
 */
export async function loader(_: LoaderFunctionArgs): Promise<never> {
  throw new Response("Not Found", { status: 404 });
}

/** A form sent to a missing address is a missing page too (not "method not allowed"). */
export async function action(_: ActionFunctionArgs): Promise<never> {
  throw new Response("Not Found", { status: 404 });
}

/** Never rendered: the loader always answers 404. */
export default function NotFound() {
  return null;
}
