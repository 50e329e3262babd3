import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { Toasts } from "~/components/Toasts";
import { readToast, type Toast } from "~/utils/toast.server";
import { getLanguage } from "~/utils/language.server";
import styles from "~/styles/app.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export const meta: MetaFunction = () => [{ title: "Share It. Win It." }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { toast, headers } = await readToast(request);
  return Response.json({ toast, lang: getLanguage(request) }, { headers });
}

type RootData = { toast: Toast | null; lang: "en" | "ne" };

/** Routes whose handle says `{ scripts: false }` are served as plain HTML with no JavaScript bundle. */
function useWantsScripts() {
  const matches = useMatches();
  return !matches.some((m) => (m.handle as { scripts?: boolean } | undefined)?.scripts === false);
}

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<RootData>("root");
  const scripts = useWantsScripts();
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
        {data?.toast ? <Toasts key={JSON.stringify(data.toast)} toast={data.toast} /> : null}
        {scripts ? (
          <>
            <ScrollRestoration />
            <Scripts />
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
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const notFound = status === 404;
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
  return (
    <main className="error-page">
      <h1>
        {notFound ? "Page not found" : status === 403 ? "Not allowed" : status < 500 ? "Request refused" : "Oops!"}
      </h1>
      <p>
        {notFound
          ? "The page you asked for does not exist or has moved."
          : (reason ??
            (status === 403
              ? "You are not allowed to do that."
              : "Something went wrong on our side. Please try again in a moment."))}
      </p>
      <p>
        <Link to="/">Go to the home page</Link>
      </p>
    </main>
  );
}
