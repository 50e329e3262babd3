/**
 * Litestream beside the app: continuous replication of the SQLite database to a replica off the machine
 * (S3-compatible storage in production, a local folder in tests), configured by environment through
 * litestream.yml. The binary comes with npm (@flydotio/litestream-linux-x64); LITESTREAM_BIN overrides it.
 *
 *   npm run replicate                      replicate the database of DATABASE_URL until stopped
 *   npm run replicate -- node server.js    run the server under Litestream (it stops when the server stops,
 *                                          and passes SIGTERM on to it)
 *
 * Environment: LITESTREAM_REPLICA_URL (required: s3://bucket/path or file:///path), LITESTREAM_ENDPOINT,
 * LITESTREAM_REGION, LITESTREAM_FORCE_PATH_STYLE (S3-compatible providers), LITESTREAM_ACCESS_KEY_ID,
 * LITESTREAM_SECRET_ACCESS_KEY.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { databasePath } from "@db/index";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The committed configuration (values expanded from the environment by Litestream). */
export const LITESTREAM_CONFIG = path.join(root, "litestream.yml");

export function litestreamBinary(): string {
  if (process.env.LITESTREAM_BIN) return process.env.LITESTREAM_BIN;
  const pkg = createRequire(import.meta.url).resolve("@flydotio/litestream-linux-x64/package.json");
  return path.join(path.dirname(pkg), "litestream");
}

/** The environment Litestream runs with: LITESTREAM_DB_PATH from DATABASE_URL unless set; optional values empty. */
export function litestreamEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  if (!env.LITESTREAM_REPLICA_URL) throw new Error("Set LITESTREAM_REPLICA_URL (s3://bucket/path or file:///path).");
  return {
    LITESTREAM_ENDPOINT: "",
    LITESTREAM_REGION: "",
    LITESTREAM_FORCE_PATH_STYLE: "false",
    ...env,
    LITESTREAM_DB_PATH: path.resolve(env.LITESTREAM_DB_PATH ?? databasePath()),
  };
}

/** Starts `litestream replicate` (with `exec` as its supervised child, if given). */
export function startReplication(
  env: NodeJS.ProcessEnv = process.env,
  { exec, quiet = false }: { exec?: string; quiet?: boolean } = {},
): ChildProcess {
  const args = ["replicate", "-config", LITESTREAM_CONFIG, ...(exec ? ["-exec", exec] : [])];
  return spawn(litestreamBinary(), args, { env: litestreamEnv(env), stdio: quiet ? "ignore" : "inherit" });
}

/** Restores the replica's latest state into `out` (which must not exist yet). */
export function litestreamRestore(url: string, out: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (fs.existsSync(out)) return Promise.reject(new Error(`${out} exists already`));
  return new Promise((resolve, reject) => {
    let log = "";
    const child = spawn(litestreamBinary(), ["restore", "-o", out, url], {
      env: { ...env, LITESTREAM_DB_PATH: out },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", (c) => (log += c));
    child.stderr.on("data", (c) => (log += c));
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 && fs.existsSync(out)
        ? resolve()
        : reject(new Error(`litestream restore failed (${code}): ${log.trim()}`)),
    );
  });
}

function main() {
  const [command, ...rest] = process.argv.slice(2);
  if (command !== "replicate") throw new Error("Usage: tsx scripts/litestream.ts replicate [-- command to run]");
  const exec = rest.filter((a) => a !== "--").join(" ");
  const child = startReplication(process.env, { exec: exec || undefined });
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  try {
    main();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
