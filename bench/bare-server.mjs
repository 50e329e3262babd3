// The yardstick of the benchmark: a bare node:http server doing one durable SQLite insert per
// POST (WAL, synchronous FULL), to set the application's public pre-registration POST against.
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
const insert = db.prepare("insert into enquiries (name, phone, citizenship_no, created_at) values (?, ?, ?, ?)");

http
  .createServer((req, res) => {
    if (req.method !== "POST") {
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
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
