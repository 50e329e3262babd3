// The streaming BIFF8 writer, read back with sheetjs-style's reader (used here, in tests, only).
import XLSX from "sheetjs-style";
import { describe, expect, it } from "vitest";
import { compoundLayout } from "./cfb";
import { XlsWorkbookWriter, type CellValue } from "./workbook";

const tmpDir = () => `${process.env.DATA_DIR}/tmp`;

async function bytesOf(body: ReadableStream<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(parts);
    parts.push(Buffer.from(value));
  }
}

async function build(header: string[], rows: Iterable<CellValue[]>, options: { rowsPerSheet?: number } = {}) {
  const book = await XlsWorkbookWriter.create({ sheetName: "Registrations", header, tmpDir: tmpDir(), ...options });
  let n = 0;
  for (const row of rows) {
    book.addRow(row);
    if (++n % 5000 === 0) await book.drain();
  }
  const file = await book.finish();
  const bytes = await bytesOf(file.body);
  expect(bytes.length).toBe(file.size);
  return bytes;
}

const read = (bytes: Buffer, opts: XLSX.ParsingOptions = {}) => XLSX.read(bytes, { type: "buffer", ...opts });
const table = (wb: XLSX.WorkBook, name = wb.SheetNames[0]) =>
  XLSX.utils.sheet_to_json<CellValue[]>(wb.Sheets[name], { header: 1, defval: null });

describe("streaming .xls writer", () => {
  it("writes a real BIFF8 workbook in a compound file: header row, values, numbers as numbers", async () => {
    const bytes = await build(
      ["Slug", "Name", "Amount", "Shared", "Note"],
      [
        ["a1", "Ram", 5000, true, "call"],
        ["b2", "Sita", 7000.5, false, null],
      ],
    );
    expect(bytes.subarray(0, 8).toString("hex")).toBe("d0cf11e0a1b11ae1"); // OLE2 signature
    const wb = read(bytes);
    expect(wb.SheetNames).toEqual(["Registrations"]);
    expect(table(wb)).toEqual([
      ["Slug", "Name", "Amount", "Shared", "Note"],
      ["a1", "Ram", 5000, true, "call"],
      ["b2", "Sita", 7000.5, false, null],
    ]);
    const sheet = wb.Sheets.Registrations;
    expect(sheet.C2).toMatchObject({ t: "n", v: 5000 });
    expect(sheet.A2).toMatchObject({ t: "s", v: "a1" });
    expect(sheet.D2).toMatchObject({ t: "b", v: true });
    expect(sheet.E3).toBeUndefined(); // an empty value is an empty cell
  });

  it("an empty export still has its header row", async () => {
    const wb = read(await build(["ID", "Name"], []));
    expect(wb.SheetNames).toEqual(["Registrations"]);
    expect(table(wb)).toEqual([["ID", "Name"]]);
  });

  it("70,000 rows continue on a second sheet, each with the header row", async () => {
    const row = (i: number) => [i, `name ${i}`, i % 7 === 0 ? "Kathmandu" : "Pokhara"];
    const rows = function* () {
      for (let i = 0; i < 70_000; i++) yield row(i);
    };
    const wb = read(await build(["ID", "Name", "Branch"], rows()));
    expect(wb.SheetNames).toEqual(["Registrations", "Registrations 2"]);
    const first = table(wb, "Registrations");
    const second = table(wb, "Registrations 2");
    expect(first[0]).toEqual(["ID", "Name", "Branch"]);
    expect(second[0]).toEqual(["ID", "Name", "Branch"]);
    expect(first).toHaveLength(65_536);
    expect(second).toHaveLength(70_000 - 65_535 + 1);
    expect(first[1]).toEqual(row(0));
    expect(first[65_535]).toEqual(row(65_534));
    expect(second[1]).toEqual(row(65_535));
    expect(second[second.length - 1]).toEqual(row(69_999));
    expect(first.slice(1).every((r, i) => r[0] === i)).toBe(true);
    expect(second.slice(1).every((r, i) => r[0] === 65_535 + i)).toBe(true);
    expect(wb.Sheets["Registrations 2"].A2.t).toBe("n");
  });

  it("a smaller rows-per-sheet splits the same way", async () => {
    const rows = Array.from({ length: 25 }, (_, i) => [`n${i}`, i]);
    const wb = read(await build(["Name", "Amount"], rows, { rowsPerSheet: 10 }));
    expect(wb.SheetNames).toEqual(["Registrations", "Registrations 2", "Registrations 3"]);
    expect(wb.SheetNames.map((n) => table(wb, n).length - 1)).toEqual([10, 10, 5]);
  });

  it("Devanagari and other Unicode text round-trips, short and long (across CONTINUE records)", async () => {
    const long = "राम थापा, काठमाडौं ".repeat(900); // ~17,000 UTF-16 characters: several SST records
    const latinLong = "x".repeat(20_000); // one byte per character, continued as such
    const mixed = "a".repeat(8_000) + "सीता" + "b".repeat(4_000);
    const rows: CellValue[][] = [
      ["राम थापा", "नेपाल", "Café — 😀"],
      [long, latinLong, mixed],
    ];
    // Enough other strings that the long ones start part-way through a record.
    for (let i = 0; i < 3000; i++) rows.push([`नाम ${i}`, `name ${i}`, i]);
    const wb = read(await build(["नाम", "Address", "Note"], rows));
    const got = table(wb);
    expect(got[0]).toEqual(["नाम", "Address", "Note"]);
    expect(got[1]).toEqual(["राम थापा", "नेपाल", "Café — 😀"]);
    expect(got[2]).toEqual([long, latinLong, mixed]);
    expect(got[3002]).toEqual(["नाम 2999", "name 2999", 2999]);
  });

  it("text that looks like a formula is written exactly and stays a text cell", async () => {
    const values = ["-1zwKPE4Ygc5M3yx", '=HYPERLINK("http://x.test","y")', "+9779800000000", "@SUM(A1)", "\t=1", "-5"];
    const wb = read(
      await build(
        ["Value"],
        values.map((v) => [v]),
      ),
    );
    values.forEach((v, i) => {
      const cell = wb.Sheets.Registrations[`A${i + 2}`];
      expect(cell.t).toBe("s");
      expect(cell.v).toBe(v);
      expect(cell.f).toBeUndefined();
    });
  });
});

