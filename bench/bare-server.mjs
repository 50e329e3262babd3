// The yardsticks of the benchmark: a bare node:http server doing one durable SQLite insert per
// POST (WAL, synchronous FULL), to set the application's public POSTs against, and answering
// every GET with a static 15 KB HTML page, to set the landing page against.
import Database from "better-sqlite3";
import http from "node:http";

const file = process.argv[2];
const port = Number(process.argv[3]);
const db = new Database(file);
db.pragma("journal_mode = WAL");
db.pragma("synchronous = FULL");
db.exec(`create table if not exists enquiries (
  id integer primary key, name text not null, phone text not null, citizenship_no text not null, created_at text not null
)`);
const page = Buffer.from(
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Static</title></head><body>${"<p>Share It. Win It.</p>\n".repeat(600)}</body></html>`,
).subarray(0, 15 * 1024);
const insert = db.prepare("insert into enquiries (name, phone, citizenship_no, created_at) values (?, ?, ?, ?)");

http
  .createServer((req, res) => {
    if (req.method !== "POST") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": page.length }).end(page);
      return;
    }
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        const info = insert.run(
          String(body.name),
          String(body.phone),
          String(body.citizenship_no),
          new Date().toISOString(),
        );
        res
          .writeHead(201, { "content-type": "application/json" })
          .end(JSON.stringify({ data: { id: Number(info.lastInsertRowid) } }));
      } catch (e) {
        res.writeHead(422, { "content-type": "application/json" }).end(JSON.stringify({ message: String(e) }));
      }
    });
  })
  .listen(port, "127.0.0.1", () => process.send?.("ready"));
