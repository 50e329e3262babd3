/**
 * BIFF8 (Excel 97-2003) records for a streamed workbook: the fixed globals,
 * sheet substreams of NUMBER / LABELSST / BOOLERR cells, and a shared string
 * table (SST) written as it grows, split into CONTINUE records the way
 * [MS-XLS] 2.4.265 requires. Everything lands in `ByteSink`s (temp files), so
 * nothing here keeps more than one record and a few small counters in memory.
 */
import type { ByteSink } from "./sink";

/** A BIFF8 record's payload is at most 8224 bytes; longer data continues in CONTINUE records. */
const MAX_RECORD_DATA = 8224;
/** BIFF8 sheets hold 65,536 rows and 256 columns. */
export const MAX_SHEET_ROWS = 65_536;
export const MAX_COLUMNS = 256;
/** The longest text a cell holds (Excel's limit); longer text is cut there. */
const MAX_TEXT = 32_767;

/** The default cell format: XF 15 (XFs 0-14 are the style XFs every workbook carries). */
const CELL_XF = 15;

const R = {
  BOF: 0x0809,
  EOF: 0x000a,
  INTERFACEHDR: 0x00e1,
  MMS: 0x00c1,
  INTERFACEEND: 0x00e2,
  WRITEACCESS: 0x005c,
  CODEPAGE: 0x0042,
  DSF: 0x0161,
  TABID: 0x013d,
  FNGROUPCOUNT: 0x009c,
  WINDOWPROTECT: 0x0019,
  PROTECT: 0x0012,
  PASSWORD: 0x0013,
  PROT4REV: 0x01af,
  PROT4REVPASS: 0x01bc,
  WINDOW1: 0x003d,
  BACKUP: 0x0040,
  HIDEOBJ: 0x008d,
  DATEMODE: 0x0022,
  PRECISION: 0x000e,
  REFRESHALL: 0x01b7,
  BOOKBOOL: 0x00da,
  FONT: 0x0031,
  XF: 0x00e0,
  STYLE: 0x0293,
  USESELFS: 0x0160,
  BOUNDSHEET: 0x0085,
  COUNTRY: 0x008c,
  SST: 0x00fc,
  CONTINUE: 0x003c,
  EXTSST: 0x00ff,
  DEFAULTROWHEIGHT: 0x0225,
  WSBOOL: 0x0081,
  DIMENSIONS: 0x0200,
  WINDOW2: 0x023e,
  NUMBER: 0x0203,
  LABELSST: 0x00fd,
  BOOLERR: 0x0205,
} as const;

// ---------------------------------------------------------------- small record helpers

/** One record (header and payload) as a Buffer; for the few records built in memory. */
function rec(type: number, payload: Buffer | number[] = []): Buffer {
  const data = Buffer.isBuffer(payload) ? payload : Buffer.from(payload);
  const out = Buffer.allocUnsafe(4 + data.length);
  out.writeUInt16LE(type, 0);
  out.writeUInt16LE(data.length, 2);
  data.copy(out, 4);
  return out;
}

const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n, 0);
  return b;
};

/** Text that fits in one byte per character is stored "compressed" (Latin-1); anything else as UTF-16LE. */
const WIDE = /[\u0100-\uffff]/;
const isWide = (s: string) => Buffer.byteLength(s, "utf8") !== s.length && WIDE.test(s);

/** ShortXLUnicodeString (8-bit length) or XLUnicodeString (16-bit length). */
function unicodeString(s: string, lengthBytes: 1 | 2): Buffer {
  const wide = isWide(s);
  const body = Buffer.from(s, wide ? "utf16le" : "latin1");
  const head = Buffer.alloc(lengthBytes + 1);
  if (lengthBytes === 1) head.writeUInt8(s.length, 0);
  else head.writeUInt16LE(s.length, 0);
  head.writeUInt8(wide ? 1 : 0, lengthBytes);
  return Buffer.concat([head, body]);
}

