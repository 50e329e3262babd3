/**
 * SIGTERM to the real server process (node server.js, tests/integration/server-process.ts) while a request is in
 * flight: the server stops taking connections at once, the request (its body still coming) finishes with its
 * 200, the idle keep-alive connection it leaves does not hold the stop, and the process exits 0.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeBranch, makeUser } from "../fixtures";
import { startServer, type ServerProcess } from "./server-process";

const dir = path.join(process.env.TEST_TMP_DIR!, `shutdown-${crypto.randomBytes(4).toString("hex")}`);
let server: ServerProcess;

beforeAll(async () => {
  fs.mkdirSync(dir, { recursive: true });
  // The server's database is this file's (migrated, with the user made below); its data folder is new.
  server = await startServer(dir, { DATABASE_URL: process.env.DATABASE_URL!, SHUTDOWN_GRACE_MS: "60000" });
}, 180_000);

afterAll(() => server?.kill());

type Answer = { status: number; body: string };

/** A POST whose body the caller sends when it likes; `accepted` resolves when the server has taken the request. */
function slowPost(url: string, body: string, agent: http.Agent) {
  let onAccepted!: () => void;
  const accepted = new Promise<void>((resolve) => (onAccepted = resolve));
  let request!: http.ClientRequest;
  const answer = new Promise<Answer>((resolve, reject) => {
    request = http.request(
      url,
      {
        method: "POST",
        agent,
        headers: {
          "Content-Type": "application/json",
          "Content-Length": Buffer.byteLength(body),
          // The server says "100 Continue" once it has read the headers and handed the request on.
          Expect: "100-continue",
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on("error", reject);
      },
    );
    request.on("continue", onAccepted);
    request.on("error", reject);
    request.flushHeaders();
  });
  answer.catch(() => undefined); // a test that fails before awaiting it leaves no unhandled rejection
  return { request, accepted, answer };
}

const connectionRefused = (url: string) =>
  new Promise<string>((resolve) => {
    const req = http.get(url, { agent: false }, (res) => {
      res.resume();
      resolve(`answered ${res.statusCode}`);
    });
    req.on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("SIGTERM", () => {
  it("lets a request in flight finish with 200, refuses new connections, then exits 0", async () => {
    const user = await makeUser("branch-staff", makeBranch().id);
    const agent = new http.Agent({ keepAlive: true });
    const body = JSON.stringify({ email: user.email, password: user.password });
    const login = slowPost(`${server.url}/api/v1/auth/login`, body, agent);
    await login.accepted;
    login.request.write(body.slice(0, 10));

    server.child.kill("SIGTERM");
    await server.waitFor(/SIGTERM: finishing the requests in flight/);
    // A new connection is never answered (reset if it reached the queue in the moment the listener closed).
    expect(["ECONNREFUSED", "ECONNRESET"]).toContain(await connectionRefused(`${server.url}/healthz`));
    // Well past the idle-connection sweeps (every 100 ms): the request's connection is kept, the process runs.
    await sleep(1000);
    expect(await connectionRefused(`${server.url}/healthz`)).toBe("ECONNREFUSED");
    expect(server.child.exitCode).toBeNull();
    expect(server.child.signalCode).toBeNull();
    expect(login.request.destroyed).toBe(false);

    login.request.end(body.slice(10));
    const answer = await login.answer;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ token_type: "Bearer", user: { email: user.email } });
    expect(JSON.parse(answer.body).access_token).toMatch(/^[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}$/);

    // The keep-alive connection left idle does not hold the stop.
    expect(await server.exited).toEqual({ code: 0, signal: null });
    agent.destroy();
  }, 60_000);
});
