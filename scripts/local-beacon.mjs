#!/usr/bin/env node
/**
 * A beacon on 127.0.0.1 that speaks drand's HTTP API and signs its rounds the way the League of
 * Entropy's quicknet does (unchained BLS on G1, RFC 9380 hash to curve, message = SHA-256 of the
 * round as 8 bytes big-endian, randomness = SHA-256 of the signature), with a key of its own.
 * Tests, the end-to-end server and demonstrations use it: nothing here reaches the internet.
 *
 *   node scripts/local-beacon.mjs [--port 8990] [--period 3]   (prints the BEACON_* settings)
 *
 * Serves GET /{chain_hash}/info, /{chain_hash}/public/{round} (404 before the round's time, as
 * drand does) and /{chain_hash}/public/latest. The demo key (DEMO_SECRET) is public on purpose:
 * days drawn with it say "demo beacon" and prove nothing about fairness.
 */
import { createHash } from "node:crypto";
import http from "node:http";
import { pathToFileURL } from "node:url";
import { bls12_381 as bls } from "@noble/curves/bls12-381.js";

export const DST = "BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_";
const sigs = bls.shortSignatures;
const hex = (bytes) => Buffer.from(bytes).toString("hex");
const sha256 = (data) => createHash("sha256").update(data).digest();

/** The demo chain's secret key: SHA-256 of a public phrase, its top bits cleared so it is below the group order. */
export const DEMO_SECRET = (() => {
  const key = sha256("thrill campaign demo beacon: a public key, never a fair draw");
  key[0] &= 0x3f;
  return hex(key);
})();
/** The demo chain starts at 2026-01-01T00:00:00Z and, like quicknet, signs a round every 3 s. */
export const DEMO_GENESIS = 1767225600;
export const DEMO_PERIOD = 3;

/** The message a round's signature is over: SHA-256 of the round number, 8 bytes big-endian. */
export function roundMessage(round) {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(BigInt(round));
  return sha256(bytes);
}

/** A chain: its public info and a signer for its rounds. */
export function makeChain({ secret = DEMO_SECRET, genesis = DEMO_GENESIS, period = DEMO_PERIOD, name = "demo" } = {}) {
  const secretKey = Buffer.from(secret, "hex");
  const public_key = hex(sigs.getPublicKey(secretKey).toBytes());
  const hash = hex(sha256(`${name}|${public_key}|${genesis}|${period}`));
  const info = {
    public_key,
    period,
    genesis_time: genesis,
    hash,
    groupHash: hash,
    schemeID: "bls-unchained-g1-rfc9380",
    metadata: { beaconID: name },
  };
  const signed = new Map();
  const sign = (round) => {
    let beacon = signed.get(round);
    if (!beacon) {
      const signature = hex(sigs.sign(sigs.hash(roundMessage(round), DST), secretKey).toBytes());
      beacon = { round, randomness: hex(sha256(Buffer.from(signature, "hex"))), signature };
      signed.set(round, beacon);
      if (signed.size > 4096) signed.delete(signed.keys().next().value);
    }
    return beacon;
  };
  const roundTimeMs = (round) => (genesis + (round - 1) * period) * 1000;
  const latestRound = (ms = Date.now()) => Math.floor((ms / 1000 - genesis) / period) + 1;
  return { info, name, sign, roundTimeMs, latestRound };
}

/** The BEACON_* settings that point the app at a chain served at `url`. */
export const beaconSettings = (chain, url) => ({
  BEACON_URLS: url,
  BEACON_NAME: chain.name,
  BEACON_CHAIN_HASH: chain.info.hash,
  BEACON_PUBLIC_KEY: chain.info.public_key,
  BEACON_GENESIS: String(chain.info.genesis_time),
  BEACON_PERIOD: String(chain.info.period),
});

/**
 * Starts a beacon server. `now` is its clock (ms); a round is served once its time has come.
 * Returns { url, chain, settings, requests (count of /public fetches), close }.
 */
export async function startLocalBeacon({ port = 0, now = () => Date.now(), ...chainOptions } = {}) {
  const chain = makeChain(chainOptions);
  const counts = { public: 0 };
  const server = http.createServer((req, res) => {
    const send = (status, body) => {
      res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" });
      res.end(JSON.stringify(body));
    };
    const match = /^\/([0-9a-f]{64})\/(info|public\/(latest|\d+))$/.exec(req.url ?? "");
    if (!match || match[1] !== chain.info.hash) return send(404, { error: "not found" });
    if (match[2] === "info") return send(200, chain.info);
    counts.public++;
    const latest = chain.latestRound(now());
    const round = match[3] === "latest" ? latest : Number(match[3]);
    if (!(round >= 1) || round > latest) return send(404, { error: "round not yet available" });
    return send(200, chain.sign(round));
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return {
    url,
    chain,
    counts,
    settings: beaconSettings(chain, url),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? Number(process.argv[i + 1]) : fallback;
  };
  const beacon = await startLocalBeacon({ port: arg("port", 8990), period: arg("period", DEMO_PERIOD) });
  for (const [key, value] of Object.entries(beacon.settings)) console.log(`${key}=${value}`);
  const stop = () => beacon.close().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
