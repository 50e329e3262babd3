// Production server: Express + compression serving the Remix build. It sets the security headers
// (and the request's CSP nonce) on every answer, hands the client address to the app, refuses
// cross-site form posts and oversized bodies before any route runs, marks private answers
// no-store, sends bodies at the pace the client reads them, and starts the background workers.
import { createRequestHandler } from "@remix-run/node";
// The adapter's request builder (headers, URL, the abort signal on a closed connection); its
// sender is replaced below because it ignores back-pressure.
import { createRemixRequest } from "@remix-run/express/dist/server.js";
import compression from "compression";
import express from "express";
import fs from "node:fs";
import onHeaders from "on-headers";

process.env.NODE_ENV ??= "production";
// Files only the service reads (the database, its WAL, uploads, the secret): 0600 in 0700 folders.
process.umask(0o077);
const buildDir = process.env.BUILD_DIR ?? "build";
const build = await import(new URL(`./${buildDir}/server/index.js`, import.meta.url).href);
const {
  isCrossSiteRequest,
  ADDRESS_HEADER,
  MAX_BODY_BYTES,
  TOO_LARGE_BODY,
  DRAIN_BYTES,
  securityHeaders,
  pageCache,
  admission,
  compression: encoder,
} = build.entry.module;

const app = express();
app.disable("x-powered-by");
// First, so pages, API answers, downloads, static files and the refusals below all carry them
// (app/http/security-headers.server.ts).
app.use(securityHeaders());

/** The methods the app serves; any other (TRACE, CONNECT, PROPFIND, …) is 405 with Allow, JSON on API paths. */
const SERVED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];
app.use((req, res, next) => {
  if (SERVED_METHODS.includes(req.method)) return next();
  res.set("Allow", SERVED_METHODS.join(", "));
  if (req.path.startsWith("/api/")) return res.status(405).json({ message: "Method not allowed." });
  res.status(405).type("text/plain").send("Method not allowed.");
});
// Behind nginx on the VPS set TRUST_PROXY=loopback so req.ip is the visitor's address.
app.set("trust proxy", process.env.TRUST_PROXY ?? false);
// Pages and JSON answers are compressed whole by sendResponse below; downloads and anything larger stream through here.
app.use(
  compression({
    brotli: { params: encoder.BROTLI_PARAMS },
    filter: (req, res) => !res.locals.sentWhole && compression.filter(req, res),
  }),
);
app.use("/assets", express.static(`${buildDir}/client/assets`, { immutable: true, maxAge: "1y" }));
// The other files of the client build (favicon.ico, ...), by their names listed once: a page or API request
// never costs a look at the disk.
const clientFiles = new Set(
  fs
    .readdirSync(`${buildDir}/client`, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => `/${entry.name}`),
);
const clientStatic = express.static(`${buildDir}/client`, { maxAge: "1h" });
app.use((req, res, next) => (clientFiles.has(req.path) ? clientStatic(req, res, next) : next()));

/**
 * Past this process's bound, a new visitor is answered at once with the busy page (503, Retry-After, in their
 * language) before anything else is read; staff and visitors already in a journey go on
 * (app/http/admission.server.ts).
 */
app.use(admission.admission({ pagesDir: `${buildDir}/client/busy` }));

/** The address the app sees (rate limits, the audit trail): set here, never taken from the client. */
app.use((req, _res, next) => {
  req.headers[ADDRESS_HEADER] = req.ip ?? req.socket.remoteAddress ?? "unknown";
  next();
});

/** Back-office pages and API answers carry personal data: never stored by a browser or proxy, unless a route says otherwise. */
app.use((req, res, next) => {
  if (/^\/(admin|api|login|reset-password|files)(\/|$)/.test(req.path)) {
    onHeaders(res, () => {
      if (!res.getHeader("Cache-Control")) res.setHeader("Cache-Control", "no-store");
    });
  }
  next();
});

/** A state-changing request from another site (one rule, app/http/same-origin.server.ts). */
const isCrossSite = (req) =>
  isCrossSiteRequest(req.method, { get: (name) => req.get(name) ?? null }, req.get("host") ?? null);

/**
 * Legacy ?_data= requests are not used with single fetch: refused, so no route is reached by them. A cross-site
 * one is left to the cross-site refusal below: it answers 403 like every other cross-site post, whatever the query.
 */
app.use((req, res, next) => {
  if (req.query._data !== undefined && !isCrossSite(req)) {
    return res.status(400).json({ message: "Unsupported request." });
  }
  next();
});

/**
 * A body the answer did not read to its end (refused past its limit) is read on and thrown away once the answer
 * has gone: a keep-alive connection is then free for the next request, and one being closed reads on while it
 * lingers (below), so the client can finish sending and read its answer.
 */
