import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Citation } from '../memory/statementRepository';

/**
 * Citations: the lines of a repository file a project fact rests on, kept as a path and a hash. Before a fact goes
 * into a prompt its citation is re-checked; the cited text moved is still fine, changed or vanished is "needs a look".
 */
export type CitationState = 'ok' | 'changed' | 'vanished';

/** Files larger than this are not read for a check: a citation to one counts as changed (a person looks). */
const maxCitedFileBytes = 2 * 1024 * 1024;

export function hashLines(lines: readonly string[]): string {
  return createHash('sha256').update(lines.map((line) => line.trim()).join('\n')).digest('hex').slice(0, 16);
}

function linesOf(text: string): string[] {
  return text.split(/\r?\n/);
}

/** Cites lines `start`..`end` (1-based, inclusive) of a file, as it is now. */
export function citeLines(root: string, path: string, start: number, end = start): Citation | undefined {
  const full = join(root, path);
  if (!existsSync(full)) return undefined;
  const lines = linesOf(readFileSync(full, 'utf8'));
  if (start < 1 || end < start || end > lines.length) return undefined;
  return { path: path.replace(/\\/g, '/'), lines: [start, end], hash: hashLines(lines.slice(start - 1, end)) };
}

/**
 * Checks citations cheaply: a file is read once per change of its size or mtime, the cited range is compared first,
 * and only when it differs is the file searched for the same lines elsewhere (an edit above them moves them).
 */
export class CitationChecker {
  private readonly files = new Map<string, { size: number; mtimeMs: number; lines: string[] }>();

  check(root: string, citation: Citation): CitationState {
    const full = join(root, citation.path);
    let stat;
    try {
      stat = statSync(full);
    } catch {
      return 'vanished';
    }
    if (!stat.isFile()) return 'vanished';
    if (stat.size > maxCitedFileBytes) return 'changed';
    let cached = this.files.get(full);
    if (!cached || cached.size !== stat.size || cached.mtimeMs !== stat.mtimeMs) {
      cached = { size: stat.size, mtimeMs: stat.mtimeMs, lines: linesOf(readFileSync(full, 'utf8')) };
      this.files.set(full, cached);
    }
    const [start, end] = citation.lines;
    const span = end - start + 1;
    if (hashLines(cached.lines.slice(start - 1, end)) === citation.hash) return 'ok';
    for (let i = 0; i + span <= cached.lines.length; i++) {
      if (hashLines(cached.lines.slice(i, i + span)) === citation.hash) return 'ok';
    }
    return 'changed';
  }
}
