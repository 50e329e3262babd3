/**
 * deploy/systemd/campaign.service's sandbox, as systemd rates it: `systemd-analyze security --offline=true`
 * (Debian's systemd package; tests/ensure-systemd-analyze.sh installs it for `npm test`) scores the unit's
 * exposure from 0 (best) to 10; the unit must stay at 2.5 or below. And the one folder the sandbox leaves
 * writable holds everything the server writes by default (docs/operations.md, "The service's sandbox").
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { databasePath } from "@db/index";
import { uploadsDir } from "~/utils/config.server";
import { exportTmpDir } from "~/utils/spreadsheet.server";

const SYSTEMD_ANALYZE = process.env.SYSTEMD_ANALYZE_PATH ?? "/usr/bin/systemd-analyze";
const UNIT = path.resolve("deploy/systemd/campaign.service");
const MAX_EXPOSURE = 2.5;

const unit = fs.readFileSync(UNIT, "utf8");
/** Every value of a [Service] setting, in order (a setting may be given on several lines). */
const settings = (name: string) => [...unit.matchAll(new RegExp(`^${name}=(.*)$`, "gm"))].map((m) => m[1].trim());

describe("deploy/systemd/campaign.service", () => {
  const installed = fs.existsSync(SYSTEMD_ANALYZE);
  // CI installs it (npm test runs tests/ensure-systemd-analyze.sh first); elsewhere its absence is said, not hidden.
  it.skipIf(!installed && !process.env.CI)(
    `systemd-analyze security rates its exposure at most ${MAX_EXPOSURE}`,
    () => {
      expect(installed, `${SYSTEMD_ANALYZE} is missing (bash tests/ensure-systemd-analyze.sh)`).toBe(true);
      const run = spawnSync(SYSTEMD_ANALYZE, ["security", "--offline=true", "--no-pager", UNIT], { encoding: "utf8" });
      expect(run.status, run.stderr).toBe(0);
      const score = /Overall exposure level for campaign\.service: (\d+(?:\.\d+)?)/.exec(run.stdout);
      expect(score, run.stdout).not.toBeNull();
      expect(Number(score![1]), run.stdout).toBeLessThanOrEqual(MAX_EXPOSURE);
    },
  );

  it("keeps the options its sandbox stands on, and not the one that stops Node", () => {
    expect(settings("User")).toEqual(["campaign"]);
    expect(settings("ProtectSystem")).toEqual(["strict"]);
    expect(settings("CapabilityBoundingSet")).toEqual([""]);
    expect(settings("RestrictAddressFamilies")).toEqual(["AF_INET AF_INET6 AF_UNIX"]);
    expect(settings("SystemCallFilter")[0]).toBe("@system-service");
    expect(settings("MemoryMax")).toHaveLength(1);
    for (const yes of [
      "NoNewPrivileges",
      "PrivateTmp",
      "ProtectHome",
      "ProtectKernelTunables",
      "ProtectKernelModules",
      "ProtectKernelLogs",
      "ProtectControlGroups",
    ])
      expect(settings(yes), yes).toEqual(["yes"]);
    // V8 makes the code it compiles executable: with this option Node stops at start.
    expect(settings("MemoryDenyWriteExecute")).toEqual([]);
  });

  it("leaves writable every place the server writes by default: the database's folder, uploads, the session secret, exports", () => {
    const workingDirectory = settings("WorkingDirectory")[0];
    const writable = settings("ReadWritePaths").flatMap((v) => v.split(/\s+/));
    expect(writable.length).toBeGreaterThan(0);
    // The app's own defaults, resolved from the unit's working directory as the server resolves them from its own.
    const saved = { DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: process.env.DATA_DIR };
    delete process.env.DATABASE_URL;
    delete process.env.DATA_DIR;
    let written: string[];
    try {
      const fromUnit = (p: string) => path.join(workingDirectory, path.relative(process.cwd(), p));
      written = [
        path.dirname(databasePath()), // the database, its WAL and Litestream's shadow copy beside it
        path.dirname(uploadsDir()), // DATA_DIR: the generated session secret
        uploadsDir(),
        exportTmpDir(),
      ].map(fromUnit);
    } finally {
      Object.assign(process.env, saved);
    }
    for (const place of written)
      expect(
        writable.some((w) => place === w || place.startsWith(`${w}/`)),
        `${place} is in ReadWritePaths (${writable.join(" ")})`,
      ).toBe(true);
  });
});
