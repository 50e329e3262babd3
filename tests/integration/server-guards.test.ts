/**
 * The real server's outer rules: a method the app does not serve answers 405 with Allow (JSON on
 * API paths), never 500; and the files it makes (the database, its WAL, the data folder, the
 * session secret) are readable by the service alone. In the process itself, uploads and backups
 * follow the same modes.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databasePath, openDatabase } from "@db/index";
import { storeImage } from "~/models/file.server";
import { uploadsDir } from "~/utils/config.server";
import { backupDatabase } from "../../scripts/backup";
import { startServer, type ServerProcess } from "./server-process";

const dir = path.join(process.env.TEST_TMP_DIR!, `guards-${crypto.randomBytes(4).toString("hex")}`);
let server: ServerProcess;

beforeAll(async () => {
  fs.mkdirSync(dir, { recursive: true });
  // A new data folder and database of the server's own; no SESSION_SECRET, so it writes its secret file.
  server = await startServer(dir, { SESSION_SECRET: "" });
}, 180_000);

afterAll(() => server?.kill());

const mode = (file: string) => fs.statSync(file).mode & 0o777;

/** A request by node:http, which sends any method (fetch refuses TRACE and CONNECT). */
function send(
  method: string,
  url: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("methods the app does not serve", () => {
  for (const method of ["TRACE", "PROPFIND", "OPTIONS", "MKCOL"]) {
    it(`${method} is 405 with Allow: a page in text, an API path in JSON`, async () => {
      const page = await send(method, `${server.url}/`);
      expect(page.status).toBe(405);
      expect(page.headers.allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE");
      const api = await send(method, `${server.url}/api/v1/branches`);
      expect(api.status).toBe(405);
      expect(api.headers["content-type"]).toMatch(/application\/json/);
      expect(JSON.parse(api.body)).toEqual({ message: "Method not allowed." });
    });
  }
});

describe("files only the service reads", () => {
  it("the server's data folder is 0700; its database, WAL and secret 0600", async () => {
    // A page that reads the session makes sure the secret exists.
    expect((await fetch(`${server.url}/login`)).status).toBe(200);
    const data = path.join(dir, "data");
    expect(mode(data).toString(8)).toBe("700");
    for (const f of ["app.sqlite", "app.sqlite-wal", ".session-secret"]) {
      expect(`${f} ${mode(path.join(data, f)).toString(8)}`).toBe(`${f} 600`);
    }
  });

  it("a database put straight into a shared folder (sticky, as /tmp) leaves the folder as it was", () => {
    const shared = path.join(dir, `shared-${crypto.randomBytes(4).toString("hex")}`);
    fs.mkdirSync(shared);
    fs.chmodSync(shared, 0o1777);
    const plain = path.join(dir, `plain-${crypto.randomBytes(4).toString("hex")}`);
    fs.mkdirSync(plain);
    fs.chmodSync(plain, 0o755);
    for (const folder of [shared, plain]) openDatabase(path.join(folder, "app.sqlite")).$client.close();
    expect((fs.statSync(shared).mode & 0o7777).toString(8)).toBe("1777");
    expect(mode(path.join(shared, "app.sqlite")).toString(8)).toBe("600");
    // A folder of its own is narrowed as before.
    expect(mode(plain).toString(8)).toBe("700");
  });

  it("an upload and its folders, and a backup's folder and files, are private too", async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#c00" } })
      .png()
      .toBuffer();
    const stored = await storeImage(png, { type: "video", filename: "x.png" });
    let at = path.join(uploadsDir(), stored.path);
    expect(mode(at).toString(8)).toBe("600");
    while (at !== uploadsDir()) {
      at = path.dirname(at);
      expect(`${at} ${mode(at).toString(8)}`).toBe(`${at} 700`);
    }
    const { dir: backup } = await backupDatabase({ dbFile: databasePath(), out: path.join(dir, "backups") });
    expect(mode(backup).toString(8)).toBe("700");
    for (const f of fs.readdirSync(backup, { recursive: true }) as string[]) {
      const full = path.join(backup, f);
      expect(`${f} ${mode(full).toString(8)}`).toBe(`${f} ${fs.statSync(full).isDirectory() ? "700" : "600"}`);
    }
  });
});