function bof(kind: "globals" | "worksheet"): Buffer {
  const b = Buffer.alloc(16);
  b.writeUInt16LE(0x0600, 0); // BIFF8
  b.writeUInt16LE(kind === "globals" ? 0x0005 : 0x0010, 2);
  b.writeUInt16LE(0x0dbb, 4); // build
  b.writeUInt16LE(0x07cc, 6); // year
  b.writeUInt32LE(0x00000041, 8); // file history flags
  b.writeUInt32LE(0x00000006, 12); // lowest BIFF version that can read all records
  return rec(R.BOF, b);
}

export const EOF_RECORD = rec(R.EOF);

function font(): Buffer {
  const head = Buffer.alloc(14);
  head.writeUInt16LE(200, 0); // 10 pt, in twips
  head.writeUInt16LE(0, 2); // no italic / strike-out
  head.writeUInt16LE(0x7fff, 4); // automatic colour
  head.writeUInt16LE(400, 6); // normal weight
  // escapement, underline, family, charset, reserved: 0
  return rec(R.FONT, Buffer.concat([head, unicodeString("Arial", 1)]));
}

/** XF records: 15 style XFs and the default cell XF, as Excel writes them in a new workbook. */
function xfs(): Buffer[] {
  const out: Buffer[] = [];
  const xf = (typeAndParent: number, usedAttributes: number) => {
    const b = Buffer.alloc(20);
    b.writeUInt16LE(0, 0); // font 0
    b.writeUInt16LE(0, 2); // number format 0 (General)
    b.writeUInt16LE(typeAndParent, 4);
    b.writeUInt8(0x20, 6); // general alignment, bottom
    b.writeUInt8(usedAttributes, 9);
    b.writeUInt16LE(0x20c0, 18); // pattern colours: automatic
    return rec(R.XF, b);
  };
  out.push(xf(0xfff5, 0x00)); // the Normal style
  for (let i = 1; i < 15; i++) out.push(xf(0xfff5, 0xf4));
  out.push(xf(0x0001, 0x00)); // XF 15: cells, parent style 0
  return out;
}

function window1(): Buffer {
  const b = Buffer.alloc(18);
  b.writeUInt16LE(0x0000, 0);
  b.writeUInt16LE(0x0000, 2);
  b.writeUInt16LE(0x4000, 4);
  b.writeUInt16LE(0x2000, 6);
  b.writeUInt16LE(0x0038, 8); // horizontal and vertical scroll bars, sheet tabs
  b.writeUInt16LE(0, 10); // first sheet active
  b.writeUInt16LE(0, 12);
  b.writeUInt16LE(1, 14); // one sheet selected
  b.writeUInt16LE(0x0258, 16);
  return rec(R.WINDOW1, b);
}

function writeAccess(): Buffer {
  const b = Buffer.alloc(112, 0x20);
  unicodeString("Campaign", 2).copy(b, 0);
  return rec(R.WRITEACCESS, b);
}

function boundSheet(name: string, offset: number): Buffer {
  const b = Buffer.alloc(6);
  b.writeUInt32LE(offset, 0); // stream position of the sheet's BOF
  // visible (0), worksheet (0)
  return rec(R.BOUNDSHEET, Buffer.concat([b, unicodeString(name, 1)]));
}

/** Byte length of a sheet's BOUNDSHEET record (it depends on the name only). */
function boundSheetLength(name: string): number {
  return 4 + 6 + 2 + name.length * (isWide(name) ? 2 : 1);
}

/**
 * The globals substream up to (not including) the SST: BOF, the fixed
 * records, one BOUNDSHEET per sheet pointing at `sheetsStart` + its offset,
 * and COUNTRY. Built when the sheets are done, since the offsets are known then.
 */
