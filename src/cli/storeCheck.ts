import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { journalFolder } from '../core/store/journal';
import { storeLayout } from '../core/store/storeLayout';

const sqliteHeader = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * Why a folder is not an Engram store, or undefined when it is one: its snapshot (a SQLite file with a schema
 * version of Engram's migrations) or at least one journal. Checked before anything is opened, so a mistyped
 * --db is refused instead of becoming a new, empty store, and another program's SQLite file is never touched.
 */
export function whyNotAStore(folder: string): string | undefined {
  if (!existsSync(folder)) return `${folder} does not exist`;
  if (!statSync(folder).isDirectory()) return `${folder} is not a folder`;
  const { snapshot } = storeLayout(folder);
  if (existsSync(snapshot)) return whyNotASnapshot(snapshot);
  const journals = journalFolder(folder);
  const hasJournal = existsSync(journals) && readdirSync(journals).some((name) => name.endsWith('.jsonl'));
  return hasJournal ? undefined : `${folder} holds no Engram store (no engram.sqlite, no journals/)`;
}

function whyNotASnapshot(file: string): string | undefined {
  const head = Buffer.alloc(100);
  const fd = openSync(file, 'r');
  let read: number;
  try {
    read = readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (read < head.length || !head.subarray(0, sqliteHeader.length).equals(sqliteHeader)) {
    return `${file} is not a readable SQLite file (empty or damaged: open the store in VS Code or run \`engram stats\` to recover it)`;
  }
  // PRAGMA user_version lives at byte 60 of the header; Engram's migrations set it from 1 upwards.
  if (head.readUInt32BE(60) === 0) return `${file} is a SQLite file, but not one of Engram's (no schema version)`;
  return undefined;
}
