/** Types of scripts/fair-draws-core.mjs (the shared rules of the campaign's draws record). */
export type FairPool = { id: number; amount: number; count: number; paid: number; probability: number };
export type FairPrize = { amount: number; outcome: "pool" | "fallback" | "none"; pool: number | null };
export type TableRow = { amount: number; weight: number };
export type Chain = { name: string; chain_hash: string; public_key: string; genesis_time: number; period: number };
export type TermsBody = {
  date: string;
  chain: Chain | null;
  house_commitment: string;
  pools: { id: number; type: string; branch: number | null; amount: number; count: number; probability: number }[];
  base_tables: { second: TableRow[]; third: TableRow[] };
};
export type EntryBody = {
  seq: number;
  time: string;
  date: string;
  id: string;
  round: "second" | "third";
  pool_type: string;
  branch: number | null;
  terms: string;
  beacon_round: number | null;
  prev: string;
};
export type DrawBody = {
  seq: number;
  time: string;
  date: string;
  entry: number;
  entry_hash: string;
  id: string;
  source: "beacon" | "house";
  beacon_round: number | null;
  signature: string | null;
  reason: string | null;
  pools: FairPool[];
  base_table: TableRow[];
  rolls: number[];
  prize: FairPrize;
  prev: string;
};
export type PublishedRecord = { text: string; hash: string };
export type DayFile = {
  date: string;
  terms: string;
  terms_hash: string;
  house_seed: string | null;
  previous_head: string;
  head: string | null;
  closed?: boolean;
  records: PublishedRecord[];
};
export type Pin = { terms_hash: string; head: string | null; closed?: boolean };
export type Signatures = (publicKey: string, round: number, signature: string) => Promise<boolean>;
export type DayResult =
  | { ok: true; entries: number; draws: number; house: number; unchecked: number; notDrawn: string[]; head: string }
  | { ok: false; seq: number; id: string; reason: string };
export type CampaignFile = { days: ({ date: string } & Pin)[] };
export type CampaignResult =
  | { ok: true; days: ({ date: string } & DayResult)[] }
  | { ok: false; date: string; seq: number; id: string; reason: string };

export const GENESIS_PREV: string;
export const MAX_DRAW_DELAY_MS: number;
export const POOL_TYPES: { second: string[]; third: string[] };
export function hexToBytes(hex: string): Uint8Array;
export function sha256Hex(data: string | Uint8Array): Promise<string>;
export function commitmentOf(seedHex: string): Promise<string>;
export function randomnessOf(signatureHex: string): Promise<string>;
export function bits53(bytes: Uint8Array): number;
export function unitOf(n: number): number;
export function rollInput(entryHash: string, k: number): string;
export function rollBits(keyHex: string, entryHash: string, k: number): Promise<number>;
export function kathmanduDateOf(iso: string): string;
export function roundTimeMs(chain: Pick<Chain, "genesis_time" | "period">, round: number): number;
export function roundAfter(chain: Pick<Chain, "genesis_time" | "period">, ms: number): number;
export function termsText(t: TermsBody): string;
export function entryText(r: EntryBody): string;
export function drawText(r: DrawBody): string;
export function orderPools<P extends FairPool>(pools: P[]): P[];
export function pickWeighted<R extends { weight: number }>(rows: R[], value: number): R | null;
export function prizeFor(
  pools: FairPool[],
  baseTable: TableRow[],
  roll: (k: number) => Promise<number> | number,
): Promise<{ prize: FairPrize; used: number }>;
export function poolsBefore(
  terms: Pick<TermsBody, "pools">,
  poolType: string,
  branch: number | null,
  paid: Map<number, number>,
): FairPool[];
export function verifyDay(
  day: DayFile,
  opts?: { signatures?: Signatures | null; pinned?: Pin | null },
): Promise<DayResult>;
export function verifyCampaign(
  list: CampaignFile,
  days: DayFile[],
  opts?: { signatures?: Signatures | null; pinned?: CampaignFile | null },
): Promise<CampaignResult>;
