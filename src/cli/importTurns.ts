import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { JournalWriteError } from '../core/store/journal';
import type { MemoryStore, RecordTurnInput } from '../core/store/memoryStore';
import type { TurnOp } from '../core/store/operations';
import { isTurnRole, type TurnRole } from '../core/store/turnRepository';

export interface ImportLine {
  readonly session: string;
  readonly role: TurnRole;
  readonly text: string;
  readonly at?: string;
  readonly ref?: string;
}

export interface ImportReport {
  readonly file: string;
  readonly lines: number;
  readonly imported: number;
  /** Lines already in the store (an import is idempotent: running it twice adds nothing). */
  readonly alreadyStored: number;
  readonly rejected: { readonly line: number; readonly reason: string }[];
}

/** The disk stayed full: what is safe and what is not, in words a person can act on. */
export class ImportStoppedError extends Error {
  constructor(
    readonly savedTurns: number,
    readonly savedThroughLine: number,
    cause: Error,
  ) {
    super(
      `the disk holding the memory is full. The first ${savedTurns} turns of this import (through line ${savedThroughLine}) are saved; ` +
        `nothing after line ${savedThroughLine} was stored. Free some disk space, then run the same import again: what is already ` +
        `stored is skipped. (${cause.message})`,
      { cause },
    );
    this.name = 'ImportStoppedError';
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Checks one parsed JSONL line against the import contract; returns the reason when it does not fit. */
export function checkImportLine(value: unknown): ImportLine | string {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return 'not a JSON object';
  const line = value as Record<string, unknown>;
  if (typeof line.session !== 'string' || line.session.length === 0) return '"session" must be a non-empty string';
  if (!isTurnRole(line.role)) return '"role" must be "user" or "assistant"';
  if (typeof line.text !== 'string') return '"text" must be a string';
  if (line.at !== undefined && (typeof line.at !== 'string' || Number.isNaN(Date.parse(line.at)))) {
    return '"at" must be an ISO-8601 time';
  }
  if (line.ref !== undefined && typeof line.ref !== 'string') return '"ref" must be a string';
  for (const field of ['session', 'text', 'ref'] as const) {
    const text = line[field];
    if (typeof text === 'string' && !text.isWellFormed()) {
      const at = [...text].findIndex((char) => /^[\uD800-\uDFFF]$/.test(char));
      return `"${field}" holds a lone surrogate (\\u${text.charCodeAt(at).toString(16)} at character ${at + 1}), which UTF-8 cannot store`;
    }
  }
  return {
    session: line.session,
    role: line.role,
    text: line.text,
    at: line.at === undefined ? undefined : new Date(line.at).toISOString(),
    ref: line.ref as string | undefined,
  };
}

/** Lines between waits for the journal: a killed import keeps everything up to its last completed batch. */
const durableBatch = 500;
/** How long an import waits for a full disk to have room again before it stops (tests shorten it). */
const diskFullPatienceMs = Number(process.env.ENGRAM_DISK_FULL_PATIENCE_MS) || 15_000;

/**
 * Imports conversation history. Each turn's id is derived from its content (session, ref, text) after secrets are
 * removed and its position among identical lines, so importing the same file twice (or two processes importing it)
 * stores each turn once, and no id can be used to confirm a guessed secret. Imported turns are history only: nothing is
 * captured from them. A turn counts as imported only once it is durable in the journal.
 */
export async function importTurns(store: MemoryStore, file: string, log: (line: string) => void = () => undefined): Promise<ImportReport> {
  const lines = splitLines(readFileSync(file));
  const seen = new Map<string, number>();
  const rejected: ImportReport['rejected'] = [];
  let imported = 0;
  let alreadyStored = 0;
  let counted = 0;
  /** Each turn this import created, in order, with its line: what is saved is exactly a prefix of them. */
  const created: { id: string; line: number }[] = [];
  const makeDurable = (): Promise<void> => flushWaitingForSpace(store, log, created, lines.length);
  /** The lines read since the last batch, stored together in one transaction. */
  let waiting: { line: ImportLine; at: number }[] = [];
  const storeBatch = (): void => {
    const batch = waiting;
    waiting = [];
    // Ids come from what is stored (the text and labels without their secrets), so no id can confirm a guessed secret.
    const ids: string[] = [];
    const idOf = (turn: TurnOp, index: number): string => {
      const key = [turn.sessionId, turn.ref ?? '', turn.role, batch[index].line.at ?? '', turn.text].join('\u0000');
      const occurrence = (seen.get(key) ?? 0) + 1;
      seen.set(key, occurrence);
      return (ids[index] = `import-${createHash('sha256').update(key).update(`\u0000${occurrence}`).digest('hex').slice(0, 32)}`);
    };
    const inputs = batch.map(({ line }): RecordTurnInput => ({ sessionId: line.session, role: line.role, text: line.text, at: line.at, ref: line.ref, source: 'import' }));
    const stored = store.recordTurns(inputs, idOf);
    stored.forEach((wasCreated, index) => {
      if (wasCreated) {
        imported++;
        created.push({ id: ids[index], line: batch[index].at });
      } else alreadyStored++;
    });
  };
  for (const [index, bytes] of lines.entries()) {
    let raw: string;
    try {
      raw = utf8.decode(bytes);
    } catch {
      rejected.push({ line: index + 1, reason: `not valid UTF-8 (${describeBadUtf8(bytes)})` });
      counted++;
      continue;
    }
    if (raw.trim() === '') continue;
    counted++;
    if (counted % durableBatch === 0) {
      storeBatch();
      await makeDurable();
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (error) {
      rejected.push({ line: index + 1, reason: `not valid JSON (${(error as Error).message})` });
      continue;
    }
    const line = checkImportLine(parsed);
    if (typeof line === 'string') {
      rejected.push({ line: index + 1, reason: line });
      continue;
    }
    waiting.push({ line, at: index + 1 });
  }
  storeBatch();
  await makeDurable();
  return { file, lines: counted, imported, alreadyStored, rejected };
}

/** Flushes the journal; while the disk is full, waits for room (a moment later is common) before giving up. */
async function flushWaitingForSpace(store: MemoryStore, log: (line: string) => void, created: readonly { id: string; line: number }[], lastLine: number): Promise<void> {
  const deadline = Date.now() + diskFullPatienceMs;
  for (let wait = 100; ; wait = Math.min(wait * 2, 2_000)) {
    try {
      await store.flush();
      return;
    } catch (error) {
      // The journal writes in order, so the turns not yet written are a suffix: the rest is on disk.
      const unwritten = new Set(store.unwrittenOperationIds());
      const firstUnsaved = created.findIndex((turn) => unwritten.has(turn.id));
      const savedTurns = firstUnsaved < 0 ? created.length : firstUnsaved;
      const savedThrough = firstUnsaved < 0 ? lastLine : created[firstUnsaved].line - 1;
      if (!(error instanceof JournalWriteError) || !error.diskFull || Date.now() > deadline) {
        throw new ImportStoppedError(savedTurns, savedThrough, error as Error);
      }
      log(`the disk is full; ${savedTurns} turns of this import are saved so far, waiting for space to write the rest…`);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** The file's lines as bytes (a trailing \r is dropped), so each line's UTF-8 is checked on its own. */
function splitLines(content: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  while (start <= content.length) {
    let end = content.indexOf(0x0a, start);
    if (end < 0) end = content.length;
    let line = content.subarray(start, end);
    if (line[line.length - 1] === 0x0d) line = line.subarray(0, line.length - 1);
    lines.push(line);
    start = end + 1;
  }
  return lines;
}

/** Where a line's UTF-8 goes wrong: fed byte by byte, a fatal streaming decoder throws at the first bad byte. */
function describeBadUtf8(bytes: Buffer): string {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (let at = 0; at < bytes.length; at++) {
    try {
      decoder.decode(bytes.subarray(at, at + 1), { stream: true });
    } catch {
      // A lead byte cut short is found at the byte after it: name the lead byte, where the bad sequence starts.
      let start = at;
      for (let back = at - 1; back >= Math.max(0, at - 3); back--) {
        if ((bytes[back] & 0xc0) === 0xc0) start = back;
        if ((bytes[back] & 0xc0) !== 0x80) break;
      }
      return `byte ${start + 1} of the line, 0x${bytes[start].toString(16).padStart(2, '0')}, is not valid UTF-8`;
    }
  }
  return 'the line ends inside a multi-byte character';
}
