#!/usr/bin/env node
/**
 * Checks the campaign's draws, with Node (18 or newer) and, for the beacon's signatures, the npm
 * package @noble/curves (`npm install @noble/curves` beside this file; without it the signatures
 * are reported unchecked and the exit code says so).
 *
 *   node scripts/verify-draws.mjs https://example.com/api/v1/fair-draws/2026-11-23   one day
 *   node scripts/verify-draws.mjs https://example.com/api/v1/fair-draws              every day
 *   node scripts/verify-draws.mjs saved.json [--pin campaign.json]                    saved files
 *   node scripts/verify-draws.mjs --signatures-only saved.json                        the BLS step alone
 *
 * A saved file is a day's record, the campaign's list, or a bundle { campaign, days: [...] }.
 * --pin names a copy of the campaign's list saved earlier: the days it lists must not have been
 * remade or cut since. Exit 0: everything checks. Exit 1: it names the first record that does
 * not. Exit 2: the record could not be read. Exit 3: everything else checks, but signatures were
 * not checked (no @noble/curves). The exact rules: docs/verify-a-draw-day.md.
 */
import { readFile } from "node:fs/promises";
import { verifyCampaign, verifyDay } from "./fair-draws-core.mjs";

const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  if (i < 0) return false;
  args.splice(i, 1);
  return true;
};
const option = (name) => {
  const i = args.indexOf(name);
  if (i < 0) return null;
  const [, value] = args.splice(i, 2);
  return value;
};
const signaturesOnly = flag("--signatures-only");
const skipSignatures = flag("--no-signatures");
const pinSource = option("--pin");
const source = args[0];
if (!source) {
  console.error("Usage: node scripts/verify-draws.mjs [--pin FILE] [--no-signatures | --signatures-only] FILE_OR_URL");
  process.exit(2);
}

const isUrl = (s) => /^https?:\/\//.test(s);
async function load(where) {
  const text = isUrl(where)
    ? await fetch(where).then((res) => {
        if (!res.ok) throw new Error(`${where} answered ${res.status}`);
        return res.text();
      })
    : await readFile(where, "utf8");
  const json = JSON.parse(text);
  return json && typeof json === "object" && "data" in json ? json.data : json; // the API wraps it in { data }
}

let input;
let pinned = null;
try {
  input = await load(source);
  if (pinSource) pinned = await load(pinSource);
} catch (err) {
  console.error(`Could not read the record: ${err.message}`);
  process.exit(2);
}

let signatures = null;
if (!skipSignatures) {
  try {
    signatures = (await import("./fair-draws-bls.mjs")).signatureVerifies;
  } catch {
    console.error("The beacon's signatures cannot be checked here: install @noble/curves (npm) beside this file.");
  }
}

/** The campaign's days: a bundle's, or each day of a list fetched beside it. */
async function campaignOf(value) {
  if (Array.isArray(value.days) && value.days.every((d) => Array.isArray(d.records)))
    return { list: value.campaign, days: value.days };
  const days = [];
  for (const line of value.days) {
    if (!isUrl(source)) throw new Error("A saved campaign list needs its days: save a bundle { campaign, days }.");
    days.push(await load(`${source.replace(/\/+$/, "")}/${line.date}`));
  }
  return { list: value, days };
}

const describe = (r) => (r.seq ? `record ${r.seq}${r.id ? ` (${r.id})` : ""}` : "the day");

if (signaturesOnly) {
  if (!signatures) process.exit(3);
  const days = Array.isArray(input.records) ? [input] : (await campaignOf(input)).days;
  let checked = 0;
  for (const day of days) {
    const chain = JSON.parse(day.terms).chain;
    for (const item of day.records) {
      const r = JSON.parse(item.text);
      if (r.kind !== "draw" || r.source !== "beacon" || r.date !== day.date) continue;
      if (!chain || !(await signatures(chain.public_key, r.beacon_round, r.signature))) {
        console.log(
          `${day.date}: ${describe(r)} does not check. The signature of beacon round ${r.beacon_round} does not verify.`,
        );
        process.exit(1);
      }
      checked++;
    }
  }
  console.log(`All ${checked} beacon signatures verify with the chain's public key.`);
  process.exit(0);
}

let unchecked = 0;
if (Array.isArray(input.records)) {
  const pin = pinned?.days?.find((d) => d.date === input.date) ?? null;
  const result = await verifyDay(input, { signatures, pinned: pin });
  if (!result.ok) {
    console.log(`${input.date ?? "?"}: ${describe(result)} does not check. ${result.reason}`);
    process.exit(1);
  }
  unchecked = result.unchecked;
  console.log(summary(input.date, result));
} else {
  let campaign;
  try {
    campaign = await campaignOf(input);
  } catch (err) {
    console.error(`Could not read the campaign's days: ${err.message}`);
    process.exit(2);
  }
  const result = await verifyCampaign(campaign.list, campaign.days, { signatures, pinned });
  if (!result.ok) {
    console.log(`${result.date}: ${describe(result)} does not check. ${result.reason}`);
    process.exit(1);
  }
  for (const day of result.days) {
    unchecked += day.unchecked;
    console.log(summary(day.date, day));
  }
  console.log(`All ${result.days.length} days check, and they make one chain.`);
}
process.exit(unchecked ? 3 : 0);

function summary(date, r) {
  const parts = [`${date}: all ${r.draws} draws of ${r.entries} entries check.`];
  if (r.house) parts.push(`${r.house} drawn with the house seed (beacon unreachable).`);
  if (r.notDrawn.length) parts.push(`Not drawn yet: ${r.notDrawn.join(", ")}.`);
  if (r.unchecked) parts.push(`${r.unchecked} beacon signatures not checked.`);
  return parts.join(" ");
}
