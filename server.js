// Production server: Express + compression serving the Remix build. It hands the
// client address to loaders (rate limits) and starts the background workers.
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";

process.env.NODE_ENV ??= "production";
const buildDir = process.env.BUILD_DIR ?? "build";
const build = await import(new URL(`./${buildDir}/server/index.js`, import.meta.url).href);

const app = express();
app.disable("x-powered-by");
// Behind nginx on the VPS set TRUST_PROXY=loopback so req.ip is the visitor's address.
app.set("trust proxy", process.env.TRUST_PROXY ?? false);
app.use(compression());
app.use("/assets", express.static(`${buildDir}/client/assets`, { immutable: true, maxAge: "1y" }));
app.use(express.static(`${buildDir}/client`, { maxAge: "1h" }));
app.all(
  "*",
  createRequestHandler({
    build,
    getLoadContext: (req) => ({ clientAddress: req.ip ?? req.socket.remoteAddress ?? "unknown" }),
  }),
);

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "0.0.0.0";
const server = app.listen(port, host, () => {
  console.log(`Campaign server on http://localhost:${port}`);
});
const stopWorkers = build.entry.module.startWorkers?.();

function shutdown() {
  stopWorkers?.();
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 5000).unref();
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
