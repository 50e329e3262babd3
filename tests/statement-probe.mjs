/**
 * Preloaded into a server under test (`node --import ./tests/statement-probe.mjs server.js`, with an IPC
 * channel): counts the SQLite statements run while answering each request that carries an
 * `X-Statement-Probe: <id>` header (better-sqlite3's statements and its exec/pragma, followed through the
 * request's async work), so a test can show that a path reads nothing and that another does. The parent asks
 * `{ type: "statements", id }` and gets `{ type: "statements", id, count }` (0 for an id never seen).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import http from "node:http";
import Database from "better-sqlite3";

const counts = new Map();
const current = new AsyncLocalStorage();

const count = (method) =>
  function counted(...args) {
    const id = current.getStore();
    if (id !== undefined) counts.set(id, (counts.get(id) ?? 0) + 1);
    return method.apply(this, args);
  };

const probe = new Database(":memory:");
const Statement = Object.getPrototypeOf(probe.prepare("select 1"));
probe.close();
for (const name of ["run", "get", "all", "iterate"]) Statement[name] = count(Statement[name]);
for (const name of ["exec", "pragma"]) Database.prototype[name] = count(Database.prototype[name]);

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function emitWithProbe(event, req, ...rest) {
  const id = event === "request" ? req.headers["x-statement-probe"] : undefined;
  if (typeof id !== "string") return emit.call(this, event, req, ...rest);
  counts.set(id, counts.get(id) ?? 0);
  return current.run(id, () => emit.call(this, event, req, ...rest));
};

process.on("message", (message) => {
  if (message?.type !== "statements") return;
  process.send?.({ type: "statements", id: message.id, count: counts.get(message.id) ?? 0 });
});