export function globalsHead(sheets: { name: string; offset: number }[], sheetsStart: (headLength: number) => number) {
  const tabIds = Buffer.alloc(2 * sheets.length);
  sheets.forEach((_, i) => tabIds.writeUInt16LE(i + 1, 2 * i));
  const before = Buffer.concat([
    bof("globals"),
    rec(R.INTERFACEHDR, u16(1200)),
    rec(R.MMS, [0, 0]),
    rec(R.INTERFACEEND),
    writeAccess(),
    rec(R.CODEPAGE, u16(1200)), // UTF-16
    rec(R.DSF, u16(0)),
    rec(R.TABID, tabIds),
    rec(R.FNGROUPCOUNT, u16(14)),
    rec(R.WINDOWPROTECT, u16(0)),
    rec(R.PROTECT, u16(0)),
    rec(R.PASSWORD, u16(0)),
    rec(R.PROT4REV, u16(0)),
    rec(R.PROT4REVPASS, u16(0)),
    window1(),
    rec(R.BACKUP, u16(0)),
    rec(R.HIDEOBJ, u16(0)),
    rec(R.DATEMODE, u16(0)), // 1900 date system
    rec(R.PRECISION, u16(1)),
    rec(R.REFRESHALL, u16(0)),
    rec(R.BOOKBOOL, u16(0)),
    font(),
    font(),
    font(),
    font(),
    ...xfs(),
    rec(R.STYLE, [0x00, 0x80, 0x00, 0xff]), // built-in "Normal" on XF 0
    rec(R.USESELFS, u16(0)),
  ]);
  const country = rec(R.COUNTRY, [1, 0, 1, 0]);
  const headLength = before.length + sheets.reduce((n, s) => n + boundSheetLength(s.name), 0) + country.length;
  const start = sheetsStart(headLength);
  const head = Buffer.concat([before, ...sheets.map((s) => boundSheet(s.name, start + s.offset)), country]);
  if (head.length !== headLength) throw new Error("BOUNDSHEET length mismatch");
  return head;
}

// ---------------------------------------------------------------- sheet substream

/** The records before a sheet's cells; DIMENSIONS is patched when the sheet ends. */
export function sheetStart(sink: ByteSink): { dimensionsAt: number } {
  sink.push(bof("worksheet"));
  sink.push(rec(R.DEFAULTROWHEIGHT, [0, 0, 0xff, 0]));
  sink.push(rec(R.WSBOOL, u16(0x04c1)));
  const dimensionsAt = sink.size;
  sink.push(dimensions(0, 0));
  return { dimensionsAt };
}

export function dimensions(rows: number, columns: number): Buffer {
  const b = Buffer.alloc(14);
  b.writeUInt32LE(0, 0); // first row
  b.writeUInt32LE(rows, 4); // last row + 1
  b.writeUInt16LE(0, 8); // first column
  b.writeUInt16LE(columns, 10); // last column + 1
  return rec(R.DIMENSIONS, b);
}

/** WINDOW2 and EOF: the end of a sheet. The first sheet is the selected one. */
export function sheetEnd(sink: ByteSink, first: boolean) {
  const b = Buffer.alloc(18);
  b.writeUInt16LE(first ? 0x06b6 : 0x04b6, 0); // grid, headers, zeros, default grid colour, outline (+ selected, paged)
  b.writeUInt16LE(64, 6); // grid colour: automatic
  sink.push(rec(R.WINDOW2, b));
  sink.push(EOF_RECORD);
}

/** The 10 bytes every cell record starts with: type, length, row, column, XF (the hot path, written byte by byte). */
function cellHead(b: Buffer, o: number, type: number, length: number, row: number, col: number) {
  b[o] = type & 0xff;
  b[o + 1] = type >>> 8;
  b[o + 2] = length & 0xff;
  b[o + 3] = length >>> 8;
  b[o + 4] = row & 0xff;
  b[o + 5] = row >>> 8;
  b[o + 6] = col & 0xff;
  b[o + 7] = col >>> 8;
  b[o + 8] = CELL_XF;
  b[o + 9] = 0;
}

export function numberCell(sink: ByteSink, row: number, col: number, value: number) {
  const b = sink.reserve(18);
  const o = sink.offset;
  cellHead(b, o, R.NUMBER, 14, row, col);
  b.writeDoubleLE(value, o + 10);
  sink.commit(18);
}

