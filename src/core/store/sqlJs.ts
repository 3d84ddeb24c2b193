import { readFileSync } from 'node:fs';
import initSqlJs, { type Database, type SqlJsStatic } from 'sql.js';

const engines = new Map<string, Promise<SqlJsStatic>>();

/**
 * Loads the sql.js engine once per wasm file. The caller names the wasm file explicitly: the extension
 * and the CLI ship it in dist/, tests take it from node_modules.
 */
export function loadSqlJs(wasmPath: string): Promise<SqlJsStatic> {
  let engine = engines.get(wasmPath);
  if (!engine) {
    const wasmBinary = readFileSync(wasmPath);
    engine = initSqlJs({ wasmBinary: toArrayBuffer(wasmBinary) });
    engines.set(wasmPath, engine);
  }
  return engine;
}

function toArrayBuffer(bytes: Buffer): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

/**
 * Bytes whose whole-range slice() is themselves, with whatever room their buffer holds after them: sql.js writes a
 * database's bytes into its in-memory file system with `slice()`, a full copy of a Uint8Array (450 MB more at 1M
 * turns); a Node Buffer's slice() happens to be a view, a deprecated behaviour not to rely on. The file system takes the
 * array it gets as the file's storage, its length as the file's capacity: room after the bytes (see readSnapshot) lets
 * the file grow in place instead of being copied into a larger one.
 */
class HandedOverBytes extends Uint8Array<ArrayBuffer> {
  override slice(start?: number, end?: number): Uint8Array<ArrayBuffer> {
    if ((start ?? 0) !== 0 || (end ?? this.length) !== this.length) return new Uint8Array(this).slice(start, end);
    // Only a buffer made for this file has room that is the file's to use (a pooled Buffer shares its memory).
    return roomyBuffers.has(this.buffer) ? new Uint8Array(this.buffer, this.byteOffset, this.buffer.byteLength - this.byteOffset) : this;
  }
}

/** Buffers allocated for one database file, with room after its bytes (see readSnapshot). */
const roomyBuffers = new WeakSet<ArrayBufferLike>();

/** Marks a buffer as holding one database file and nothing else after it, so the file may grow into the rest. */
export function allowGrowthInto(buffer: Buffer): Buffer {
  roomyBuffers.add(buffer.buffer);
  return buffer;
}

/**
 * Opens a database over bytes read from disk without copying them: the in-memory file system keeps them (and the room
 * after them in their buffer) as the file, so SQLite's writes change them in place. The caller hands them over and must
 * not read them afterwards.
 */
export function openDatabaseOver(sql: SqlJsStatic, bytes: Uint8Array): Database {
  return new sql.Database(new HandedOverBytes(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength));
}
