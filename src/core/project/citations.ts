import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import type { Citation } from '../memory/statementRepository';
import { placeInRoots, readContainedSync } from '../shared/containedFile';

/**
 * Citations: the lines of a repository file a project fact rests on, kept as a path and a hash. Before a fact goes
 * into a prompt its citation is re-checked; the cited text moved is still fine, changed or vanished is "needs a look".
 */
export type CitationState = 'ok' | 'changed' | 'vanished';

/** Files larger than this are not read for a check: a citation to one counts as changed (a person looks). */
const maxCitedFileBytes = 2 * 1024 * 1024;

/**
 * The lines of a file of the repository, read through the containment check (src/core/shared/containedFile.ts): a
 * path that leads outside the repository (by `..`, an absolute path or a symbolic link) or to a FIFO is never read.
 */
function readCitedLines(root: string, path: string): { lines: string[]; size: number } | undefined {
  const read = readContainedSync([root], path, maxCitedFileBytes);
  if ('error' in read || read.size > maxCitedFileBytes) return undefined;
  return { lines: linesOf(Buffer.from(read.bytes).toString('utf8')), size: read.size };
}

/** Whether a cited path, as spelled, stays inside the repository (a teammate's file may cite anything). */
export function citesInside(root: string, path: string): boolean {
  return !('error' in placeInRoots([root], path));
}

export function hashLines(lines: readonly string[]): string {
  return createHash('sha256').update(lines.map((line) => line.trim()).join('\n')).digest('hex').slice(0, 16);
}

function linesOf(text: string): string[] {
  return text.split(/\r?\n/);
}

/** Cites lines `start`..`end` (1-based, inclusive) of a file, as it is now. */
export function citeLines(root: string, path: string, start: number, end = start): Citation | undefined {
  const lines = readCitedLines(root, path)?.lines;
  if (!lines) return undefined;
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
    const placed = placeInRoots([root], citation.path);
    if ('error' in placed) return 'vanished';
    let stat;
    try {
      stat = statSync(placed.absolute);
    } catch {
      return 'vanished';
    }
    if (!stat.isFile()) return 'vanished';
    if (stat.size > maxCitedFileBytes) return 'changed';
    let cached = this.files.get(placed.absolute);
    if (!cached || cached.size !== stat.size || cached.mtimeMs !== stat.mtimeMs) {
      const read = readCitedLines(root, citation.path);
      if (!read) return 'vanished';
      cached = { size: stat.size, mtimeMs: stat.mtimeMs, lines: read.lines };
      this.files.set(placed.absolute, cached);
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
