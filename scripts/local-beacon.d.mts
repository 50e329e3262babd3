/** Types of scripts/local-beacon.mjs (a drand-speaking beacon on 127.0.0.1 for tests and demonstrations). */
export const DST: string;
export const DEMO_SECRET: string;
export const DEMO_GENESIS: number;
export const DEMO_PERIOD: number;
export type Beacon = { round: number; randomness: string; signature: string };
export type LocalChain = {
  info: {
    public_key: string;
    period: number;
    genesis_time: number;
    hash: string;
    groupHash: string;
    schemeID: string;
    metadata: { beaconID: string };
  };
  name: string;
  sign: (round: number) => Beacon;
  roundTimeMs: (round: number) => number;
  latestRound: (ms?: number) => number;
};
export type ChainOptions = { secret?: string; genesis?: number; period?: number; name?: string };
export function roundMessage(round: number): Uint8Array;
export function makeChain(options?: ChainOptions): LocalChain;
export function beaconSettings(chain: LocalChain, url: string): Record<string, string>;
export function startLocalBeacon(options?: ChainOptions & { port?: number; now?: () => number }): Promise<{
  url: string;
  chain: LocalChain;
  counts: { public: number };
  settings: Record<string, string>;
  close: () => Promise<void>;
}>;
