import { randomUUID } from 'node:crypto';
import { SettledValues, type Facts } from '../memory/facts';
import type { Citation, StatementRecord } from '../memory/statementRepository';
import type { MemoryStore } from '../store/memoryStore';
import { citeLines, CitationChecker, type CitationState } from './citations';
import { deriveProjectFacts } from './derivedFacts';
import type { ProjectScope } from './projectScope';
import { readTeamFile, teamFilePath, whoCommitted, writeTeamFile, type RefusedLine, type SharedLine } from './teamFile';

/** A confirmed project fact whose cited lines changed or vanished: not injected as true, not deleted; the owner looks. */
export interface NeedsLook {
  readonly fact: StatementRecord;
  readonly state: Exclude<CitationState, 'ok'>;
}

/** A project's confirmed facts as they stand now: those whose citations hold (or that cite nothing), and the rest. */
export interface ProjectFactsNow {
  readonly current: StatementRecord[];
  readonly needsLook: NeedsLook[];
}

/** What one reading of the team file did: lines read, proposals made, lines already known or refused, and its cost. */
export interface TeamFileReading {
  readonly path: string;
  readonly lines: number;
  readonly factLines: number;
  readonly proposed: StatementRecord[];
  readonly alreadyKnown: number;
  readonly refused: readonly RefusedLine[];
  readonly notRead?: string;
  readonly ms: number;
}

/** One line for a log or stderr: what the team file gave. */
export function teamFileSummary(reading: TeamFileReading): string {
  const kinds = [...new Set(reading.refused.map((line) => line.why.replace(/ \(.*\)$/, '')))];
  const refused = reading.refused.length > 0 ? `, ${reading.refused.length} refused (${kinds.join('; ')})` : '';
  return (
    `${reading.path}: ${reading.lines} lines read, ${reading.proposed.length} proposed for review, ${reading.alreadyKnown} already known${refused}` +
    `${reading.notRead ? `; ${reading.notRead}` : ''} (${reading.ms.toFixed(0)} ms)`
  );
}

/**
 * Memory about one project at a time, over the same statements, gates, tiers and audit trail as the owner's:
 * confirmed facts checked against their citations before use, proposals read off the repository or the team's
 * file (never confirmed on their word), sharing, and forgetting.
 */
export class ProjectMemory {
  private readonly citations = new CitationChecker();

  constructor(
    private readonly store: MemoryStore,
    private readonly facts: Facts,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The confirmed facts of a project, each citation re-checked (a stat per cited file; a read when it changed). */
  confirmed(project: ProjectScope): ProjectFactsNow {
    const current: StatementRecord[] = [];
    const needsLook: NeedsLook[] = [];
    for (const fact of this.facts.list('confirmed', project.scope)) {
      const state = fact.citation ? this.citations.check(project.root, fact.citation) : 'ok';
      if (state === 'ok') current.push(fact);
      else needsLook.push({ fact, state });
    }
    return { current, needsLook };
  }

  proposed(project: ProjectScope): StatementRecord[] {
    return this.facts.list('proposed', project.scope);
  }

  /** The owner states a project fact ("Remember for this project…"): confirmed at once, on the project keys. */
  remember(project: ProjectScope, key: string, value: string): StatementRecord {
    return this.facts.remember(key, value, project.scope);
  }

  /** Proposes what the repository says about itself (package.json, the lockfile), each with its citation. */
  proposeDerived(project: ProjectScope): StatementRecord[] {
    return this.facts.proposeAllForReview(
      project.scope,
      deriveProjectFacts(project.root).map((derived) => ({
        key: derived.key, value: derived.value, origin: 'derived', words: derived.words, citation: derived.citation,
        reason: `read off the repository (${derived.words}); a proposal until you confirm it`,
      })),
    );
  }

  /** Writes the project's current confirmed facts to the team file in the repository; returns its path and count. */
  share(project: ProjectScope): { path: string; facts: number } {
    const { current } = this.confirmed(project);
    return { path: writeTeamFile(project.root, current), facts: current.length };
  }

  /**
   * Reads the team file as proposals for this owner, naming who committed each line; never a confirmation. The file
   * is read off the host thread within its caps, and settled in one pass: lines already live or rejected here cost a
   * set lookup, and only new ones are blamed and proposed, in one batch. A second reading of the same file writes nothing.
   */
  async readShared(project: ProjectScope): Promise<TeamFileReading> {
    const started = performance.now();
    const read = await readTeamFile(project.root);
    const settled = this.facts.settled(project.scope);
    const refused = [...read.refused];
    const candidates: SharedLine[] = [];
    const inFile = new SettledValues([]);
    // Keys no project may have are refused here, before git is asked about their lines (every time the folder opens).
    const slots = this.facts.slotsOf(project.scope);
    let keyless = 0;
    for (const shared of read.facts) {
      if (!slots.has(shared.key)) {
        keyless++;
        refused.push({ line: shared.line, why: `not a key Engram may learn about a project (${shared.key})` });
        continue;
      }
      if (settled.has(shared.key, shared.value) || inFile.has(shared.key, shared.value)) continue;
      inFile.add(shared.key, shared.value);
      candidates.push(shared);
    }
    const authors = candidates.length > 0 ? await whoCommitted(project.root, candidates.at(-1)!.line) : new Map<number, string>();
    const proposed = this.facts.proposeAllForReview(
      project.scope,
      candidates.map((shared) => {
        const committedBy = authors.get(shared.line) ?? 'not committed (no git history for this line)';
        return {
          key: shared.key, value: shared.value, origin: 'shared', citation: shared.citation,
          words: `${teamFilePath} line ${shared.line}, committed by ${committedBy}: ${shared.key} = ${shared.value}`,
          reason: `from the team's file ${teamFilePath} (committed by ${committedBy}); a proposal until you confirm it`,
        };
      }),
      settled,
      (index, why) => refused.push({ line: candidates[index].line, why }),
    );
    return {
      path: teamFilePath, lines: read.lines, factLines: read.facts.length + read.refused.length, proposed, alreadyKnown: read.facts.length - keyless - candidates.length,
      refused, ...(read.notRead ? { notRead: read.notRead } : {}), ms: performance.now() - started,
    };
  }

  /** What the extension does when a folder opens, and `chat --workspace` / `search --workspace` do too: same code. */
  async readOnOpen(project: ProjectScope): Promise<{ derived: StatementRecord[]; teamFile: TeamFileReading }> {
    const derived = this.proposeDerived(project);
    return { derived, teamFile: await this.readShared(project) };
  }

  /**
   * The owner looked at a fact that needs a look and says it still holds: it is re-cited to the lines as they are now
   * (the same key re-read off the repository, else the same line range), or keeps no citation when its file is gone.
   */
  confirmAfterLook(project: ProjectScope, id: string): StatementRecord {
    const fact = this.facts.get(id);
    let citation: Citation | undefined;
    if (fact.citation) {
      citation =
        deriveProjectFacts(project.root).find((derived) => derived.key === fact.key && derived.value.toLowerCase() === fact.value.toLowerCase())?.citation ??
        citeLines(project.root, fact.citation.path, fact.citation.lines[0], fact.citation.lines[1]);
    }
    this.store.applyOperation({
      kind: 'statement', action: 'cite', id: randomUUID(), statementId: id, at: this.now().toISOString(), citation,
      reason: citation ? `confirmed by the owner against ${citation.path} as it is now` : 'confirmed by the owner; the cited file is gone, so it cites nothing now',
    });
    return this.facts.get(id);
  }

  /** Forgets a project fact from every file of the store. */
  forget(id: string): Promise<void> {
    return this.facts.forget(id);
  }
}
