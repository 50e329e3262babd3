#!/usr/bin/env node
/**
 * Checks a day of the campaign's draws, with nothing but Node (18 or newer).
 *
 *   node scripts/verify-draws.mjs https://example.com/api/v1/fair-draws/2026-11-23
 *   node scripts/verify-draws.mjs 2026-11-23.json        (a file saved from that address)
 *   npm run verify-draws -- FILE_OR_URL
 *
 * It checks that the day's seed matches the commitment published before the day began,
 * that every roll comes from that seed, that every prize follows from the pools and the
 * rolls by the published rules, that the pools' counts go on from one draw to the next,
 * and that the chain of records is whole. Exit 0: every draw checks. Exit 1: it names the
 * first draw that does not. Exit 2: the record could not be read.
 * Step by step for someone who is not a developer: docs/verify-a-draw-day.md.
 */
import { readFile } from "node:fs/promises";
import { verifyDay } from "./fair-draws-core.mjs";

const source = process.argv[2];
if (!source) {
  console.error("Usage: node scripts/verify-draws.mjs FILE_OR_URL");
  process.exit(2);
}

let day;
try {
  const text = /^https?:\/\//.test(source)
    ? await fetch(source).then((res) => {
        if (!res.ok) throw new Error(`${source} answered ${res.status}`);
        return res.text();
      })
    : await readFile(source, "utf8");
  const json = JSON.parse(text);
  day = json && typeof json === "object" && "data" in json ? json.data : json; // the API wraps it in { data }
} catch (err) {
  console.error(`Could not read the day's record: ${err.message}`);
  process.exit(2);
}

const result = await verifyDay(day);
if (result.ok) {
  console.log(`${day.date}: all ${result.draws} draws check. The seed matches its commitment and the chain is whole.`);
  process.exit(0);
}
const where = result.seq ? `draw ${result.seq} (reference ${result.ref})` : "the day";
console.log(`${day.date ?? "?"}: ${where} does not check. ${result.reason}`);
process.exit(1);