describe("compound file layout", () => {
  it("chains a large stream through FAT sectors listed in the header and in DIFAT sectors", () => {
    const streamSize = 40 * 1024 * 1024 + 123; // needs more than the header's 109 FAT sectors
    const layout = compoundLayout(streamSize);
    const prefix = Buffer.concat([...layout.prefix()]);
    const u32 = (b: Buffer, at: number) => b.readUInt32LE(at);
    const fatSectors = u32(prefix, 44);
    const firstDirectory = u32(prefix, 48);
    const firstDifat = u32(prefix, 68);
    const difatSectors = u32(prefix, 72);
    expect(fatSectors).toBeGreaterThan(109);
    expect(difatSectors).toBeGreaterThan(0);
    // The FAT sector ids, from the header and then the DIFAT chain.
    const sector = (id: number) => prefix.subarray(512 + id * 512, 512 + (id + 1) * 512);
    const fatIds: number[] = [];
    for (let i = 0; i < 109; i++) if (u32(prefix, 76 + 4 * i) !== 0xffffffff) fatIds.push(u32(prefix, 76 + 4 * i));
    for (let d = firstDifat, n = 0; d !== 0xfffffffe; n++) {
      const s = sector(d);
      for (let k = 0; k < 127; k++) if (u32(s, 4 * k) !== 0xffffffff) fatIds.push(u32(s, 4 * k));
      d = u32(s, 508);
      expect(n).toBeLessThan(difatSectors);
    }
    expect(fatIds).toEqual(Array.from({ length: fatSectors }, (_, i) => i));
    const fat = (id: number) => u32(sector(fatIds[Math.floor(id / 128)]), 4 * (id % 128));
    // The directory names the Workbook stream; its chain covers exactly the stream's sectors.
    const dir = sector(firstDirectory);
    expect(dir.subarray(128, 128 + 16).toString("utf16le")).toBe("Workbook");
    expect(u32(dir, 128 + 120)).toBe(streamSize);
    let id = u32(dir, 128 + 116);
    let sectors = 0;
    while (id !== 0xfffffffe) {
      sectors++;
      const next = fat(id);
      if (next !== 0xfffffffe) expect(next).toBe(id + 1);
      id = next;
    }
    expect(sectors).toBe(Math.ceil(streamSize / 512));
    expect(layout.size).toBe(prefix.length + sectors * 512);
    expect(layout.padding).toBe(sectors * 512 - streamSize);
  });
});
