import "~/utils/zod-jitless.client";
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useMatches,
  useRouteError,
  useLocation,
  useRouteLoaderData,
} from "@remix-run/react";
import { ErrorPage, isBackOfficePath } from "~/components/ErrorPage";
import { Toasts } from "~/components/Toasts";
import { readToast, type Toast } from "~/http/toast.server";
import { getLanguage } from "~/http/language.server";
import { publicSettings } from "~/models/settings.server";
import { t } from "~/utils/i18n";
import { useNonce } from "~/utils/nonce";
import styles from "~/styles/app.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export const meta: MetaFunction<typeof loader> = ({ data, error }) => {
  const lang = (data as RootData | undefined)?.lang ?? "en";
  const missing = isRouteErrorResponse(error) && error.status === 404;
  return [{ title: missing ? t(lang, "error.notFound") : "Share It. Win It." }];
};

export async function loader({ request }: LoaderFunctionArgs) {
  const { toast, headers } = await readToast(request);
  // The logo of the public frame, for the error page (a cached read).
  return Response.json({ toast, lang: getLanguage(request), logoUrl: publicSettings().logo_url }, { headers });
}

type RootData = { toast: Toast | null; lang: "en" | "ne"; logoUrl?: string | null };

/**
 * Routes whose handle says `{ scripts: false }` are served as plain HTML with no JavaScript
 * bundle; so is the error page of a public address (it has the public frame, not the app).
 */
function useWantsScripts() {
  const matches = useMatches();
  const error = useRouteError();
  const path = useErrorPath();
  if (error && !isBackOfficePath(path)) return false;
  return !matches.some((m) => (m.handle as { scripts?: boolean } | undefined)?.scripts === false);
}

/** The address an error page is about: server.js sends a refused cross-site post to /forbidden?from=<its address>. */
function useErrorPath() {
  const location = useLocation();
  const from = new URLSearchParams(location.search).get("from");
  return from?.startsWith("/") && !from.startsWith("//") ? from : location.pathname + location.search;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<RootData>("root");
  const scripts = useWantsScripts();
  const nonce = useNonce();
  // The back office shows its toast in the page's flow (app/routes/admin.tsx), where it covers nothing.
  const routeError = useRouteError();
  const adminShell = useMatches().some((m) => m.id === "routes/admin") && !routeError;
  return (
    <html lang={data?.lang ?? "en"}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        {data?.toast && !adminShell ? <Toasts key={JSON.stringify(data.toast)} toast={data.toast} /> : null}
        {scripts ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  );
}

export default function App() {
  useLoaderData<typeof loader>();
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<RootData>("root");
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // A refusal thrown by the app carries its reason as text (403, 413, 415, 429); never a stack trace.
  const reason =
    isRouteErrorResponse(error) &&
    status >= 400 &&
    status < 500 &&
    typeof error.data === "string" &&
    error.data &&
    error.data !== "Not Found"
      ? error.data
      : null;
  const path = useErrorPath();
  return (
    <ErrorPage status={status} reason={reason} path={path} lang={data?.lang ?? "en"} logoUrl={data?.logoUrl ?? null} />
  );
}
