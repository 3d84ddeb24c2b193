import { closeSync, existsSync, fdatasyncSync, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { endianness } from 'node:os';
import { dirname } from 'node:path';
import { dotProduct, TopK } from './topK';

/**
 * Embedding vectors kept outside sql.js (768-dim float32 rows made the database 411 MB at 100k rows):
 * an append-only `.f32` file plus one Float32Array in memory, searched by brute force.
 *
 * File layout, little-endian: header `ENGV`, format version, dims, reserved (uint32 each); then records of
 * key byte length (uint32), key UTF-8 padded to 60 bytes, deleted flag (1 byte), 3 bytes padding so the
 * floats stay 4-byte aligned, `dims` float32 values, L2-normalised. A record's slot is its position in the
 * file, so deleting rewrites one flag byte in place. One writer per file: two would interleave records.
 */

const magic = 'ENGV';
const formatVersion = 1;
/** Bytes before the first record. */
export const vectorFileHeaderBytes = 16;
const maxKeyBytes = 60;
const flagOffset = 4 + maxKeyBytes;
const floatsOffset = flagOffset + 4;
/** Files are read and rewritten this much at a time, so a 300 MB file never needs a 300 MB buffer. */
const chunkBytes = 8 * 1024 * 1024;

/** Bytes one record takes in a file of `dims`-value vectors. */
export function vectorRecordBytes(dims: number): number {
  return floatsOffset + dims * 4;
}

/** One search result: a key and its cosine similarity to the query (-1..1). */
export interface VectorHit {
  readonly key: string;
  readonly score: number;
}

/** An append-only file of keyed, L2-normalised vectors with brute-force cosine top-k search. */
export class VectorIndex {
  private readonly recordBytes: number;
  /** Where the next record goes: just past the last whole record. */
  private fileEnd: number;
  /** Bytes past fileEnd (a torn record, or a failed append) to cut off before the next append. */
  private tornTail: boolean;
  private readonly slotOfKey = new Map<string, number>();

  private constructor(
    readonly path: string,
    readonly dims: number,
    private fd: number | undefined,
    private vectors: Float32Array,
    /** Key of each slot in file order; undefined once deleted. */
    private slotKeys: (string | undefined)[],
    fileBytes: number,
  ) {
    this.recordBytes = vectorRecordBytes(dims);
    this.fileEnd = vectorFileHeaderBytes + slotKeys.length * this.recordBytes;
    this.tornTail = fileBytes !== this.fileEnd;
    slotKeys.forEach((key, slot) => key !== undefined && this.slotOfKey.set(key, slot));
  }

  /**
   * Opens (or creates) the vector file at `path`. Throws, naming the file, if it is not a vector file or
   * holds another format version or another number of dims: the caller decides; nothing is overwritten.
   */
  static open(path: string, dims: number): VectorIndex {
    if (!Number.isInteger(dims) || dims <= 0) throw new Error(`Vector dims must be a positive integer, got ${dims}`);
    // Records are copied through Float32Array views, which use the host's byte order.
    if (endianness() !== 'LE') throw new Error('The vector index needs a little-endian machine');
    if (!existsSync(path)) writeNewFile(path, [headerBytes(dims)]);
    const fd = openSync(path, 'r+');
    try {
      const fileBytes = fstatSync(fd).size;
      const { vectors, slotKeys, shadowedSlots } = readFile(fd, path, dims, fileBytes);
      const index = new VectorIndex(path, dims, fd, vectors, slotKeys, fileBytes);
      index.markDeletedOnDisk(shadowedSlots);
      return index;
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  /** Live vectors. */
  get size(): number {
    return this.slotOfKey.size;
  }

  /** Records in the file that were deleted or replaced: what compact() would remove. */
  get deletedSlots(): number {
    return this.slotKeys.length - this.slotOfKey.size;
  }

  has(key: string): boolean {
    return this.slotOfKey.has(key);
  }

  /** Stores `vector` under `key`, on disk (fdatasync) before returning; an existing key is replaced. */
  add(key: string, vector: ArrayLike<number>): void {
    const fd = this.openFd();
    const normalised = this.normalise(vector, `vector for ${key}`);
    const record = encodeRecords([key], normalised, this.recordBytes);
    if (this.tornTail) ftruncateSync(fd, this.fileEnd);
    this.tornTail = true; // until the write is known whole
    writeFully(fd, record, this.fileEnd);
    fdatasyncSync(fd);
    this.tornTail = false;
    const slot = this.slotKeys.push(key) - 1;
    this.fileEnd += this.recordBytes;
    this.growTo(slot + 1);
    this.vectors.set(normalised, slot * this.dims);
    // Appended before the old record is flagged: a crash in between leaves two live records of the key,
    // and loading keeps the later one, so a replaced vector is never lost.
    const previous = this.slotOfKey.get(key);
    this.slotOfKey.set(key, slot);
    if (previous !== undefined) {
      this.slotKeys[previous] = undefined;
      this.markDeletedOnDisk([previous]);
    }
  }

  /** Deletes `keys` in memory and on disk; returns how many were present. The bytes stay until compact(). */
  remove(keys: Iterable<string>): number {
    const slots: number[] = [];
    for (const key of keys) {
      const slot = this.slotOfKey.get(key);
      if (slot === undefined) continue;
      this.slotOfKey.delete(key);
      this.slotKeys[slot] = undefined;
      slots.push(slot);
    }
    this.markDeletedOnDisk(slots);
    return slots.length;
  }

  /** The `k` live vectors most similar to `query` (cosine), best first; `filter` returns false to exclude a key. */
  search(query: ArrayLike<number>, k: number, filter?: (key: string) => boolean): VectorHit[] {
    const q = this.normalise(query, 'query');
    const top = new TopK(Math.min(Math.floor(k), this.slotOfKey.size));
    const { vectors, dims, slotKeys } = this;
    for (let slot = 0, base = 0; slot < slotKeys.length; slot++, base += dims) {
      const key = slotKeys[slot];
      if (key === undefined) continue;
      const dot = dotProduct(q, vectors, base);
      // The filter runs only for candidates that would enter the top k: most never get that far.
      if (top.wouldAccept(dot) && (!filter || filter(key))) top.push(dot, slot);
    }
    return top.bestFirst().map(({ score, slot }) => ({ key: slotKeys[slot] as string, score }));
  }

  /** Rewrites the file without deleted records (temp file, fsync, rename), so forgotten vectors leave the disk. */
  compact(): void {
    this.openFd();
    const keys = this.slotKeys.filter((key): key is string => key !== undefined);
    const vectors = new Float32Array(Math.max(keys.length, 64) * this.dims);
    keys.forEach((key, slot) => vectors.set(this.liveVector(key), slot * this.dims));
    const { dims, recordBytes } = this;
    const perChunk = Math.max(1, Math.floor(chunkBytes / recordBytes));
    function* contents(): Generator<Buffer> {
      yield headerBytes(dims);
      for (let first = 0; first < keys.length; first += perChunk) {
        const last = Math.min(first + perChunk, keys.length);
        yield encodeRecords(keys.slice(first, last), vectors.subarray(first * dims, last * dims), recordBytes);
      }
    }
    // Windows will not rename over an open file, so ours is closed for the swap and reopened after.
    this.close();
    try {
      writeNewFile(this.path, contents());
    } finally {
      this.fd = openSync(this.path, 'r+');
    }
    this.vectors = vectors;
    this.slotKeys = keys;
    keys.forEach((key, slot) => this.slotOfKey.set(key, slot));
    this.fileEnd = vectorFileHeaderBytes + keys.length * recordBytes;
    this.tornTail = false;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private openFd(): number {
    if (this.fd === undefined) throw new Error(`The vector index ${this.path} is closed`);
    return this.fd;
  }

  private liveVector(key: string): Float32Array {
    const slot = this.slotOfKey.get(key) as number;
    return this.vectors.subarray(slot * this.dims, (slot + 1) * this.dims);
  }

  private normalise(vector: ArrayLike<number>, what: string): Float32Array {
    if (vector.length !== this.dims) throw new Error(`The ${what} has ${vector.length} values; ${this.path} holds ${this.dims}`);
    let sumOfSquares = 0;
    for (let i = 0; i < vector.length; i++) sumOfSquares += vector[i] * vector[i];
    const norm = Math.sqrt(sumOfSquares);
    if (!Number.isFinite(norm) || norm === 0) throw new Error(`The ${what} is all zeros or not finite: it has no direction`);
    return Float32Array.from(vector, (value) => value / norm);
  }

  /** Doubles the capacity until `slots` fit, so n appends copy O(n) floats in all. */
  private growTo(slots: number): void {
    if (slots * this.dims <= this.vectors.length) return;
    let capacity = Math.max(64, this.vectors.length / this.dims);
    while (capacity < slots) capacity *= 2;
    const grown = new Float32Array(capacity * this.dims);
    grown.set(this.vectors);
    this.vectors = grown;
  }

  /** Sets the deleted flag of each slot in the file, with one fdatasync for all. */
  private markDeletedOnDisk(slots: readonly number[]): void {
    if (slots.length === 0) return;
    const fd = this.openFd();
    for (const slot of slots) writeFully(fd, Buffer.from([1]), vectorFileHeaderBytes + slot * this.recordBytes + flagOffset);
    fdatasyncSync(fd);
  }
}

/** Checks the header, then reads every whole record; a torn last record (a crash mid-append) is left out. */
function readFile(fd: number, path: string, dims: number, fileBytes: number) {
  const header = Buffer.alloc(vectorFileHeaderBytes);
  const headerRead = readSync(fd, header, 0, header.length, 0);
  const found = header.toString('latin1', 0, Math.min(headerRead, 4));
  if (headerRead < header.length || found !== magic) {
    throw new Error(`${path} is not an Engram vector file: it starts with ${JSON.stringify(found)}, not "${magic}"`);
  }
  const version = header.readUInt32LE(4);
  if (version !== formatVersion) throw new Error(`${path} has vector format version ${version}; this Engram reads version ${formatVersion}`);
  const fileDims = header.readUInt32LE(8);
  if (fileDims !== dims) throw new Error(`${path} holds vectors of ${fileDims} dims, but ${dims} were asked for`);

  const recordBytes = vectorRecordBytes(dims);
  const slots = Math.floor((fileBytes - vectorFileHeaderBytes) / recordBytes);
  const vectors = new Float32Array(Math.max(slots, 64) * dims);
  const slotKeys: (string | undefined)[] = [];
  const latestSlot = new Map<string, number>();
  /** Earlier live records of a key written again (a crash between append and flag): flagged on open. */
  const shadowedSlots: number[] = [];
  const perChunk = Math.max(1, Math.floor(chunkBytes / recordBytes));
  const chunk = Buffer.from(new ArrayBuffer(perChunk * recordBytes)); // offset 0: the float views are aligned
  for (let first = 0; first < slots; first += perChunk) {
    const length = Math.min(perChunk, slots - first) * recordBytes;
    for (let done = 0; done < length; ) done += readSync(fd, chunk, done, length - done, vectorFileHeaderBytes + first * recordBytes + done);
    for (let slot = first, at = 0; at < length; slot++, at += recordBytes) {
      const keyLength = chunk.readUInt32LE(at);
      if (keyLength === 0 || keyLength > maxKeyBytes) throw new Error(`${path} is damaged: record ${slot} has a ${keyLength}-byte key`);
      const key = chunk[at + flagOffset] === 0 ? chunk.toString('utf8', at + 4, at + 4 + keyLength) : undefined;
      slotKeys.push(key);
      if (key === undefined) continue;
      const earlier = latestSlot.get(key);
      if (earlier !== undefined) {
        slotKeys[earlier] = undefined;
        shadowedSlots.push(earlier);
      }
      latestSlot.set(key, slot);
      vectors.set(new Float32Array(chunk.buffer, at + floatsOffset, dims), slot * dims);
    }
  }
  return { vectors, slotKeys, shadowedSlots };
}

function headerBytes(dims: number): Buffer {
  const header = Buffer.alloc(vectorFileHeaderBytes);
  header.write(magic, 0, 'latin1');
  header.writeUInt32LE(formatVersion, 4);
  header.writeUInt32LE(dims, 8);
  return header;
}

/** Live records for `keys`, whose normalised vectors lie one after another in `vectors`. */
function encodeRecords(keys: readonly string[], vectors: Float32Array, recordBytes: number): Buffer {
  const dims = vectors.length / keys.length;
  const records = Buffer.from(new ArrayBuffer(keys.length * recordBytes)); // offset 0: the float views are aligned
  keys.forEach((key, i) => {
    const at = i * recordBytes;
    const keyBytes = Buffer.from(key, 'utf8');
    if (keyBytes.length === 0 || keyBytes.length > maxKeyBytes) {
      throw new Error(`A vector key must be 1-${maxKeyBytes} bytes of UTF-8; ${JSON.stringify(key.slice(0, 80))} is ${keyBytes.length}`);
    }
    records.writeUInt32LE(keyBytes.length, at);
    keyBytes.copy(records, at + 4);
    new Float32Array(records.buffer, at + floatsOffset, dims).set(vectors.subarray(i * dims, (i + 1) * dims));
  });
  return records;
}

/** Replaces `path` whole (temp file, fsync, rename, folder fsync): a crash leaves the old file or the new one. */
function writeNewFile(path: string, contents: Iterable<Buffer>): void {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    const fd = openSync(temp, 'w', 0o600);
    try {
      let at = 0;
      for (const chunk of contents) at += writeFully(fd, chunk, at);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  fsyncFolder(dirname(path));
}

/** Makes a rename durable on POSIX; Windows cannot open a folder to sync it, and does not need to. */
function fsyncFolder(folder: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(folder, 'r');
    fsyncSync(fd);
  } catch {
    // best effort: the file's own bytes are already synced
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function writeFully(fd: number, bytes: Buffer, position: number): number {
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done, position + done);
  return bytes.length;
}