app.use((req, res, next) => {
  res.once("finish", () => {
    if (req.complete) return;
    req.removeAllListeners("data");
    req.on("data", () => {});
    req.resume();
  });
  next();
});

/**
 * A declared body larger than any route reads is refused without being kept; each route's own limit
 * is enforced while reading. A body up to DRAIN_BYTES is read and thrown away first, so the client
 * has finished sending and surely sees the 413; a larger one gets the 413 and the connection closed.
 */
app.use((req, res, next) => {
  const length = Number(req.headers["content-length"] ?? 0);
  if (!(length > MAX_BODY_BYTES)) return next();
  const refuse = () => res.status(413).json(TOO_LARGE_BODY);
  if (length > DRAIN_BYTES) {
    res.set("Connection", "close");
    return refuse();
  }
  req.on("end", refuse);
  req.resume();
});

/** A state-changing request from another site: refused before any route runs, whatever its query. */
app.use((req, res, next) => {
  if (!isCrossSite(req)) return next();
  if (req.path.startsWith("/api/")) return res.status(403).json({ message: "Cross-site requests are not accepted." });
  // The 403 page in the site's chrome (public or back office, by the refused address), rendered by the app.
  // Nothing of the refused address's query (?_data=, ?index) goes on.
  const query = { reason: "cross-site", from: req.path };
  req.method = "GET";
  req.url = req.originalUrl = `/forbidden?${new URLSearchParams(query)}`;
  req.query = query;
  req.headers["content-length"] = "0";
  delete req.headers["content-type"];
  req.resume();
  next();
});

/** The most of a body gathered before it is written. */
const BATCH_BYTES = 64 * 1024;

/**
 * Sends a Remix response body. A page or JSON answer up to WHOLE_MAX_BYTES is gathered and sent whole,
 * compressed in one go (sendWhole). Anything else streams, waiting for "drain" whenever the connection's
 * buffer is full, so a large download (a streamed .xls) is read from its source only as fast as the client
 * takes it and never piles up in memory. (Remix 2's express adapter writes every chunk without waiting.)
 */
async function sendResponse(res, response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
  if (/text\/event-stream/i.test(response.headers.get("Content-Type") ?? "")) res.flushHeaders();
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  if (encoder.isWholeAnswer(response.headers.get("Content-Type")) && !response.headers.has("Content-Encoding")) {
    const start = await readUpTo(reader, encoder.WHOLE_MAX_BYTES).catch((error) => {
      res.destroy(error);
      throw error;
    });
    if (start.done) return sendWhole(res, Buffer.concat(start.chunks, start.size));
    res.write(Buffer.concat(start.chunks, start.size)); // past the size gathered whole: streamed from here
  }
  let closed = false; // before end(), "close" means the client went away
  let wake = () => {};
  // One listener each for the whole body: the compression middleware passes "drain" listeners on to its
  // gzip stream but not their removal, so a listener per wait would pile up there.
  res.once("close", () => {
    closed = true;
    wake();
  });
  res.on("drain", () => wake());
  const drained = () => new Promise((resolve) => (wake = resolve));
  // The chunks that come one after another (a page as it is rendered) are written together and flushed
  // once the body pauses: with compression, each write is a round trip to zlib's thread and each flush
  // ends a compressed block, which per chunk cost more than the page itself.
  const batch = [];
  let size = 0;
  const ready = () => true; // a failed read is ready too: it is thrown at the loop's next await
  const pause = () => new Promise((resolve) => setImmediate(resolve, false));
  try {
    let read = reader.read();
    for (;;) {
      const { done, value } = await read;
      if (done) break;
      batch.push(value);
      size += value.byteLength;
      read = reader.read();
      if (size < BATCH_BYTES && (await Promise.race([read.then(ready, ready), pause()]))) continue;
      const more = res.write(batch.length === 1 ? batch[0] : Buffer.concat(batch, size));
      batch.length = size = 0;
      res.flush?.(); // compression: send what is ready (streamed HTML waiting for its data)
      if (!more && !closed) await drained();
      if (closed) return void (await reader.cancel());
    }
    if (size) res.write(Buffer.concat(batch, size));
    res.end();
  } catch (error) {
    res.destroy(error);
    throw error;
  }
}

/** The chunks of a body until its end, or until more than `max` bytes have come. */
async function readUpTo(reader, max) {
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { chunks, size, done: true };
    chunks.push(value);
    size += value.byteLength;
    if (size > max) return { chunks, size, done: false };
  }
}

