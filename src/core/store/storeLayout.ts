import { join } from 'node:path';

/**
 * The files of one memory store folder. The extension uses its globalStorage folder; the CLI takes
 * `--db DIR`: both lay it out the same way, so either can read what the other wrote.
 */
export interface StoreLayout {
  readonly folder: string;
  /** The SQLite snapshot of the whole memory. */
  readonly snapshot: string;
}

export function storeLayout(folder: string): StoreLayout {
  return { folder, snapshot: join(folder, 'engram.sqlite') };
}
