/**
 * The compound file (OLE2 / CFB, [MS-CFB] version 3, 512-byte sectors) that
 * carries one "Workbook" stream. Only the stream's size is needed to lay the
 * file out, so the container is produced around a stream whose bytes are
 * streamed from elsewhere:
 *
 *   header | FAT sectors | DIFAT sectors | directory sector | stream sectors
 *
 * The FAT of one contiguous stream is a formula, so it is generated sector by
 * sector as it is sent, never held whole. A stream under 4096 bytes must live
 * in the mini stream; `smallCompoundFile` builds that (tiny) file in memory.
 */

const SECTOR = 512;
const ENTRIES_PER_SECTOR = SECTOR / 4;
const HEADER_DIFAT = 109;
export const MINI_CUTOFF = 4096;
const MINI_SECTOR = 64;

const FREESECT = 0xffffffff;
const ENDOFCHAIN = 0xfffffffe;
const FATSECT = 0xfffffffd;
const DIFSECT = 0xfffffffc;
const NOSTREAM = 0xffffffff;

const STREAM_NAME = "Workbook";

function header(fields: {
  fatSectors: number;
  firstDirectory: number;
  firstMiniFat: number;
  miniFatSectors: number;
  firstDifat: number;
  difatSectors: number;
  fatIds: number[];
}): Buffer {
  const b = Buffer.alloc(SECTOR);
  Buffer.from("d0cf11e0a1b11ae1", "hex").copy(b, 0);
  b.writeUInt16LE(0x003e, 24); // minor version
  b.writeUInt16LE(0x0003, 26); // major version 3
  b.writeUInt16LE(0xfffe, 28); // little-endian
  b.writeUInt16LE(9, 30); // 512-byte sectors
  b.writeUInt16LE(6, 32); // 64-byte mini sectors
  b.writeUInt32LE(0, 40); // directory sectors (always 0 in version 3)
  b.writeUInt32LE(fields.fatSectors, 44);
  b.writeUInt32LE(fields.firstDirectory, 48);
  b.writeUInt32LE(0, 52);
  b.writeUInt32LE(MINI_CUTOFF, 56);
  b.writeUInt32LE(fields.firstMiniFat, 60);
  b.writeUInt32LE(fields.miniFatSectors, 64);
  b.writeUInt32LE(fields.firstDifat, 68);
  b.writeUInt32LE(fields.difatSectors, 72);
  for (let i = 0; i < HEADER_DIFAT; i++) b.writeUInt32LE(fields.fatIds[i] ?? FREESECT, 76 + 4 * i);
  return b;
}

function directoryEntry(
  b: Buffer,
  at: number,
  name: string,
  type: 0 | 2 | 5,
  child: number,
  start: number,
  size: number,
) {
  b.fill(0, at, at + 128);
  if (type !== 0) {
    b.write(name, at, "utf16le");
    b.writeUInt16LE((name.length + 1) * 2, at + 64);
    b.writeUInt8(type, at + 66);
    b.writeUInt8(1, at + 67); // black
  }
  b.writeUInt32LE(NOSTREAM, at + 68); // left sibling
  b.writeUInt32LE(NOSTREAM, at + 72); // right sibling
  b.writeUInt32LE(child, at + 76);
  b.writeUInt32LE(start, at + 116);
  b.writeUInt32LE(size, at + 120); // the high 32 bits stay 0 (version 3)
}

function directory(root: { start: number; size: number }, stream: { start: number; size: number }): Buffer {
  const b = Buffer.alloc(SECTOR);
  directoryEntry(b, 0, "Root Entry", 5, 1, root.start, root.size);
  directoryEntry(b, 128, STREAM_NAME, 2, NOSTREAM, stream.start, stream.size);
  directoryEntry(b, 256, "", 0, NOSTREAM, 0, 0);
  directoryEntry(b, 384, "", 0, NOSTREAM, 0, 0);
  return b;
}

export type CompoundLayout = {
  /** Total file size in bytes. */
  size: number;
  /** The bytes before the stream, in pieces of at most 64 sectors. */
  prefix: () => Generator<Buffer>;
  /** Zero bytes after the stream up to the sector boundary. */
  padding: number;
};

