/**
 * More than one new connection a turn of the event loop. libuv, under Node 20, takes one connection from a
 * listening socket per turn of the loop (libuv pull request 3696, "don't accept() connections in a loop"). Past
 * capacity a worker's turns last tens to hundreds of milliseconds, and nginx opens a connection to the app for
 * nearly every request (it keeps few idle, deploy/nginx/campaign.conf): the connections waited in the kernel's
 * queue (2,290 of them at 120 visitors a second, for seconds), where admission control cannot see them, refuse
 * them or put staff first. Under cluster.js each worker asks the primary for LISTEN_COPIES copies of its
 * listening socket (the same socket under another descriptor, passed back over the cluster's channel) and
 * listens on each as well: every copy takes a connection a turn, and each connection goes to the one server.
 * A process started alone (not under cluster.js) keeps the one.
 */
import cluster from "node:cluster";
import type http from "node:http";
import net from "node:net";

/** The listening descriptors of a worker: at most this many connections taken a turn. */
export const LISTEN_COPIES = 16;

const COPY = "listen-copy";
const copies: net.Server[] = [];
let thisTurn = 0;
let mostInOneTurn = 0;

/** The connections a turn can take and the most taken in one turn since the last read with `reset` (GET /healthz). */
export function connectionTaking({ reset = false } = {}): { listeners: number; mostInOneTurn: number } {
  const figures = { listeners: 1 + copies.length, mostInOneTurn };
  if (reset) mostInOneTurn = 0;
  return figures;
}

/** Counts the connections `server` takes in each turn of the loop (connections come in the poll phase). */
function countTurns(server: http.Server) {
  server.on("connection", () => {
    if (thisTurn++ > 0) return;
    setImmediate(() => {
      if (thisTurn > mostInOneTurn) mostInOneTurn = thisTurn;
      thisTurn = 0;
    });
  });
}

/**
 * Once `server` listens: under cluster.js, asks the primary for LISTEN_COPIES - 1 copies of its listening socket
 * and passes every connection taken on a copy to `server`. Returns the function that stops the copies (a
 * graceful stop closes them with the server).
 */
export function listenOnCopies(server: http.Server, count = LISTEN_COPIES): () => void {
  countTurns(server);
  const handle = (server as unknown as { _handle?: unknown })._handle;
  if (!cluster.isWorker || !process.send || !handle) return () => undefined;
  process.on("message", (message: { type?: string } | null, copy: unknown) => {
    if (message?.type !== COPY || !copy) return;
    const taker = net.createServer((socket) => server.emit("connection", socket));
    taker.listen(copy as net.Server);
    copies.push(taker);
  });
  for (let i = 1; i < count; i++) process.send({ type: COPY }, handle as net.Server);
  return () => {
    for (const taker of copies.splice(0)) taker.close();
  };
}
