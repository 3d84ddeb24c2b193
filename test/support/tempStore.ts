import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TokenCounter } from '../../src/core/shared/tokenCounter';
import { registerDomainOperations } from '../../src/core/domains';
import { MemoryStore, type MemoryStoreOptions } from '../../src/core/store/memoryStore';

// As the extension and the CLI do before opening any store.
registerDomainOperations();

/** sql.js's wasm as installed; the bundled extension and CLI carry their own copy in dist/. */
export const sqlWasmPath = require.resolve('sql.js/dist/sql-wasm.wasm');

/** Counts words: deterministic and fast, for tests that do not measure tokenisation itself. */
export const wordCounter: TokenCounter = { count: (text) => (text.match(/\S+/g) ?? []).length };

/** A fresh store folder per test; never the user's own store. */
export function tempFolder(prefix = 'engram-test-'): { folder: string; remove(): void } {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

export function openTestStore(folder: string, options: Partial<MemoryStoreOptions> = {}): Promise<MemoryStore> {
  return MemoryStore.open({ folder, wasmPath: sqlWasmPath, tokens: wordCounter, ...options });
}
