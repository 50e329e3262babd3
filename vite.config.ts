import { vitePlugin as remix } from "@remix-run/dev";
import path from "node:path";
import { defineConfig } from "vite";
import { publicScripts } from "./scripts/public-scripts-plugin";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export const alias = {
  "~": path.resolve(__dirname, "app"),
  "@db": path.resolve(__dirname, "db"),
};

export default defineConfig({
  resolve: { alias },
  ssr: { external: ["better-sqlite3", "sharp"] },
  build: { target: "es2020" },
  plugins: [
    publicScripts({ alias }),
    remix({
      buildDirectory: process.env.BUILD_DIR ?? "build",
      ignoredRouteFiles: ["**/*.test.*", "**/*.css"],
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
  ],
});
