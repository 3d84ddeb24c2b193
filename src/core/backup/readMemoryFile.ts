import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { checkMemoryFile } from './checkMemoryFile';
import type { MemoryFile } from './memoryFile';

/**
 * The largest backup Import Memory reads. A backup is parsed whole (JSON has no place to stop early), and parsing
 * costs several times the file's size in memory: the cap keeps an import of any file inside a few hundred megabytes,
 * in the editor as in the CLI. An export takes about 530 bytes a turn of 40 words: some 120,000 such turns fit.
 */
export const largestMemoryFileBytes = 64 * 1024 * 1024;

/** A backup that cannot be imported, with the reason in words; nothing was written when this is thrown. */
export class MemoryFileError extends Error {
  constructor(readonly file: string, reason: string) {
    super(`${file}: ${reason}; nothing was imported.`);
    this.name = 'MemoryFileError';
  }
}

const megabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;

/** Refuses a file over the cap before it is read. */
export function checkMemoryFileSize(file: string, bytes: number): void {
  if (bytes > largestMemoryFileBytes) {
    throw new MemoryFileError(file, `the file is ${megabytes(bytes)}, more than the ${megabytes(largestMemoryFileBytes)} Import Memory reads (an export of this Engram's memory is far smaller: is it the right file?)`);
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes, parses and checks a backup's bytes; throws a MemoryFileError that says what is wrong and where. */
export function parseMemoryFile(file: string, bytes: Uint8Array): MemoryFile {
  checkMemoryFileSize(file, bytes.byteLength);
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new MemoryFileError(file, 'the file is not UTF-8 text, so it is not an Engram memory export');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new MemoryFileError(file, jsonProblem(text, (error as Error).message));
  }
  const checked = checkMemoryFile(parsed);
  if (typeof checked === 'string') throw new MemoryFileError(file, checked);
  return checked;
}

/** Why the text is not one JSON value: cut short, one JSON object per line (a file for `engram import`), or not JSON at all. */
function jsonProblem(text: string, message: string): string {
  const trimmed = text.trim();
  if (trimmed.length === 0) return 'the file is empty';
  if (/end of (JSON input|data)|Unterminated|Expected .* after|Bad control character/i.test(message) && trimmed.startsWith('{') && !trimmed.endsWith('}')) {
    return `the file ends before its JSON does (it was cut short: copy or export it again) (${message})`;
  }
  const firstLine = trimmed.split('\n', 1)[0];
  try {
    const line = JSON.parse(firstLine) as Record<string, unknown>;
    if (line && typeof line === 'object' && 'session' in line && 'role' in line) {
      return 'the file holds one conversation turn per line: that is conversation history for `engram import`, not a memory export';
    }
  } catch {
    // Not line-delimited JSON either.
  }
  return `the file is not JSON (${message}), so it is not an Engram memory export`;
}

/** Reads a backup from the local disk: a regular file only (never a FIFO that would block), its size checked first. */
export function readMemoryFile(path: string): MemoryFile {
  let fd: number;
  try {
    // Non-blocking, so a FIFO put where the file should be is refused below instead of waiting for a writer forever.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new MemoryFileError(path, `the file cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new MemoryFileError(path, 'it is not a regular file');
    checkMemoryFileSize(path, stat.size);
    const bytes = Buffer.alloc(stat.size);
    let read = 0;
    while (read < stat.size) {
      const n = readSync(fd, bytes, read, stat.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return parseMemoryFile(path, bytes.subarray(0, read));
  } finally {
    closeSync(fd);
  }
}
