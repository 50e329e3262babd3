import XLSX from "sheetjs-style";
import { describe, expect, it } from "vitest";
import { escapeCell, writeXls, xlsResponse } from "./spreadsheet.server";

type R = { name: string; amount: number };
const cols = [
  { header: "Name", value: (r: R) => r.name },
  { header: "Amount", value: (r: R) => r.amount },
];

describe("spreadsheet writer", () => {
  it("writes a real BIFF8 workbook (OLE compound file) with headers and rows", () => {
    const buf = writeXls("Registrations", cols, [
      { name: "Ram", amount: 5000 },
      { name: "Sita", amount: 7000 },
    ]);
    // OLE2 compound document signature: D0 CF 11 E0 A1 B1 1A E1
    expect(buf.subarray(0, 8).toString("hex")).toBe("d0cf11e0a1b11ae1");
    const wb = XLSX.read(buf, { type: "buffer" });
    expect(wb.SheetNames).toEqual(["Registrations"]);
    const rows = XLSX.utils.sheet_to_json(wb.Sheets.Registrations, { header: 1 });
    expect(rows).toEqual([
      ["Name", "Amount"],
      ["Ram", 5000],
      ["Sita", 7000],
    ]);
  });

  it("escapes text that would start a formula", () => {
    expect(escapeCell('=HYPERLINK("x")')).toBe('\'=HYPERLINK("x")');
    expect(escapeCell("+977")).toBe("'+977");
    expect(escapeCell("-1")).toBe("'-1");
    expect(escapeCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(escapeCell(-5)).toBe(-5);
    expect(escapeCell("Ram")).toBe("Ram");
    const buf = writeXls("S", cols, [{ name: "=1+1", amount: 1 }]);
    const wb = XLSX.read(buf, { type: "buffer" });
    const cell = wb.Sheets.S.A2;
    expect(cell.t).toBe("s");
    expect(cell.v).toBe("'=1+1");
    expect(cell.f).toBeUndefined();
  });

  it("continues on further sheets past the row limit", () => {
    const rows = Array.from({ length: 25 }, (_, i) => ({ name: `n${i}`, amount: i }));
    const wb = XLSX.read(writeXls("Big", cols, rows, { rowsPerSheet: 10 }), { type: "buffer" });
    expect(wb.SheetNames).toEqual(["Big", "Big 2", "Big 3"]);
    const counts = wb.SheetNames.map((n) => XLSX.utils.sheet_to_json(wb.Sheets[n], { header: 1 }).length - 1);
    expect(counts).toEqual([10, 10, 5]);
  });

  it("splits at 65,535 data rows by default", () => {
    const rows = Array.from({ length: 65_536 }, (_, i) => ({ name: "x", amount: i }));
    const wb = XLSX.read(writeXls("All", cols, rows), { type: "buffer", sheetRows: 3 });
    expect(wb.SheetNames).toEqual(["All", "All 2"]);
  });

  it("answers with the spec's file name", () => {
    const res = xlsResponse(writeXls("S", cols, []), "Branches.xls");
    expect(res.headers.get("Content-Disposition")).toBe('attachment; filename="Branches.xls"');
    expect(res.headers.get("Content-Type")).toBe("application/vnd.ms-excel");
  });
});
