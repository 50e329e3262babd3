import fs from "node:fs";
import XLSX from "sheetjs-style";
import { describe, expect, it } from "vitest";
import { xlsResponse } from "~/http/xls-download.server";
import { exportTmpDir, writeXls, type Column } from "./spreadsheet.server";

type R = { name: string; amount: number };
const cols: Column<R>[] = [
  { header: "Name", value: (r) => r.name },
  { header: "Amount", value: (r) => r.amount },
];

function* many(n: number): Generator<R> {
  for (let i = 0; i < n; i++) yield { name: `n${i}`, amount: i };
}

describe("spreadsheet downloads", () => {
  it("answers a streamed .xls with the spec's file name and its length", async () => {
    const res = xlsResponse(await writeXls("Branches", cols, many(3)), "Branches.xls");
    expect(res.headers.get("Content-Disposition")).toBe('attachment; filename="Branches.xls"');
    expect(res.headers.get("Content-Type")).toBe("application/vnd.ms-excel");
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(res.headers.get("Content-Length")).toBe(String(bytes.length));
    const wb = XLSX.read(bytes, { type: "buffer" });
    expect(XLSX.utils.sheet_to_json(wb.Sheets.Branches, { header: 1 })).toEqual([
      ["Name", "Amount"],
      ["n0", 0],
      ["n1", 1],
      ["n2", 2],
    ]);
  });

  it("writes in slices and lets timers run between them", async () => {
    const slices: number[] = [];
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    try {
      const file = await writeXls("Big", cols, many(60_000), { sliceMs: 2, onSlice: (n) => slices.push(n) });
      await file.discard();
    } finally {
      clearInterval(timer);
    }
    expect(slices.length).toBeGreaterThan(2);
    expect(slices[slices.length - 1]).toBe(60_000);
    // The timer ran while rows were being written, not only after.
    expect(ticks).toBeGreaterThan(1);
  });

  it("stops when the request is aborted and leaves no temporary file", async () => {
    const controller = new AbortController();
    let seen = 0;
    const rows = (function* () {
      for (const r of many(200_000)) {
        seen++;
        if (seen === 10_000) controller.abort();
        yield r;
      }
    })();
    await expect(writeXls("Big", cols, rows, { sliceMs: 1, signal: controller.signal })).rejects.toThrow();
    expect(seen).toBeLessThan(200_000);
    expect(fs.readdirSync(exportTmpDir())).toEqual([]);
  });
});
