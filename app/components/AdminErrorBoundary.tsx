/**
 * The error page of a back-office route, shown inside the back-office shell
 * (sidebar and top bar kept): a record that is not found, a URL not built
 * yet, a refused request. Never a stack trace.
 */
import { Link, isRouteErrorResponse, useLocation, useRouteError } from "@remix-run/react";

export function AdminErrorBoundary() {
  const error = useRouteError();
  const { pathname } = useLocation();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const reason =
    isRouteErrorResponse(error) && typeof error.data === "string" && error.data && error.data !== "Not Found"
      ? error.data
      : null;
  const heading =
    status === 404 ? "Page not found" : status === 403 ? "Not allowed" : status < 500 ? "Request refused" : "Oops!";
  const text =
    status === 404
      ? (reason ?? "This back-office page does not exist, or is not available yet.")
      : status < 500
        ? (reason ?? "The request could not be accepted.")
        : "Something went wrong on our side. Please try again in a moment.";
  return (
    <section className="admin-error" aria-labelledby="admin-error-title">
      <h1 id="admin-error-title">{heading}</h1>
      <p>{text}</p>
      {status === 404 ? <p className="muted">{pathname}</p> : null}
      <p>
        <Link to="/admin" className="button">
          Back to the dashboard
        </Link>
      </p>
    </section>
  );
}
