import type { BehaviorStatus } from '../memory/behaviors';
import type { Cardinality } from '../memory/allowlist';
import type { Tier } from '../capture/candidate';
import type { Citation, StatementOrigin, StatementScope, StatementStatus } from '../memory/statementRepository';
import type { TurnRole } from '../store/turnRepository';

/**
 * The backup format of "Export Memory" / `engram export`: plain JSON a person can read, for moving to another machine.
 * Version 2 is the whole memory: the conversations, every statement of every scope and status with its audit trail,
 * the behaviours with theirs, and the tombstones of what the owner told Engram to forget. Every record keeps its id,
 * so importing the same file twice stores everything once. Version 1 (conversations only) still imports.
 */
export interface MemoryFile {
  readonly format: 'engram-memory';
  readonly version: 2;
  readonly exportedAt: string;
  readonly sessions: readonly ExportedSession[];
  readonly statements: readonly ExportedStatement[];
  readonly behaviors: readonly ExportedBehavior[];
  readonly forgotten: ForgottenRecords;
}

/** The versions this Engram reads; a newer one is refused (the file may hold what this version would drop). */
export const readableVersions = [1, 2] as const;
export const currentVersion = 2;

export interface ExportedTurn {
  readonly id: string;
  readonly role: TurnRole;
  readonly text: string;
  readonly at: string;
  readonly ref?: string;
}

export interface ExportedSession {
  readonly id: string;
  readonly source: 'chat' | 'import';
  /** Absent in version 1: taken from the turns (or the export's time for a conversation cooled to its summary). */
  readonly startedAt?: string;
  readonly lastAt?: string;
  readonly summary?: string;
  /** The id of the last turn the summary covers. */
  readonly summaryUpto?: string;
  /** How far the summary reached in its conversation's own numbering (what a cooled conversation, with no turns, keeps). */
  readonly summaryUptoSeq?: number;
  /** Set when the conversation had cooled to its summary (its turns removed by retention). */
  readonly cooledAt?: string;
  readonly turns: readonly ExportedTurn[];
}

export interface ExportedEvent {
  readonly id: string;
  readonly at: string;
  readonly action: string;
  readonly statusAfter: StatementStatus;
  readonly reason: string;
  readonly turnId?: string;
}

export interface ExportedStatement {
  readonly id: string;
  /** `owner`, or `project:<id>` for a fact about one repository. */
  readonly scope: StatementScope;
  readonly key: string;
  readonly value: string;
  readonly cardinality: Cardinality;
  readonly status: StatementStatus;
  readonly tier: Tier;
  readonly origin: StatementOrigin;
  /** The exact words it came from. */
  readonly words: string;
  readonly sourceTurnId?: string;
  readonly sourceSessionId?: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly askedInSession?: string;
  readonly citation?: Citation;
  /** The turns that said it again (repetition confirms). */
  readonly mentions: readonly string[];
  /** The audit trail, oldest first. */
  readonly history: readonly ExportedEvent[];
}

export interface ExportedBehavior {
  readonly id: string;
  readonly text: string;
  readonly status: BehaviorStatus;
  readonly evidence: string;
  readonly evidenceTurnId?: string;
  readonly statementId?: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly history: readonly { readonly id: string; readonly at: string; readonly action: string; readonly reason: string }[];
}

/** What the owner told Engram to forget, by id and time only (never the words): it stays forgotten where it is imported. */
export interface ForgottenRecords {
  readonly sessions: readonly Tombstone[];
  readonly turns: readonly Tombstone[];
  readonly statements: readonly Tombstone[];
}

export interface Tombstone {
  readonly id: string;
  readonly at: string;
}

/** What a file holds, counted for the question before an import ("23 confirmed facts, 2 retired, …"). */
export interface MemoryFileSummary {
  readonly version: number;
  readonly exportedAt: string;
  readonly conversations: number;
  readonly turns: number;
  readonly summaries: number;
  /** The owner's facts by status. */
  readonly facts: Record<StatementStatus, number>;
  /** Facts about repositories, all statuses, and how many repositories they are about. */
  readonly projectFacts: number;
  readonly projects: number;
  readonly behaviors: Record<BehaviorStatus, number>;
  readonly forgotten: { readonly conversations: number; readonly turns: number; readonly facts: number };
}

export function summarizeMemoryFile(file: MemoryFile): MemoryFileSummary {
  const facts: Record<StatementStatus, number> = { proposed: 0, confirmed: 0, retired: 0, rejected: 0 };
  const behaviors: Record<BehaviorStatus, number> = { proposed: 0, approved: 0, rejected: 0, retired: 0 };
  const projects = new Set<string>();
  let projectFacts = 0;
  for (const statement of file.statements) {
    if (statement.scope === 'owner') facts[statement.status]++;
    else {
      projectFacts++;
      projects.add(statement.scope);
    }
  }
  for (const behavior of file.behaviors) behaviors[behavior.status]++;
  return {
    version: file.version,
    exportedAt: file.exportedAt,
    conversations: file.sessions.length,
    turns: file.sessions.reduce((sum, session) => sum + session.turns.length, 0),
    summaries: file.sessions.filter((session) => session.summary).length,
    facts,
    projectFacts,
    projects: projects.size,
    behaviors,
    forgotten: { conversations: file.forgotten.sessions.length, turns: file.forgotten.turns.length, facts: file.forgotten.statements.length },
  };
}

const number = new Intl.NumberFormat('en-US');
/** A number as the import question writes it: with thousands separators. */
export const formatNumber = (n: number): string => number.format(n);
/** "1 turn", "1,204 turns". */
export const count = (n: number, one: string, many = `${one}s`): string => `${number.format(n)} ${n === 1 ? one : many}`;

/** The summary in words, as the import question asks it (the VS Code command and `engram import-memory` alike). */
export function describeMemoryFile(summary: MemoryFileSummary): string {
  const f = summary.facts;
  const b = summary.behaviors;
  const parts = [
    `${count(f.confirmed, 'confirmed fact')}, ${number.format(f.retired)} retired, ${number.format(f.rejected)} rejected, ${number.format(f.proposed)} proposed`,
    `${count(b.approved, 'behaviour')} approved (${number.format(b.proposed)} proposed, ${number.format(b.rejected + b.retired)} rejected or retired)`,
    `${count(summary.projectFacts, 'project fact')} for ${count(summary.projects, 'repository', 'repositories')}`,
    `${count(summary.turns, 'turn')} in ${count(summary.conversations, 'conversation')} (${number.format(summary.summaries)} with a summary)`,
  ];
  const forgotten = summary.forgotten;
  if (forgotten.conversations + forgotten.turns + forgotten.facts > 0) {
    parts.push(`and what was forgotten there (${count(forgotten.conversations, 'conversation')}, ${count(forgotten.turns, 'turn')}, ${count(forgotten.facts, 'fact')}), which stays forgotten here`);
  }
  return `${parts.join('; ')}. Exported ${summary.exportedAt} (format version ${summary.version}).`;
}
