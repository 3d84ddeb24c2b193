import { readFileSync } from 'node:fs';
import initSqlJs, { type SqlJsStatic } from 'sql.js';

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
