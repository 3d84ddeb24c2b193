import { agentUse, type AgentUse } from '../context/agentCalls';
import type { ContextReport } from '../context/contextReport';
import type { RetiredBelief } from '../context/staleBeliefs';
import { factsRetrievedFor, recentReports, reportsOfSession, withoutTexts } from '../context/reportRepository';
import { RollingSummaries } from '../context/rollingSummary';
import type { TokenCounter } from '../shared/tokenCounter';
import { defaultAllowlist, type Allowlist } from '../memory/allowlist';
import { BehaviorBook } from '../memory/behaviorBook';
import { Corrections } from '../memory/corrections';
import { Facts } from '../memory/facts';
import { countByScope } from '../memory/statementRepository';
import { retireFromReceipt, type WrongOutcome } from '../memory/wrongFromReceipt';
import { recallConversation, type RecallOptions } from '../recall/conversationRecall';
import { searchMemory, type MemoryHit, type MemoryScope } from '../recall/memorySearch';
import type { TurnHit } from '../recall/turnSearch';
import type { MemoryStore } from '../store/memoryStore';
import { ProjectMemory } from '../project/projectMemory';
import { randomUUID } from 'node:crypto';

/**
 * The one way into memory for the host, the CLI and the turn engine: beliefs, behaviours, corrections, summaries
 * and context reports over one store. Nobody outside the core touches the database handle.
 */
export class EngramMemory {
  readonly state = 'open' as const;
  readonly facts: Facts;
  readonly behaviors: BehaviorBook;
  readonly corrections: Corrections;
  readonly summaries: RollingSummaries;
  /** What is true of the repositories the owner works in (scopes `project:<id>`), over the same statements. */
  readonly projects: ProjectMemory;
  private readonly listeners = new Set<() => void>();
  private retired: RetiredBelief[] | undefined;

  constructor(
    readonly store: MemoryStore,
    readonly tokens: TokenCounter,
    options: { readonly allowlist?: () => Allowlist; readonly now?: () => Date; readonly consolidate?: boolean; readonly broadCorrections?: boolean } = {},
  ) {
    const now = options.now ?? (() => new Date());
    this.facts = new Facts(store, options.allowlist ?? (() => defaultAllowlist), tokens, now, options.consolidate ?? true);
    this.behaviors = new BehaviorBook(store, tokens, now);
    const retrievedFor = (turnId: string): string[] => store.read((db) => factsRetrievedFor(db, turnId));
    this.corrections = new Corrections(store, this.facts, this.behaviors, retrievedFor, { broad: options.broadCorrections });
    this.summaries = new RollingSummaries(store, this.facts, tokens);
    this.projects = new ProjectMemory(store, this.facts, now);
    // One change stream: every write of this window and every change read from another writer.
    store.onDidChange((kinds) => {
      if (kinds.has('statement') || kinds.has('forgetSessions') || kinds.has('coolSessions')) this.retired = undefined;
      for (const listener of this.listeners) listener();
    });
  }

  /** Fires after anything in memory changed, here or in another window; returns a function that unsubscribes. */
  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Every belief retired so far (a correction, a newer value, Forget, undo) whose value is not live again, newest first,
   * with why and what is true now: what a prompt must mark where earlier words still say it.
   */
  retiredBeliefs(): readonly RetiredBelief[] {
    if (this.retired) return this.retired;
    const confirmed = this.facts.list('confirmed');
    const live = new Set(confirmed.map((s) => `${s.key}\u0000${s.value.toLowerCase()}`));
    const seen = new Set<string>();
    this.retired = this.facts
      .list('retired')
      .filter((s) => !live.has(`${s.key}\u0000${s.value.toLowerCase()}`))
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
      .filter((s) => !seen.has(`${s.key}\u0000${s.value.toLowerCase()}`) && seen.add(`${s.key}\u0000${s.value.toLowerCase()}`))
      .map((s) => ({ statement: s, history: this.facts.history(s.id) }))
      // A proposal settled without ever being believed was never presented as true: nothing to mark.
      .filter(({ history }) => history.some((event) => event.statusAfter === 'confirmed'))
      .map(({ statement: s, history }) => ({
        key: s.key,
        value: s.value,
        retiredAt: s.updatedAt,
        reason: history.filter((event) => event.statusAfter === 'retired').at(-1)?.reason ?? '',
        now: s.cardinality === 'single' ? confirmed.find((c) => c.key === s.key)?.value : undefined,
      }));
    return this.retired;
  }