export function stringCell(sink: ByteSink, row: number, col: number, index: number) {
  const b = sink.reserve(14);
  const o = sink.offset;
  cellHead(b, o, R.LABELSST, 10, row, col);
  b[o + 10] = index & 0xff;
  b[o + 11] = (index >>> 8) & 0xff;
  b[o + 12] = (index >>> 16) & 0xff;
  b[o + 13] = index >>> 24;
  sink.commit(14);
}

export function booleanCell(sink: ByteSink, row: number, col: number, value: boolean) {
  const b = sink.reserve(12);
  const o = sink.offset;
  cellHead(b, o, R.BOOLERR, 8, row, col);
  b.writeUInt8(value ? 1 : 0, o + 10);
  b.writeUInt8(0, o + 11); // a boolean, not an error
  sink.commit(12);
}

// ---------------------------------------------------------------- shared strings

/** Strings up to this length are looked up for sharing; a workbook shares at most SHARE_LIMIT of them. */
const SHARE_MAX_LENGTH = 64;
/** Strings up to this length are copied into the table character by character (cheaper than a call to Buffer's writer). */
const SHORT_STRING = 64;
const SHARE_LIMIT = 20_000;
/** After this many lookups a column whose values repeat less than one time in four stops being looked up. */
const SHARE_TRIAL = 500;
/**
 * EXTSST keeps at most 128 bucket positions, doubling the bucket size to stay
 * within it; the bucket size is a 16-bit number, so past 32,768 strings per
 * bucket the list grows instead, up to what one record holds (over 33 million strings).
 */
const EXTSST_BUCKETS = 128;
const EXTSST_MAX_DSST = 32_768;
const EXTSST_MAX_BUCKETS = 1024;

/**
 * The SST, written record by record into its own sink as strings arrive.
 * Repeated short values (branch, model, status) share one entry through a
 * bounded map; every other string gets its own entry, so memory stays flat
 * however many rows pass. The counts in the SST header are patched at the end.
 */
export class SharedStrings {
  /** Cells that refer to the table, and entries in it. */
  total = 0;
  unique = 0;
  private readonly shared = new Map<string, number>();
  /** Bytes of the current record's payload so far (the record header sits at `recordStart`). */
  private recordStart: number;
  private recordLength: number;
  private dsst = 8;
  private buckets: { position: number; inRecord: number }[] = [];

  /** `sink` is the table's own: the SST record starts at its first byte. */
  constructor(private readonly sink: ByteSink) {
    if (sink.size !== 0) throw new Error("the SST needs a sink of its own");
    this.recordStart = 0;
    sink.push(Buffer.from([R.SST & 0xff, R.SST >> 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])); // header + counts, patched
    this.recordLength = 8;
  }

  /** Per column: lookups in the shared map, and how many found a string already there. */
  private readonly tries = new Uint32Array(MAX_COLUMNS);
  private readonly hits = new Uint32Array(MAX_COLUMNS);

  /**
   * The SST index of a string, adding it when it is new (or not shared).
   * Columns whose values rarely repeat (names, phones, slugs) stop being
   * looked up after a trial, so unique text costs no hashing.
   */
  index(text: string, column: number): number {
    this.total++;
    const s = text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
    const tries = this.tries[column];
    const shareable = s.length <= SHARE_MAX_LENGTH && (tries < SHARE_TRIAL || this.hits[column] * 4 >= tries);
    if (shareable) {
      this.tries[column] = tries + 1;
      const known = this.shared.get(s);
      if (known !== undefined) {
        this.hits[column]++;
        return known;
      }
    }
    const index = this.unique++;
    if (shareable && this.shared.size < SHARE_LIMIT) this.shared.set(s, index);
    this.append(s, index);
    return index;
  }

  private closeRecord() {
    this.sink.patch(this.recordStart + 2, u16(this.recordLength));
  }

  private openContinue() {
    this.closeRecord();
    this.recordStart = this.sink.size;
    this.sink.push(Buffer.from([R.CONTINUE & 0xff, R.CONTINUE >> 8, 0, 0]));
    this.recordLength = 0;
  }

