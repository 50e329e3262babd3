// The app's server build made from the source by Vite, for tests that start the real `node server.js` before
// (or without) `remix vite:build`: `npm test` runs vitest first. A folder holding `server/index.js` that
// re-exports this module, and an empty `client/`, is a BUILD_DIR for server.js (tests/integration/server-process.ts).
// Vite runs inside the server process with no HTTP server, websocket, file watcher or dependency scan of its
// own, and keeps its cache in VITE_CACHE_DIR (never in the shared node_modules).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createServer } from "vite";

const root = fileURLToPath(new URL("../..", import.meta.url));

const vite = await createServer({
  root,
  configFile: path.join(root, "vite.config.ts"),
  cacheDir: process.env.VITE_CACHE_DIR,
  logLevel: "warn",
  appType: "custom",
  server: { middlewareMode: true, hmr: false, ws: false, watch: null },
  optimizeDeps: { noDiscovery: true, include: [] },
  // JSX as the server's React expects it (server.js runs with NODE_ENV=production unless told otherwise); the
  // Remix plugin asks for the development transform whenever Vite serves.
  plugins: [
    {
      name: "server-jsx",
      enforce: "post",
      config: () => ({ esbuild: { jsxDev: process.env.NODE_ENV !== "production" } }),
    },
  ],
});
const build = await vite.ssrLoadModule("virtual:remix/server-build");
// Vite stays up (the app's lazy imports go through it) but server.js owns SIGTERM: the dev servers Vite made
// (the Remix plugin's route compiler is one) would exit on it before the requests in flight have finished.
for (const listener of process.listeners("SIGTERM")) process.off("SIGTERM", listener);

export const { mode, assets, assetsBuildDirectory, basename, future, isSpaMode, publicPath, entry, routes } = build;