/** The layout of a file around a stream of `streamSize` ≥ 4096 bytes. */
export function compoundLayout(streamSize: number): CompoundLayout {
  if (streamSize < MINI_CUTOFF) throw new RangeError("small streams go in the mini stream");
  if (streamSize > 0xffffffff) throw new RangeError("a version 3 compound file holds streams under 4 GB");
  const dataSectors = Math.ceil(streamSize / SECTOR);
  let fatSectors = 1;
  let difatSectors = 0;
  for (;;) {
    const total = fatSectors + difatSectors + 1 + dataSectors;
    const needFat = Math.ceil(total / ENTRIES_PER_SECTOR);
    const needDifat = needFat > HEADER_DIFAT ? Math.ceil((needFat - HEADER_DIFAT) / (ENTRIES_PER_SECTOR - 1)) : 0;
    if (needFat === fatSectors && needDifat === difatSectors) break;
    fatSectors = needFat;
    difatSectors = needDifat;
  }
  const firstDifat = fatSectors;
  const directorySector = fatSectors + difatSectors;
  const firstData = directorySector + 1;
  const lastData = firstData + dataSectors - 1;

  const fatEntry = (i: number): number => {
    if (i < fatSectors) return FATSECT;
    if (i < directorySector) return DIFSECT;
    if (i === directorySector) return ENDOFCHAIN;
    if (i < lastData) return i + 1;
    if (i === lastData) return ENDOFCHAIN;
    return FREESECT;
  };

  function* prefix(): Generator<Buffer> {
    yield header({
      fatSectors,
      firstDirectory: directorySector,
      firstMiniFat: ENDOFCHAIN,
      miniFatSectors: 0,
      firstDifat: difatSectors ? firstDifat : ENDOFCHAIN,
      difatSectors,
      fatIds: Array.from({ length: Math.min(fatSectors, HEADER_DIFAT) }, (_, i) => i),
    });
    // FAT sectors, 64 at a time.
    for (let s = 0; s < fatSectors; s += 64) {
      const n = Math.min(64, fatSectors - s);
      const b = Buffer.allocUnsafe(n * SECTOR);
      for (let k = 0; k < n * ENTRIES_PER_SECTOR; k++) b.writeUInt32LE(fatEntry(s * ENTRIES_PER_SECTOR + k), 4 * k);
      yield b;
    }
    // DIFAT sectors: the FAT sectors past the header's 109, 127 per sector, then the next DIFAT sector.
    for (let d = 0; d < difatSectors; d++) {
      const b = Buffer.alloc(SECTOR, 0xff);
      for (let k = 0; k < ENTRIES_PER_SECTOR - 1; k++) {
        const fatId = HEADER_DIFAT + d * (ENTRIES_PER_SECTOR - 1) + k;
        if (fatId < fatSectors) b.writeUInt32LE(fatId, 4 * k);
      }
      b.writeUInt32LE(d + 1 < difatSectors ? firstDifat + d + 1 : ENDOFCHAIN, SECTOR - 4);
      yield b;
    }
    yield directory({ start: ENDOFCHAIN, size: 0 }, { start: firstData, size: streamSize });
  }

  return {
    size: (firstData + dataSectors) * SECTOR + SECTOR,
    prefix,
    padding: dataSectors * SECTOR - streamSize,
  };
}

/** A whole compound file for a stream under 4096 bytes (kept in the mini stream). */
export function smallCompoundFile(stream: Buffer): Buffer {
  if (stream.length >= MINI_CUTOFF) throw new RangeError("use compoundLayout");
  const miniSectors = Math.max(1, Math.ceil(stream.length / MINI_SECTOR));
  const containerSize = miniSectors * MINI_SECTOR;
  const containerSectors = Math.ceil(containerSize / SECTOR);
  // Sectors: 0 FAT, 1 mini FAT, 2 directory, 3… the mini stream container.
  const fat = Buffer.alloc(SECTOR, 0xff);
  fat.writeUInt32LE(FATSECT, 0);
  fat.writeUInt32LE(ENDOFCHAIN, 4);
  fat.writeUInt32LE(ENDOFCHAIN, 8);
  for (let i = 0; i < containerSectors; i++) {
    fat.writeUInt32LE(i + 1 < containerSectors ? 3 + i + 1 : ENDOFCHAIN, 4 * (3 + i));
  }
  const miniFat = Buffer.alloc(SECTOR, 0xff);
  for (let i = 0; i < miniSectors; i++) miniFat.writeUInt32LE(i + 1 < miniSectors ? i + 1 : ENDOFCHAIN, 4 * i);
  const container = Buffer.alloc(containerSectors * SECTOR);
  stream.copy(container, 0);
  return Buffer.concat([
    header({
      fatSectors: 1,
      firstDirectory: 2,
      firstMiniFat: 1,
      miniFatSectors: 1,
      firstDifat: ENDOFCHAIN,
      difatSectors: 0,
      fatIds: [0],
    }),
    fat,
    miniFat,
    directory({ start: 3, size: containerSize }, { start: 0, size: stream.length }),
    container,
  ]);
}
