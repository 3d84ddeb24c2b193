import { memoriesUsed } from './reportRepository';
import type { MemoryStore, StoreStats } from '../store/memoryStore';
import { countBehaviors } from '../memory/behaviors';
import { countByStatus } from '../memory/statementRepository';

/** What `engram stats` and the extension report: the store's counts and the memory's beliefs and their use. */
export interface MemoryStats {
  readonly turns: number;
  readonly sessions: number;
  readonly facts: { readonly proposed: number; readonly confirmed: number; readonly retired: number; readonly rejected: number };
  readonly behaviors: number;
  readonly memoriesUsed: number;
  /** "memories recording any use: X of N" (confirmed facts some prompt or tool carried). */
  readonly memoriesRecordingUse: string;
  readonly schemaVersion: number;
  readonly folder: string;
  readonly journals: number;
}

export function memoryStats(store: MemoryStore): MemoryStats {
  const stored: StoreStats = store.stats();
  return store.read((db) => {
    const { proposed, confirmed, retired, rejected } = countByStatus(db);
    const used = memoriesUsed(db);
    return {
      turns: stored.turns,
      sessions: stored.sessions,
      facts: { proposed, confirmed, retired, rejected },
      behaviors: countBehaviors(db, 'approved'),
      memoriesUsed: used.used,
      memoriesRecordingUse: `${used.used} of ${used.of}`,
      schemaVersion: stored.schemaVersion,
      folder: stored.folder,
      journals: stored.journals,
    };
  });
}