  private room() {
    return MAX_RECORD_DATA - this.recordLength;
  }

  private write(bytes: Buffer) {
    this.sink.push(bytes);
    this.recordLength += bytes.length;
  }

  private append(s: string, index: number) {
    const n = s.length;
    if (n > 0 && n <= SHORT_STRING && 3 + 2 * n <= this.room()) {
      // Most cells: a short string that fits in the current record at either width. Its characters are
      // copied while they fit in a byte; the first that does not rewrites it as UTF-16LE.
      if (index % this.dsst === 0) this.noteBucket();
      const b = this.sink.reserve(3 + 2 * n);
      const o = this.sink.offset;
      let i = 0;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c > 0xff) break;
        b[o + 3 + i] = c;
      }
      const wide = i < n;
      if (wide) b.write(s, o + 3, 2 * n, "utf16le");
      b[o] = n & 0xff;
      b[o + 1] = n >>> 8;
      b[o + 2] = wide ? 1 : 0;
      const length = 3 + (wide ? 2 * n : n);
      this.sink.commit(length);
      this.recordLength += length;
      return;
    }
    const wide = isWide(s);
    const unit = wide ? 2 : 1;
    // A string's header (length, flags) and its first character never straddle records.
    if (this.room() < 3 + unit) this.openContinue();
    if (index % this.dsst === 0) this.noteBucket();
    const bytes = s.length * unit;
    if (3 + bytes <= this.room()) {
      // The common case: the whole string fits in the current record, written straight into the sink.
      const b = this.sink.reserve(3 + bytes);
      const o = this.sink.offset;
      b.writeUInt16LE(s.length, o);
      b[o + 2] = wide ? 1 : 0;
      b.write(s, o + 3, bytes, wide ? "utf16le" : "latin1");
      this.sink.commit(3 + bytes);
      this.recordLength += 3 + bytes;
      return;
    }
    const head = Buffer.allocUnsafe(3);
    head.writeUInt16LE(s.length, 0);
    head.writeUInt8(wide ? 1 : 0, 2);
    this.write(head);
    const body = Buffer.from(s, wide ? "utf16le" : "latin1");
    let at = 0;
    for (;;) {
      const fit = Math.floor(this.room() / unit) * unit;
      const take = Math.min(fit, body.length - at);
      if (take > 0) this.write(body.subarray(at, at + take));
      at += take;
      if (at >= body.length) return;
      // The rest continues in a CONTINUE record that starts with the character-size flag again.
      this.openContinue();
      this.write(Buffer.from([wide ? 1 : 0]));
    }
  }

  private noteBucket() {
    if (this.buckets.length >= EXTSST_MAX_BUCKETS) return; // an index hint only; readers do not need it whole
    this.buckets.push({ position: this.sink.size, inRecord: this.sink.size - this.recordStart });
    if (this.buckets.length > EXTSST_BUCKETS && this.dsst < EXTSST_MAX_DSST) {
      this.dsst *= 2;
      this.buckets = this.buckets.filter((_, i) => i % 2 === 0);
    }
  }

  /** Byte length of the EXTSST record `finish` returns. */
  extSstLength(): number {
    return 4 + 2 + 8 * this.buckets.length;
  }

  /**
   * Closes the table: patches the counts and returns the EXTSST record,
   * whose positions are absolute, `base` being where the SST sink starts in
   * the Workbook stream.
   */
  finish(base: number): Buffer {
    this.closeRecord();
    const counts = Buffer.alloc(8);
    counts.writeUInt32LE(this.total, 0);
    counts.writeUInt32LE(this.unique, 4);
    this.sink.patch(4, counts);
    const b = Buffer.alloc(2 + 8 * this.buckets.length);
    b.writeUInt16LE(this.dsst, 0);
    this.buckets.forEach((bucket, i) => {
      b.writeUInt32LE(base + bucket.position, 2 + 8 * i);
      b.writeUInt16LE(bucket.inRecord, 6 + 8 * i);
    });
    this.shared.clear();
    return rec(R.EXTSST, b);
  }
}
