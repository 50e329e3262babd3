/**
 * Runs one of the project's TypeScript scripts (scripts/) in a child process, with this process's
 * environment and working folder, and resolves with what it printed. Long work (a recompute over the
 * whole campaign) runs there, so a server's event loop stays free while it waits.
 */
import { execFile } from "node:child_process";
import path from "node:path";

export function runScript(script: string, timeoutMs = 10 * 60_000): Promise<string> {
  const file = path.resolve(process.cwd(), "scripts", script);
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["--import", "tsx", file],
      { cwd: process.cwd(), env: process.env, timeout: timeoutMs, maxBuffer: 1 << 20 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${script} failed: ${stderr.trim() || error.message}`));
        else resolve(stdout);
      },
    );
  });
}
