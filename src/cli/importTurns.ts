import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { MemoryStore } from '../core/store/memoryStore';
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
  return {
    session: line.session,
    role: line.role,
    text: line.text,
    at: line.at === undefined ? undefined : new Date(line.at).toISOString(),
    ref: line.ref as string | undefined,
  };
}

/**
 * Imports conversation history. Each turn's id is derived from its content and its position among
 * identical lines, so importing the same file twice (or two processes importing it) stores each turn once.
 * Imported turns are history only: nothing is captured from them.
 */
/** Lines between waits for the journal: a killed import keeps everything up to its last completed batch. */
const durableBatch = 500;

export async function importTurns(store: MemoryStore, file: string): Promise<ImportReport> {
  const content = readFileSync(file, 'utf8');
  const lines = content.split(/\r?\n/);
  const seen = new Map<string, number>();
  const rejected: ImportReport['rejected'] = [];
  let imported = 0;
  let alreadyStored = 0;
  let counted = 0;
  for (const [index, raw] of lines.entries()) {
    if (raw.trim() === '') continue;
    counted++;
    if (counted % durableBatch === 0) await store.flush();
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
    const key = [line.session, line.ref ?? '', line.role, line.at ?? '', line.text].join('\u0000');
    const occurrence = (seen.get(key) ?? 0) + 1;
    seen.set(key, occurrence);
    const id = `import-${createHash('sha256').update(key).update(`\u0000${occurrence}`).digest('hex').slice(0, 32)}`;
    const turn = store.recordTurn({ id, sessionId: line.session, role: line.role, text: line.text, at: line.at, ref: line.ref, source: 'import' });
    if (turn.created) imported++;
    else alreadyStored++;
  }
  await store.flush();
  return { file, lines: counted, imported, alreadyStored, rejected };
}
