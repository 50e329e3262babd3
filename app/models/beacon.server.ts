/**
 * The public randomness beacon (drand quicknet by default; docs/decisions/0019-fair-draws.md).
 * A draw asks for the randomness of one round: each round is fetched once per process and shared
 * by every draw waiting on it, the wait is a timer (no CPU), the signature is checked against the
 * chain's public key before the value is used, and a round that does not come within the bound
 * (BEACON_WAIT_MS after its time) gives way to the house seed. Once the beacon is known to be down,
 * draws stop waiting on it: they use the house seed at once until a probe finds it up again.
 */
import { beaconConfig, type BeaconConfig } from "~/utils/config.server";
import { signatureVerifies } from "../../scripts/fair-draws-bls.mjs";
import { randomnessOf, roundAfter, roundTimeMs } from "../../scripts/fair-draws-core.mjs";

export type Material =
  | { source: "beacon"; round: number; signature: string; randomness: string }
  | { source: "house"; round: number; reason: string };

export const UNREACHABLE = "beacon unreachable";
export const CLOCK_AHEAD = "beacon round not due: the server's clock is ahead";
export const OTHER_CHAIN = "the day's beacon is not the one this server reads";

/** The public description of the chain, as the day's terms commit it. */
export type ChainInfo = { name: string; chain_hash: string; public_key: string; genesis_time: number; period: number };

export const chainInfo = (c: BeaconConfig | null = beaconConfig()): ChainInfo | null =>
  c && {
    name: c.name,
    chain_hash: c.chainHash,
    public_key: c.publicKey,
    genesis_time: c.genesis,
    period: c.period,
  };

/** A round's time and the first round after an instant: the checker's own rules. */
export { roundAfter, roundTimeMs };

const FETCH_TIMEOUT_MS = 1500;
const RETRY_MS = 200;
const PROBE_EVERY_MS = 10_000;
const KEPT_ROUNDS = 512;

type State = { up: boolean; since: string; lastError: string | null };
const state: State = { up: true, since: new Date().toISOString(), lastError: null };
const rounds = new Map<number, Promise<Material>>();
let probing: Promise<void> | null = null;
let lastProbe = 0;

/** Whether the beacon answers, since when, and the last error: for /healthz and head office. */
export function beaconStatus(): { configured: boolean; up: boolean; since: string; lastError: string | null } {
  return { configured: beaconConfig() !== null, up: state.up, since: state.since, lastError: state.lastError };
}

function mark(up: boolean, error: string | null = null) {
  if (state.up !== up) state.since = new Date().toISOString();
  state.up = up;
  state.lastError = error ?? state.lastError;
}

class NotYet extends Error {}
/** Errors that say the beacon cannot be reached at all (no name, no route, refused, a forged answer); others may pass. */
const UNREACHABLE_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ENETUNREACH", "EHOSTUNREACH"]);
const isTransient = (error: unknown) => {
  if (!(error instanceof Error)) return false;
  if (/does not verify|sent round/.test(error.message)) return false;
  const code = (error.cause as { code?: string } | undefined)?.code;
  return !code || !UNREACHABLE_CODES.has(code);
};

async function fetchRound(c: BeaconConfig, round: number | "latest"): Promise<Material & { source: "beacon" }> {
  let lastError: unknown = null;
  for (const url of c.urls) {
    try {
      const res = await fetch(`${url}/${c.chainHash}/public/${round}`, {
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      });
      if (res.status === 404 || res.status === 425) throw new NotYet(`${url} has no round ${round} yet`);
      if (!res.ok) throw new Error(`${url} answered ${res.status}`);
      const body = (await res.json()) as { round?: unknown; signature?: unknown };
      const n = Number(body.round);
      const signature = String(body.signature ?? "");
      if (round !== "latest" && n !== round) throw new Error(`${url} sent round ${n} for ${round}`);
      if (!(await signatureVerifies(c.publicKey, n, signature)))
        throw new Error(`${url} sent a signature that does not verify`);
      return { source: "beacon", round: n, signature, randomness: await randomnessOf(signature) };
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError ?? new Error("no beacon relay configured");
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

async function obtain(c: BeaconConfig, round: number): Promise<Material> {
  const info = chainInfo(c)!;
  const due = roundTimeMs(info, round);
  const deadline = due + c.waitMs;
  if (!state.up) return house(c, round);
  // A round due much later than one period from now: this clock and the beacon's disagree.
  if (due - Date.now() > c.period * 1000 + c.waitMs) return { source: "house", round, reason: CLOCK_AHEAD };
  await sleep(due - Date.now());
  for (;;) {
    try {
      const got = await fetchRound(c, round);
      mark(true);
      return got;
    } catch (error) {
      // A relay that answers "not yet", or slowly, may still bring the round: try again until the
      // bound. Anything else (no route, refused, a bad signature from every relay) marks the beacon
      // down at once.
      if (!(error instanceof NotYet) && !isTransient(error)) {
        mark(false, String((error as Error).message ?? error));
        return house(c, round);
      }
      if (Date.now() + RETRY_MS > deadline) {
        mark(false, `round ${round} did not come within ${c.waitMs} ms`);
        return house(c, round);
      }
      await sleep(RETRY_MS);
    }
  }
}

function house(c: BeaconConfig | null, round: number): Material {
  if (c) probeSoon(c);
  return { source: "house", round, reason: UNREACHABLE };
}

/** While the beacon is down, one probe every PROBE_EVERY_MS (started by the draws that ask). */
function probeSoon(c: BeaconConfig) {
  if (probing || Date.now() - lastProbe < PROBE_EVERY_MS) return;
  lastProbe = Date.now();
  probing = fetchRound(c, "latest")
    .then(() => mark(true))
    .catch((error: Error) => mark(false, String(error.message ?? error)))
    .finally(() => {
      probing = null;
    });
}

/** The randomness of a round, fetched once per process and shared; the house seed when the beacon fails. */
export function material(round: number): Promise<Material> {
  const c = beaconConfig();
  if (!c) return Promise.resolve({ source: "house", round, reason: "no beacon configured" });
  let pending = rounds.get(round);
  if (!pending) {
    pending = obtain(c, round).then((m) => {
      if (m.source !== "beacon") rounds.delete(round); // a later ask may find the beacon back
      return m;
    });
    rounds.set(round, pending);
    if (rounds.size > KEPT_ROUNDS) {
      const oldest = rounds.keys().next().value!;
      rounds.delete(oldest);
    }
  }
  return pending;
}

/** At start: one probe, so a machine without the beacon draws with the house seed at once rather than after a wait. */
export function probeBeacon(): Promise<void> {
  const c = beaconConfig();
  if (!c) return Promise.resolve();
  return fetchRound(c, "latest").then(
    () => mark(true),
    (error: Error) => {
      if (!(error instanceof NotYet)) mark(false, String(error.message ?? error));
    },
  );
}

/** Forget every round and the beacon's state (tests that restart their beacon). */
export function resetBeacon(): void {
  rounds.clear();
  state.up = true;
  state.lastError = null;
  lastProbe = 0;
}