  /** Keeps a turn's report: what its prompt carried (texts dropped: the store keeps figures, ids and why). */
  saveReport(report: ContextReport): void {
    // Texts stay where they live (turns, facts): a forgotten conversation must not survive in a report's journal line.
    // A fact's label ("employer = Calico") is kept by the fact itself: the report names it by id, so a forgotten fact
    // leaves no words behind in reports, and a turn with a full profile stores a hundred ids, not a hundred labels.
    const stored = withoutTexts(report);
    const retrieval = stored.retrieval.map((entry) => (entry.kind === 'fact' ? { ...entry, label: '' } : entry));
    this.store.applyOperation({ kind: 'contextReport', id: randomUUID(), at: report.at, report: { ...stored, retrieval } });
  }

  recentReports(limit: number): ContextReport[] {
    return this.store.read((db) => recentReports(db, limit)).map((report) => this.withFactLabels(report));
  }

  reportsOfSession(sessionId: string): ContextReport[] {
    return this.store.read((db) => reportsOfSession(db, sessionId)).map((report) => this.withFactLabels(report));
  }

  /** Labels for the facts a stored report names, as the facts read now (a forgotten one says so). */
  private withFactLabels(report: ContextReport): ContextReport {
    if (!report.retrieval.some((entry) => entry.kind === 'fact' && !entry.label)) return report;
    const byId = new Map(this.facts.list().map((statement) => [statement.id, `${statement.key} = ${statement.value}`]));
    return { ...report, retrieval: report.retrieval.map((entry) => (entry.kind === 'fact' && !entry.label ? { ...entry, label: byId.get(entry.memoryId) ?? '(forgotten)' } : entry)) };
  }

  /** Which agent (over MCP) used which memory: calls per tool and the memories handed out, per client. */
  agentUse(): AgentUse[] {
    const uses = this.store.read((db) => agentUse(db));
    if (!uses.some((use) => use.memories.some((memory) => memory.kind === 'fact' && !memory.label))) return uses;
    const byId = new Map(this.facts.list().map((statement) => [statement.id, `${statement.key} = ${statement.value}`]));
    return uses.map((use) => ({
      ...use,
      memories: use.memories.map((memory) => (memory.kind === 'fact' && !memory.label ? { ...memory, label: byId.get(memory.memoryId) ?? '(forgotten)' } : memory)),
    }));
  }

  /** The owner's "Wrong" under a reply: retires a fact that reply's prompt carried, quoting the reply as evidence. */
  markWrong(statementId: string, userTurnId: string): WrongOutcome {
    return retireFromReceipt(this.store, this.facts, statementId, userTurnId);
  }

  /** Earlier conversations' turns for a query, best first (the recall_conversation engine, by words). */
  recall(query: string, options: RecallOptions = {}): TurnHit[] {
    this.store.indexPending();
    return this.store.read((db) => recallConversation(db, query, options));
  }

  /** Facts per scope and status ('owner', and each `project:<id>`), for `stats`. */
  factsByScope(): Record<string, Record<'proposed' | 'confirmed' | 'retired' | 'rejected', number>> {
    return this.store.read((db) => countByScope(db));
  }

  /** Confirmed memory for a query (the memory_search engine): the owner's facts, and the project's when one is given. */
  searchMemory(query: string, scope: MemoryScope = 'all', k = 10, project?: string): MemoryHit[] {
    return this.store.read((db) => searchMemory(db, query, scope, k, project));
  }
}

/** Memory that could not be opened: Engram still chats, without memory, and says why. */
export interface UnavailableMemory {
  readonly state: 'unavailable';
  readonly reason: string;
}

export type MemoryAccess = EngramMemory | UnavailableMemory;
