/**
 * The real `node server.js` for a test, on a free port of 127.0.0.1, with its own data folder and database file.
 * Its build is the app made from the source by Vite when the server starts (tests/integration/source-build.mjs), so it
 * needs no `remix vite:build`: `npm test` runs vitest before the build.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { freePort } from "../free-port";

const root = fileURLToPath(new URL("../..", import.meta.url));
const sourceBuild = pathToFileURL(fileURLToPath(new URL("./source-build.mjs", import.meta.url))).href;

export type ServerProcess = {
  child: ChildProcess;
  url: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output: () => string;
  /** Resolves once a line of the output matches. */
  waitFor: (pattern: RegExp) => Promise<void>;
  /** The process's end: its exit code, or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL if it still runs (a test's clean-up). */
  kill: () => void;
  /** With `probeStatements`: the SQLite statements run answering the requests sent with `X-Statement-Probe: id`. */
  statements: (id: string) => Promise<number>;
};

/**
 * Starts server.js with `dir` (a fresh folder inside the project, e.g. under TEST_TMP_DIR) as its data folder
 * and build folder; resolves when it listens. `entry` cluster.js starts it as WEB_CONCURRENCY workers. `env` adds to or overrides the environment (DATABASE_URL, ...).
 */
export async function startServer(
  dir: string,
  env: Record<string, string> = {},
  {
    entry = "server.js",
    probeStatements = false,
  }: {
    entry?: "server.js" | "cluster.js";
    /** Preload tests/statement-probe.mjs, which counts each probed request's SQLite statements. */
    probeStatements?: boolean;
  } = {},
): Promise<ServerProcess> {
  const buildDir = path.join(dir, "build");
  fs.mkdirSync(path.join(buildDir, "server"), { recursive: true });
  // The client build's files that the server reads itself (the busy pages), as Vite copies them from public/.
  fs.cpSync(path.join(root, "public"), path.join(buildDir, "client"), { recursive: true });
  fs.writeFileSync(path.join(buildDir, "server", "index.js"), `export * from ${JSON.stringify(sourceBuild)};\n`);
  // server.js takes BUILD_DIR relative to itself.
  const relativeBuild = path.relative(root, buildDir);
  if (relativeBuild.startsWith("..") || path.isAbsolute(relativeBuild)) {
    throw new Error(`The server's folder must be inside the project: ${dir}`);
  }
  const port = await freePort();
  const preload = probeStatements ? ["--import", path.join(root, "tests", "statement-probe.mjs")] : [];
  const child = spawn(process.execPath, [...preload, entry], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      BUILD_DIR: relativeBuild,
      DATA_DIR: path.join(dir, "data"),
      DATABASE_URL: `file:${path.join(dir, "data", "app.sqlite")}`,
      VITE_CACHE_DIR: path.join(dir, "vite"),
      SESSION_SECRET: "server-process-secret",
      COOKIE_SECURE: "false",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe", ...(probeStatements ? (["ipc"] as const) : [])],
  });
  let output = "";
  const waiters = new Set<{ pattern: RegExp; resolve: () => void }>();
  const take = (chunk: Buffer) => {
    output += chunk.toString();
    for (const w of waiters) {
      if (w.pattern.test(output)) {
        waiters.delete(w);
        w.resolve();
      }
    }
  };
  child.stdout!.on("data", take);
  child.stderr!.on("data", take);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const waitFor = (pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      if (pattern.test(output)) return resolve();
      waiters.add({ pattern, resolve });
      void exited.then(({ code, signal }) =>
        reject(new Error(`server.js ended (${code ?? signal}) before ${pattern}:\n${output}`)),
      );
    });
  const server: ServerProcess = {
    child,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    waitFor,
    exited,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
    statements: (id) => askStatements(child, id),
  };
  await waitFor(/Campaign server on /);
  return server;
}

/** The statement count tests/statement-probe.mjs kept for a probe id, asked over the IPC channel. */
export function askStatements(child: ChildProcess, id: string): Promise<number> {
  return new Promise((resolve, reject) => {
    if (!child.send) return reject(new Error("the server was started without probeStatements"));
    const onMessage = (message: { type?: string; id?: string; count?: number }) => {
      if (message?.type !== "statements" || message.id !== id) return;
      child.off("message", onMessage);
      resolve(message.count ?? 0);
    };
    child.on("message", onMessage);
    child.send({ type: "statements", id });
  });
}
