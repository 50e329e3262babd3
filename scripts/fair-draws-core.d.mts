/** Types of scripts/fair-draws-core.mjs (the shared rules of a fair-draw day). */
export type FairPool = { id: number; amount: number; count: number; paid: number; probability: number };
export type FairRoll = { input: string; value: number };
export type FairPrize = { amount: number; outcome: "pool" | "fallback" | "none"; allocation_id: number | null };
export type FairRecordBody = {
  seq: number;
  time: string;
  round: "second" | "third";
  ref: string;
  branch: number | null;
  pool_type: string;
  pools: FairPool[];
  base_table: { amount: number; weight: number }[];
  rolls: FairRoll[];
  prize: FairPrize;
  prev: string;
};
export type FairRecord = FairRecordBody & { hash: string };
export type FairDay = {
  date: string;
  commitment: string;
  seed: string | null;
  head?: string | null;
  records: FairRecord[];
};
export type VerifyResult = { ok: true; draws: number } | { ok: false; seq: number; ref: string; reason: string };

export function recordText(r: FairRecordBody): string;
export function rollInput(date: string, round: string, ref: string, index: number): string;
export function unitFromBytes(bytes: Uint8Array): number;
export function sha256Hex(data: string | Uint8Array): Promise<string>;
export function commitmentOf(seedHex: string): Promise<string>;
export function rollValue(seedHex: string, input: string): Promise<number>;
export function orderPools<P extends FairPool>(pools: P[]): P[];
export function pickWeighted<R extends { weight: number }>(rows: R[], value: number): R | null;
export function prizeFor(
  pools: FairPool[],
  baseTable: { amount: number; weight: number }[],
  values: number[],
): { prize: FairPrize; used: number } | null;
export function verifyDay(day: FairDay): Promise<VerifyResult>;
