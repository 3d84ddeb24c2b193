import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The files of one memory store folder. The extension uses its globalStorage folder; the CLI takes
 * `--db DIR`: both lay it out the same way, so either can read what the other wrote.
 */
export interface StoreLayout {
  readonly folder: string;
  /** The SQLite snapshot of the whole memory: the current generation. */
  readonly snapshot: string;
  /** The generation before it, kept (with every journal since) until a newer one is verified. */
  readonly previous: string;
  /** What each generation's bytes must checksum to, written with them (see generations.ts). */
  readonly manifest: string;
  readonly journals: string;
}

export function storeLayout(folder: string): StoreLayout {
  return {
    folder,
    snapshot: join(folder, 'engram.sqlite'),
    previous: join(folder, 'engram.sqlite.previous'),
    manifest: join(folder, 'generations.json'),
    journals: join(folder, 'journals'),
  };
}

/** Whether the folder holds any of a store's files: read-only commands refuse a folder that does not. */
export function looksLikeStore(folder: string): boolean {
  const layout = storeLayout(folder);
  return [layout.snapshot, layout.previous, layout.manifest, layout.journals].some((path) => existsSync(path));
}
