import type { MemoryStore } from './memoryStore';
import { isTurnRole, type TurnRole } from './turnRepository';

/**
 * The backup format of "Export Memory" / "Import Memory": plain JSON a person can read, for moving to
 * another machine. Turn ids are kept, so importing the same file twice stores everything once.
 */
export interface MemoryExport {
  readonly format: 'engram-memory';
  readonly version: 1;
  readonly exportedAt: string;
  readonly sessions: ExportedSession[];
}

export interface ExportedSession {
  readonly id: string;
  readonly source: 'chat' | 'import';
  readonly summary?: string;
  readonly turns: { readonly id: string; readonly role: TurnRole; readonly text: string; readonly at: string; readonly ref?: string }[];
}

export function exportMemory(store: MemoryStore, now = new Date()): MemoryExport {
  return {
    format: 'engram-memory',
    version: 1,
    exportedAt: now.toISOString(),
    sessions: store.listSessions().map((session) => ({
      id: session.id,
      source: session.source === 'import' ? 'import' : 'chat',
      summary: session.summary,
      turns: store.turns(session.id).map((turn) => ({ id: turn.id, role: turn.role, text: turn.text, at: turn.at, ref: turn.ref })),
    })),
  };
}

export interface ImportResult {
  readonly sessions: number;
  readonly turnsAdded: number;
  readonly turnsAlreadyStored: number;
}

/** Checks an import file's shape before anything is written; returns the reason when it does not fit. */
export function checkMemoryExport(value: unknown): MemoryExport | string {
  if (!value || typeof value !== 'object') return 'the file is not a JSON object';
  const data = value as Partial<MemoryExport>;
  if (data.format !== 'engram-memory') return 'the file is not an Engram memory export (its "format" is not "engram-memory")';
  if (data.version !== 1) return `the export's version ${String(data.version)} is not one this Engram reads (1)`;
  if (!Array.isArray(data.sessions)) return 'the export has no "sessions" list';
  for (const [index, session] of data.sessions.entries()) {
    if (!session || typeof session.id !== 'string' || !Array.isArray(session.turns)) return `session ${index + 1} is malformed`;
    if (session.summary !== undefined && typeof session.summary !== 'string') return `session ${index + 1} has a malformed summary`;
    for (const [turnIndex, turn] of session.turns.entries()) {
      const ok =
        turn && typeof turn.id === 'string' && isTurnRole(turn.role) && typeof turn.text === 'string' && typeof turn.at === 'string';
      if (!ok) return `turn ${turnIndex + 1} of session ${index + 1} is malformed`;
      if (![session.id, turn.id, turn.text].every((text) => text.isWellFormed())) {
        return `turn ${turnIndex + 1} of session ${index + 1} holds a lone surrogate, which UTF-8 cannot store`;
      }
    }
  }
  return data as MemoryExport;
}

export async function importMemory(store: MemoryStore, data: MemoryExport): Promise<ImportResult> {
  let turnsAdded = 0;
  let turnsAlreadyStored = 0;
  for (const session of data.sessions) {
    for (const turn of session.turns) {
      try {
        const stored = store.recordTurn({ ...turn, sessionId: session.id, source: session.source === 'import' ? 'import' : 'chat' });
        if (stored.created) turnsAdded++;
        else turnsAlreadyStored++;
      } catch (error) {
        // A conversation forgotten on this machine stays forgotten.
        if ((error as Error).name !== 'ForgottenSessionError') throw error;
      }
    }
    if (session.summary) store.setSummary(session.id, session.summary);
  }
  await store.flush();
  return { sessions: data.sessions.length, turnsAdded, turnsAlreadyStored };
}
