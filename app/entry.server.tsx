import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { BODY_LIMITS, tooLarge } from "./http/body.server";
import { NonceProvider } from "./utils/nonce";
import { queueImmediates } from "./utils/run-queue.server";
export { DRAIN_BYTES } from "./http/body.server";
import { startBackgroundWork } from "./http/workers.server";

const ABORT_DELAY = 5_000;

/** Called once by server.js: the background workers (SMS queue, clean-ups). Returns a stop function. */
export const startWorkers = startBackgroundWork;

/** The rendered public pages kept for every visitor (server.js asks before rendering). */
export * as pageCache from "./http/page-cache.server";
/** Past its bound, a process answers new visitors at once with the busy page (server.js applies it before any route). */
export * as admission from "./http/admission.server";
export { listenOnCopies } from "./http/listeners.server";
/** How server.js compresses answers: a page or JSON answer whole, anything else through the middleware. */
export * as compression from "./http/compression.server";

/** Called once by server.js: the event-loop delay monitor (read by the benchmark, and by a health check). */
export { startEventLoopMonitor, eventLoopDelay } from "./utils/event-loop.server";

/** What server.js applies before any route: the cross-site rule, the address header, the largest body any route reads. */
export { isCrossSiteRequest } from "./http/same-origin.server";
export { ADDRESS_HEADER } from "./http/auth.server";
export const MAX_BODY_BYTES = BODY_LIMITS.upload;
/** The answer to a body over MAX_BODY_BYTES: the body reader's own 413 (nginx answers past its limit with the same). */
export const TOO_LARGE_BODY = (({ message, errors }) => ({ message, errors }))(tooLarge(MAX_BODY_BYTES));
/** The security headers of every answer and the request's CSP nonce (server.js applies it first). */
export { securityHeaders } from "./http/security-headers.server";

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status === 404) return;
  console.error(`[error] ${request.method} ${request.url}`, error);
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // The nonce server.js named in this answer's Content-Security-Policy (none outside server.js: tests, dev).
  const nonce = loadContext.cspNonce ?? "";
  const ua = request.headers.get("user-agent");
  const readyEvent = ua && isbot(ua) ? "onAllReady" : "onShellReady";
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    // React renders the page in an immediate; that one waits its turn in the run queue, counted in a slice.
    const { pipe, abort } = queueImmediates(() =>
      renderToPipeableStream(
        <NonceProvider value={nonce}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
        </NonceProvider>,
        {
          nonce,
          [readyEvent]() {
            shellRendered = true;
            const body = new PassThrough();
            responseHeaders.set("Content-Type", "text/html; charset=utf-8");
            resolve(
              new Response(createReadableStreamFromReadable(body), {
                headers: responseHeaders,
                status: responseStatusCode,
              }),
            );
            pipe(body);
          },
          onShellError(error: unknown) {
            reject(error);
          },
          onError(error: unknown) {
            responseStatusCode = 500;
            if (shellRendered) console.error(error);
          },
        },
      ),
    );
    setTimeout(abort, ABORT_DELAY);
  });
}
