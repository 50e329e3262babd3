/**
 * A byte sink backed by an anonymous temporary file: bytes are appended into
 * 64 KB chunks in memory and written to the file on `drain()`, so the sink
 * holds at most what was appended since the last drain. The file is unlinked
 * as soon as it is opened, so nothing is left behind whatever happens to the
 * process; it lives until its handle is closed.
 */
import fs from "node:fs";
import type { FileHandle } from "node:fs/promises";
import path from "node:path";
import crypto from "node:crypto";

const CHUNK = 64 * 1024;
const SPARE = 8;

export class ByteSink {
  /** Bytes appended so far (written or not). */
  size = 0;
  private chunk: Buffer = Buffer.allocUnsafe(CHUNK);
  private used = 0;
  private pending: Buffer[] = [];
  /** Bytes already in the file (or being written by the drain in progress). */
  private written = 0;
  private draining = false;
  /** Written-out chunks kept for reuse. */
  private spare: Buffer[] = [];

  private constructor(readonly file: FileHandle) {}

  static async open(dir: string): Promise<ByteSink> {
    await fs.promises.mkdir(dir, { recursive: true });
    const name = path.join(dir, `export-${process.pid}-${crypto.randomBytes(6).toString("hex")}.tmp`);
    const file = await fs.promises.open(name, "w+", 0o600);
    try {
      await fs.promises.unlink(name);
    } catch {
      // A system that cannot unlink an open file keeps it until close; nothing else depends on it.
    }
    return new ByteSink(file);
  }

  /** The chunk to write `n` bytes into at `offset`; call `commit(n)` after writing. */
  reserve(n: number): Buffer {
    if (this.used + n > this.chunk.length) {
      if (this.used > 0) this.pending.push(this.chunk.subarray(0, this.used));
      this.chunk = this.fresh(n);
      this.used = 0;
    }
    return this.chunk;
  }

  /** A chunk from the ones already written out, or a new one: the sink reuses a handful of chunks. */
  private fresh(n = CHUNK): Buffer {
    const reused = n <= CHUNK ? this.spare.pop() : undefined;
    return reused ?? Buffer.allocUnsafe(Math.max(CHUNK, n));
  }

  /** Bytes appended but not yet written to the file. */
  get buffered(): number {
    return this.size - this.written;
  }

  get offset(): number {
    return this.used;
  }

  commit(n: number) {
    this.used += n;
    this.size += n;
  }

  push(bytes: Buffer) {
    bytes.copy(this.reserve(bytes.length), this.used);
    this.commit(bytes.length);
  }

  /** Overwrites bytes already appended (a length or a count known only later). */
  patch(at: number, bytes: Buffer) {
    if (at + bytes.length > this.size) throw new RangeError("patch past the end");
    if (this.draining) throw new Error("patch during a drain");
    let start = this.written;
    for (const part of [...this.pending, this.chunk.subarray(0, this.used)]) {
      this.patchPart(part, start, at, bytes);
      start += part.length;
    }
    if (at < this.written) {
      const inFile = Math.min(bytes.length, this.written - at);
      fs.writeSync(this.file.fd, bytes, 0, inFile, at);
    }
  }

  private patchPart(part: Buffer, partStart: number, at: number, bytes: Buffer) {
    const from = Math.max(at, partStart);
    const to = Math.min(at + bytes.length, partStart + part.length);
    if (from < to) bytes.copy(part, from - partStart, from - at, to - at);
  }

  /** Writes what was appended to the file (`all` includes the chunk being filled). Await it before appending again. */
  async drain(all = false) {
    if (all && this.used > 0) {
      this.pending.push(this.chunk.subarray(0, this.used));
      this.chunk = this.fresh();
      this.used = 0;
    }
    if (!this.pending.length) return;
    const parts = this.pending;
    this.pending = [];
    const length = parts.reduce((n, p) => n + p.length, 0);
    const at = this.written;
    this.written += length;
    this.draining = true;
    try {
      const { bytesWritten } = await this.file.writev(parts, at);
      if (bytesWritten !== length) throw new Error("short write to a temporary file");
      for (const part of parts) {
        // Each part is the start of one whole chunk of its own (allocUnsafe of 64 KB is never pooled).
        if (part.byteOffset === 0 && part.buffer.byteLength === CHUNK && this.spare.length < SPARE) {
          this.spare.push(Buffer.from(part.buffer, 0, CHUNK));
        }
      }
    } finally {
      this.draining = false;
    }
  }

  /** Reads `length` bytes at `position` of the file (after a full drain). */
  async read(position: number, length: number): Promise<Buffer> {
    const out = Buffer.allocUnsafe(length);
    let got = 0;
    while (got < length) {
      const { bytesRead } = await this.file.read(out, got, length - got, position + got);
      if (bytesRead === 0) throw new Error("temporary file ended early");
      got += bytesRead;
    }
    return out;
  }

  async close() {
    await this.file.close().catch(() => undefined);
  }
}
