import { closeSync, existsSync, fdatasyncSync, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { endianness } from 'node:os';
import { dirname } from 'node:path';

/**
 * Embedding vectors kept outside sql.js (768-dim float32 rows made the database 411 MB at 100k rows):
 * an append-only `.f32` file plus one Float32Array in memory, searched by brute force.
 *
 * File layout, little-endian: header `ENGV`, format version (uint32), dims (uint32), reserved (uint32);
 * then fixed-size records: key byte length (uint32), key UTF-8 padded to 60 bytes, deleted flag (1 byte),
 * 3 bytes padding (so the floats stay 4-byte aligned), `dims` float32 values, L2-normalised.
 * A record's slot number is its position in the file, so deleting rewrites one flag byte in place.
 *
 * One writer per file: two processes appending to the same file would interleave records.
 */

const magic = 'ENGV';
const formatVersion = 1;
export const vectorFileHeaderBytes = 16;
const maxKeyBytes = 60;
const flagOffset = 4 + maxKeyBytes;
const floatsOffset = flagOffset + 4;
/** Records are read this many bytes at a time on open, so a 300 MB file never needs a 300 MB buffer. */
const readChunkBytes = 8 * 1024 * 1024;

/** Bytes one record takes in a file of vectors with `dims` values. */
export function vectorRecordBytes(dims: number): number {
  return floatsOffset + dims * 4;
}

export interface VectorHit {
  readonly key: string;
  /** Cosine similarity, -1..1. */
  readonly score: number;
}

/** An append-only file of keyed, L2-normalised vectors with brute-force cosine top-k search. */
export class VectorIndex {
  private vectors: Float32Array;
  /** Key of each slot in file order; undefined once deleted. */
  private readonly slotKeys: (string | undefined)[];
  private readonly slotOfKey = new Map<string, number>();
  /** Where the next record goes: just past the last whole record, so a torn tail gets overwritten. */
  private fileEnd: number;
  private tornTail: boolean;
  private fd: number | undefined;
  private readonly recordBytes: number;

  private constructor(readonly path: string, readonly dims: number, fd: number, loaded: LoadedFile) {
    this.fd = fd;
    this.recordBytes = vectorRecordBytes(dims);
    this.vectors = loaded.vectors;
    this.slotKeys = loaded.slotKeys;
    this.fileEnd = vectorFileHeaderBytes + loaded.slotKeys.length * this.recordBytes;
    this.tornTail = loaded.tornTail;
    loaded.slotKeys.forEach((key, slot) => key !== undefined && this.slotOfKey.set(key, slot));
  }

  /**
   * Opens (or creates) the vector file at `path`. Throws, naming the file, if it is not a vector file,
   * has another format version, or holds vectors of another length: the caller decides what to do; an
   * existing file is never overwritten here.
   */
  static open(path: string, dims: number): VectorIndex {
    if (!Number.isInteger(dims) || dims <= 0) throw new Error(`Vector dims must be a positive integer, got ${dims}`);
    // Records are read and written as Float32Array views: the bytes are the host's order.
    if (endianness() !== 'LE') throw new Error('The vector index needs a little-endian machine');
    if (!existsSync(path)) createEmptyFile(path, dims);
    const fd = openSync(path, 'r+');
    try {
      const loaded = loadFile(fd, path, dims);
      const index = new VectorIndex(path, dims, fd, loaded);
      index.markDeletedOnDisk(loaded.shadowedSlots);
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

  /** Records in the file that were deleted or replaced; compact() removes them. */
  get deletedSlots(): number {
    return this.slotKeys.length - this.slotOfKey.size;
  }

  has(key: string): boolean {
    return this.slotOfKey.has(key);
  }

  /** Stores `vector` under `key` durably (fdatasync) before returning; an existing key is replaced. */
  add(key: string, vector: ArrayLike<number>): void {
    const fd = this.openFd();
    const keyBytes = encodeKey(key);
    const normalised = this.normalise(vector, `vector for ${key}`);
    const record = Buffer.from(new ArrayBuffer(this.recordBytes));
    record.writeUInt32LE(keyBytes.length, 0);
    keyBytes.copy(record, 4);
    new Float32Array(record.buffer, floatsOffset, this.dims).set(normalised);
    if (this.tornTail) {
      ftruncateSync(fd, this.fileEnd);
      this.tornTail = false;
    }
    try {
      writeFully(fd, record, this.fileEnd);
      fdatasyncSync(fd);
    } catch (error) {
      this.tornTail = true; // part of the record may be on disk: cut it off before the next append
      throw error;
    }
    const slot = this.slotKeys.length;
    this.fileEnd += this.recordBytes;
    this.growTo(slot + 1);
    this.vectors.set(normalised, slot * this.dims);
    this.slotKeys.push(key);
    // The new record is appended before the old one is flagged: a crash in between leaves two live
    // records, and loading keeps the later one, so the key is never lost.
    const previous = this.slotOfKey.get(key);
    this.slotOfKey.set(key, slot);
    if (previous !== undefined) {
      this.slotKeys[previous] = undefined;
      this.markDeletedOnDisk([previous]);
    }
  }

  /** Deletes `keys` (in memory and on disk); returns how many were present. Bytes stay until compact(). */
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

  /** The `k` live vectors most similar to `query`, best first; `filter` may exclude keys. */
  search(query: ArrayLike<number>, k: number, filter?: (key: string) => boolean): VectorHit[] {
    const q = this.normalise(query, 'query');
    const limit = Math.min(Math.floor(k), this.slotOfKey.size);
    if (!(limit > 0)) return [];
    const heap = new TopK(limit);
    const { vectors, dims, slotKeys } = this;
    for (let slot = 0; slot < slotKeys.length; slot++) {
      const key = slotKeys[slot];
      if (key === undefined) continue;
      const base = slot * dims;
      let dot = 0;
      for (let i = 0; i < dims; i++) dot += q[i] * vectors[base + i];
      // The filter runs only for candidates that would enter the top k: most never get that far.
      if (!heap.wouldAccept(dot) || (filter && !filter(key))) continue;
      heap.push(dot, slot);
    }
    return heap.sortedDescending().map(({ score, slot }) => ({ key: slotKeys[slot] as string, score }));
  }

  /** Rewrites the file without deleted records (temp file, fsync, rename), so forgotten vectors leave the disk. */
  compact(): void {
    const fd = this.openFd();
    const temp = `${this.path}.compact-${process.pid}.tmp`;
    const live = [...this.slotOfKey.entries()].sort((a, b) => a[1] - b[1]);
    const vectors = new Float32Array(Math.max(live.length, 64) * this.dims);
    const out = openSync(temp, 'w', 0o600);
    try {
      writeFully(out, headerBytes(this.dims), 0);
      const batch = Math.max(1, Math.floor(readChunkBytes / this.recordBytes));
      for (let start = 0; start < live.length; start += batch) {
        const part = live.slice(start, start + batch);
        const buffer = Buffer.from(new ArrayBuffer(part.length * this.recordBytes));
        part.forEach(([key, oldSlot], i) => {
          const at = i * this.recordBytes;
          const keyBytes = encodeKey(key);
          buffer.writeUInt32LE(keyBytes.length, at);
          keyBytes.copy(buffer, at + 4);
          const values = this.vectors.subarray(oldSlot * this.dims, (oldSlot + 1) * this.dims);
          new Float32Array(buffer.buffer, at + floatsOffset, this.dims).set(values);
          vectors.set(values, (start + i) * this.dims);
        });
        writeFully(out, buffer, vectorFileHeaderBytes + start * this.recordBytes);
      }
      fsyncSync(out);
    } catch (error) {
      closeSync(out);
      rmSync(temp, { force: true });
      throw error;
    }
    closeSync(out);
    // Windows will not rename over a file that is open, so ours is closed first and reopened after.
    closeSync(fd);
    this.fd = undefined;
    try {
      renameSync(temp, this.path);
      fsyncFolder(dirname(this.path));
    } finally {
      this.fd = openSync(this.path, 'r+');
    }
    this.vectors = vectors;
    this.slotKeys.length = 0;
    this.slotOfKey.clear();
    for (const [key] of live) this.slotOfKey.set(key, this.slotKeys.push(key) - 1);
    this.fileEnd = vectorFileHeaderBytes + live.length * this.recordBytes;
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

  private normalise(vector: ArrayLike<number>, what: string): Float32Array {
    if (vector.length !== this.dims) throw new Error(`The ${what} has ${vector.length} values; ${this.path} holds ${this.dims}`);
    let sumOfSquares = 0;
    for (let i = 0; i < vector.length; i++) sumOfSquares += vector[i] * vector[i];
    const norm = Math.sqrt(sumOfSquares);
    if (!Number.isFinite(norm) || norm === 0) throw new Error(`The ${what} is zero or not finite: it has no direction`);
    const normalised = new Float32Array(this.dims);
    for (let i = 0; i < vector.length; i++) normalised[i] = vector[i] / norm;
    return normalised;
  }

  private growTo(slots: number): void {
    if (slots * this.dims <= this.vectors.length) return;
    let capacity = Math.max(64, this.vectors.length / this.dims);
    while (capacity < slots) capacity *= 2;
    const grown = new Float32Array(capacity * this.dims);
    grown.set(this.vectors);
    this.vectors = grown;
  }

  /** Sets the deleted flag of each slot in the file, then one fdatasync for all of them. */
  private markDeletedOnDisk(slots: readonly number[]): void {
    if (slots.length === 0) return;
    const fd = this.openFd();
    const deleted = Buffer.from([1]);
    for (const slot of slots) writeFully(fd, deleted, vectorFileHeaderBytes + slot * this.recordBytes + flagOffset);
    fdatasyncSync(fd);
  }
}

interface LoadedFile {
  readonly vectors: Float32Array;
  readonly slotKeys: (string | undefined)[];
  /** Older live records of a key written again: a crash between append and flag; flagged on open. */
  readonly shadowedSlots: number[];
  readonly tornTail: boolean;
}

function loadFile(fd: number, path: string, dims: number): LoadedFile {
  const fileBytes = fstatSync(fd).size;
  const header = Buffer.alloc(vectorFileHeaderBytes);
  const headerRead = readSync(fd, header, 0, header.length, 0);
  const foundMagic = header.toString('latin1', 0, 4);
  if (headerRead < vectorFileHeaderBytes || foundMagic !== magic) {
    throw new Error(`${path} is not an Engram vector file: it starts with ${JSON.stringify(foundMagic.slice(0, headerRead))}, not "${magic}"`);
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
  const shadowedSlots: number[] = [];
  const perChunk = Math.max(1, Math.floor(readChunkBytes / recordBytes));
  const chunk = Buffer.from(new ArrayBuffer(perChunk * recordBytes));
  for (let first = 0; first < slots; first += perChunk) {
    const count = Math.min(perChunk, slots - first);
    readFully(fd, chunk, count * recordBytes, vectorFileHeaderBytes + first * recordBytes);
    for (let i = 0; i < count; i++) {
      const at = i * recordBytes;
      const slot = first + i;
      const keyLength = chunk.readUInt32LE(at);
      if (keyLength === 0 || keyLength > maxKeyBytes) throw new Error(`${path} is damaged: record ${slot} has a key of ${keyLength} bytes`);
      if (chunk[at + flagOffset] !== 0) {
        slotKeys.push(undefined);
        continue;
      }
      const key = chunk.toString('utf8', at + 4, at + 4 + keyLength);
      const earlier = latestSlot.get(key);
      if (earlier !== undefined) {
        slotKeys[earlier] = undefined;
        shadowedSlots.push(earlier);
      }
      latestSlot.set(key, slot);
      slotKeys.push(key);
      vectors.set(new Float32Array(chunk.buffer, at + floatsOffset, dims), slot * dims);
    }
  }
  const tornTail = fileBytes !== vectorFileHeaderBytes + slots * recordBytes;
  return { vectors, slotKeys, shadowedSlots, tornTail };
}

function headerBytes(dims: number): Buffer {
  const header = Buffer.alloc(vectorFileHeaderBytes);
  header.write(magic, 0, 'latin1');
  header.writeUInt32LE(formatVersion, 4);
  header.writeUInt32LE(dims, 8);
  return header;
}

/** A new file appears whole or not at all (temp + rename), so a crash cannot leave half a header. */
function createEmptyFile(path: string, dims: number): void {
  const temp = `${path}.new-${process.pid}.tmp`;
  const fd = openSync(temp, 'w', 0o600);
  try {
    writeFully(fd, headerBytes(dims), 0);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
  fsyncFolder(dirname(path));
}

function encodeKey(key: string): Buffer {
  const bytes = Buffer.from(key, 'utf8');
  if (bytes.length === 0 || bytes.length > maxKeyBytes) {
    throw new Error(`A vector key must be 1-${maxKeyBytes} bytes of UTF-8; ${JSON.stringify(key.slice(0, 80))} is ${bytes.length}`);
  }
  return bytes;
}

function writeFully(fd: number, bytes: Buffer, position: number): void {
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done, position + done);
}

function readFully(fd: number, into: Buffer, length: number, position: number): void {
  for (let done = 0; done < length; ) {
    const n = readSync(fd, into, done, length - done, position + done);
    if (n === 0) throw new Error('The vector file ended early while reading');
    done += n;
  }
}

/** Makes a rename durable on POSIX; Windows cannot open a folder for fsync and does not need it. */
function fsyncFolder(folder: string): void {
  try {
    const fd = openSync(folder, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // best effort: the data itself was already synced
  }
}

/** A min-heap of the best `capacity` scores seen: its root is the score a newcomer has to beat. */
class TopK {
  private readonly scores: Float64Array;
  private readonly slots: Int32Array;
  private count = 0;

  constructor(private readonly capacity: number) {
    this.scores = new Float64Array(capacity);
    this.slots = new Int32Array(capacity);
  }

  wouldAccept(score: number): boolean {
    return this.count < this.capacity || score > this.scores[0];
  }

  /** Sifts up into a free place while filling, then replaces the root and sifts down. */
  push(score: number, slot: number): void {
    const { scores, slots } = this;
    let i = this.count < this.capacity ? this.count++ : 0;
    if (i > 0 || this.count === 1) {
      for (let parent = (i - 1) >> 1; i > 0 && scores[parent] > score; i = parent, parent = (i - 1) >> 1) {
        scores[i] = scores[parent];
        slots[i] = slots[parent];
      }
    } else {
      for (let child = 1; child < this.count; i = child, child = 2 * i + 1) {
        if (child + 1 < this.count && scores[child + 1] < scores[child]) child++;
        if (scores[child] >= score) break;
        scores[i] = scores[child];
        slots[i] = slots[child];
      }
    }
    scores[i] = score;
    slots[i] = slot;
  }

  /** Only the k survivors are sorted, never all the scores. */
  sortedDescending(): { score: number; slot: number }[] {
    const out = Array.from({ length: this.count }, (_, i) => ({ score: this.scores[i], slot: this.slots[i] }));
    return out.sort((a, b) => b.score - a.score || a.slot - b.slot);
  }
}