/** A whole answer, compressed in one go as the client accepts (app/http/compression.server.ts), with its length. */
function sendWhole(res, body) {
  const encoding =
    body.length >= encoder.COMPRESS_MIN_BYTES ? encoder.pickEncoding(res.req.headers["accept-encoding"]) : "identity";
  const sent = encoder.compressWhole(body, encoding);
  res.locals.sentWhole = true; // the compression middleware leaves it as it is
  res.vary("Accept-Encoding");
  if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", String(sent.length));
  res.end(sent);
}

const handleRequest = createRequestHandler(build, process.env.NODE_ENV);
app.all("*", async (req, res, next) => {
  try {
    // The public pages every visitor sees alike are kept rendered (app/http/page-cache.server.ts).
    const key = pageCache.pageCacheKey(req.method, req.originalUrl, req.headers.cookie);
    const page = key && pageCache.cachedPage(key);
    const sendKept = (kept) =>
      pageCache.sendPage(res, kept, {
        method: req.method,
        acceptEncoding: req.headers["accept-encoding"],
        setNonce: (nonce) => (res.locals.cspNonce = nonce),
      });
    if (page) return sendKept(page);
    const response = await handleRequest(createRemixRequest(req, res), {
      clientAddress: req.headers[ADDRESS_HEADER],
      cspNonce: res.locals.cspNonce,
    });
    if (key && req.method === "GET" && pageCache.isShareable(response, key)) {
      return sendKept(await pageCache.keepPage(key, response, res.locals.cspNonce));
    }
    await sendResponse(res, response);
  } catch (error) {
    next(error);
  }
});

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "0.0.0.0";
// Connections waiting to be taken (the kernel caps it at net.core.somaxconn). Node's 511 filled while both
// processes were busy with a beacon round's draws for half a second at 120 visitors a second: the kernel then
// dropped new connections, and nginx's tries again came 1, 3, 7 and 15 s later, unseen by admission control.
const backlog = Number(process.env.LISTEN_BACKLOG ?? 4096);
let stopCopies = () => {};
const server = app.listen(port, host, backlog, () => {
  console.log(`Campaign server on http://localhost:${port}`);
  // Under cluster.js, more listening descriptors of the same socket: more connections taken a turn (app/http/listeners.server.ts).
  stopCopies = build.entry.module.listenOnCopies(server);
});
// An idle keep-alive connection is closed by the client (or nginx's upstream pool) before the server closes it:
// with Node's 5 s, a request sent on a connection the server was closing at that moment got ECONNRESET.
server.keepAliveTimeout = Number(process.env.KEEP_ALIVE_MS ?? 65_000);
server.headersTimeout = server.keepAliveTimeout + 1_000;

/**
 * A connection the server closes after an answer while the client may still be sending (a body past its limit,
 * answered 413 with `Connection: close`) closes its own side and reads on, throwing the bytes away, until the
 * client closes or LINGER_MS have passed (nginx's lingering close). Closed at once, the unread bytes made the
 * kernel answer the client's next bytes with a reset, which could reach it before it had read the 413.
 */
const LINGER_MS = 2_000;
server.on("connection", (socket) => {
  socket.destroySoon = function lingeringClose() {
    if (this.writable) this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    this.once("close", () => clearTimeout(timer));
  };
});
const stopWorkers = build.entry.module.startWorkers?.();
const stopMonitor = build.entry.module.startEventLoopMonitor?.();

// A parent that started this server with an IPC channel (the benchmark) can read the event-loop delay.
if (process.send) {
  process.on("message", (message) => {
    if (message?.type !== "event-loop") return;
    process.send({
      type: "event-loop",
      delay: build.entry.module.eventLoopDelay?.({ reset: !!message.reset }) ?? null,
    });
  });
}

/**
 * SIGTERM / SIGINT: stop accepting connections, let the requests in flight finish (keep-alive connections are
 * closed once idle), let the SMS worker finish the message it is sending and put the rest it claimed back in the
 * queue, then exit. SHUTDOWN_GRACE_MS bounds the wait (longer than the SMS gateway's 10 s timeout). A repeated
 * signal changes nothing (under Litestream or npm the same stop can arrive twice: from the service manager and
 * passed on by the parent).
 */
const graceMs = Number(process.env.SHUTDOWN_GRACE_MS ?? 25_000);
let shuttingDown = false;
async function shutdown(signal) {
  if (shuttingDown) return;
  shuttingDown = true;
  console.log(`${signal}: finishing the requests in flight, then stopping`);
  setTimeout(() => {
    console.error(`Stopped after ${graceMs} ms with work still running`);
    process.exit(1);
  }, graceMs).unref();
  stopCopies();
  const closed = new Promise((resolve) => server.close(resolve));
  const idle = setInterval(() => server.closeIdleConnections(), 100);
  server.closeIdleConnections();
  await Promise.allSettled([closed, stopWorkers?.()]);
  stopMonitor?.();
  clearInterval(idle);
  process.exit(0);
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
