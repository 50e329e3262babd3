/**
 * The demo data's days, drawn by the seed with the demonstration beacon: every day says so, and
 * both checkers (Node, with the signatures; Python, standard library) pass the whole campaign and
 * agree on every day's counts.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fair-demo-"));
process.env.DATABASE_URL = `file:${path.join(dir, "demo.sqlite")}`;
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const run = promisify(execFile);
const scripts = fileURLToPath(new URL("../../scripts/", import.meta.url));

let file = "";
let dates: string[] = [];

beforeAll(async () => {
  const { seed } = await import("../../db/seed");
  const { campaignFile, publishedDay } = await import("~/models/fair-draw.server");
  await seed();
  const list = campaignFile();
  dates = list.days.filter((d) => d.entries > 0).map((d) => d.date);
  const listed = list.days.filter((d) => d.date >= dates.at(-1)! && d.date <= dates[0]);
  const bundle = { campaign: { days: listed }, days: listed.map((d) => publishedDay(d.date)!) };
  file = path.join(dir, "demo.json");
  fs.writeFileSync(file, JSON.stringify(bundle));
}, 240_000);

const counts = (out: string) =>
  Object.fromEntries(
    out
      .split("\n")
      .map((l) => /^(\d{4}-\d{2}-\d{2}): all (\d+) draws of (\d+) entries/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1], `${m[2]}/${m[3]}`]),
  );

describe("the demo campaign", () => {
  it("is drawn with the demonstration beacon, and both checkers pass it and agree on every day", async () => {
    expect(dates.length).toBeGreaterThanOrEqual(20);
    const bundle = JSON.parse(fs.readFileSync(file, "utf8"));
    for (const day of bundle.days) expect(JSON.parse(day.terms).chain?.name).toBe("demo");
    const node = await run(process.execPath, [path.join(scripts, "verify-draws.mjs"), file]);
    expect(node.stdout).toMatch(/All \d+ days check, and they make one chain/);
    const py = await run("python3", [path.join(scripts, "verify_draws.py"), file]);
    expect(py.stdout).toMatch(/All \d+ days check, and they make one chain/);
    expect(Object.keys(counts(node.stdout))).toEqual(expect.arrayContaining(dates));
    expect(counts(py.stdout)).toEqual(counts(node.stdout));
  }, 120_000);
});
