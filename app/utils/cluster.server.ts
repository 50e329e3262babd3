/**
 * The server's workers when cluster.js runs several (node:cluster, WEB_CONCURRENCY): this worker asks the
 * primary, which answers with every worker's index, pid, SMS slot, start, restarts and whether it listens.
 * null when this process is the only one (node server.js) or the primary does not answer in time.
 */
export type ClusterWorker = {
  index: number;
  pid: number;
  slot: string;
  startedAt: string;
  restarts: number;
  listening: boolean;
};

type Reply = { type?: string; id?: number; workers?: ClusterWorker[] };

const pending = new Map<number, (workers: ClusterWorker[]) => void>();
let asked = 0;
let listening = false;

/** This process's place among the workers, or null when it runs alone. */
export function workerIndex(): number | null {
  const index = process.env.WORKER_INDEX;
  return index === undefined || !process.send ? null : Number(index);
}

export function clusterWorkers(timeoutMs = 1_000): Promise<ClusterWorker[] | null> {
  if (workerIndex() === null) return Promise.resolve(null);
  if (!listening) {
    listening = true;
    process.on("message", (message: Reply) => {
      if (message?.type !== "cluster-workers" || message.id === undefined) return;
      pending.get(message.id)?.(message.workers ?? []);
      pending.delete(message.id);
    });
  }
  const id = ++asked;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      resolve(null);
    }, timeoutMs);
    timer.unref();
    pending.set(id, (workers) => {
      clearTimeout(timer);
      resolve(workers);
    });
    process.send!({ type: "cluster-workers?", id });
  });
}
