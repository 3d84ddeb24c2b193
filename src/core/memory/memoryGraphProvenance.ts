import type { StatementEvent, StatementRecord } from './statementRepository';
import { parseNodeId, type MemoryGraphSource, type MemoryNodeKind } from './memoryGraph';

/**
 * Where a node of the memory graph came from (its words, turn, audit trail) and what can be done with it: read
 * from the same source as the graph, so a forgotten fact has no provenance.
 */

/** What the graph can ask for on a statement: the Memory view's own commands. */
export type GraphAction = 'forget' | 'edit' | 'showSource';

/** One audit event of a statement: what happened, why, and in which turn. */
export interface ProvenanceEvent {
  readonly at: string;
  readonly action: string;
  readonly reason: string;
  readonly turnId?: string;
}

/** Where a node came from: shown beside the graph when the node is selected. Every string is memory text. */
export interface Provenance {
  readonly nodeId: string;
  readonly kind: MemoryNodeKind;
  /** "employer: Calico", a behaviour's text, a conversation's first words. */
  readonly title: string;
  /** confirmed, retired, approved, cooled, … */
  readonly status?: string;
  /** The statement behind a fact or retired node: the id its actions take. */
  readonly statementId?: string;
  /** The words it came from: a statement's source words, a behaviour's evidence, a conversation's summary. */
  readonly words?: string;
  /** What `words` are, as a heading. */
  readonly wordsLabel?: string;
  readonly turnId?: string;
  readonly sessionId?: string;
  /** Other facts about the record, as label/value pairs, in order. */
  readonly facts: readonly { readonly label: string; readonly value: string }[];
  /** The audit trail, oldest first (statements only). */
  readonly history: readonly ProvenanceEvent[];
  /** The actions that apply to it now. */
  readonly actions: readonly GraphAction[];
}

const originWords: Record<StatementRecord['origin'], string> = {
  chat: 'captured from your words in the chat',
  remember: 'typed by you in Remember…',
  import: 'imported from an Engram memory export',
  agent: 'proposed by another agent over MCP (not your words)',
  derived: 'read off the repository, with its citation',
  shared: "from the team's shared project facts file",
};

/**
 * The provenance of one node, read from the same source as the graph (so a forgotten fact has none: undefined).
 * `history` gives a statement's audit trail.
 */
export function provenanceOf(
  source: MemoryGraphSource,
  history: (statementId: string) => readonly StatementEvent[],
  id: string,
): Provenance | undefined {
  const parsed = parseNodeId(id);
  if (!parsed) return undefined;
  const confirmed = source.confirmed.filter((statement) => statement.status === 'confirmed');
  switch (parsed.kind) {
    case 'you': {
      const behaviors = source.behaviors.filter((behavior) => behavior.status === 'approved').length;
      return {
        nodeId: id,
        kind: 'you',
        title: 'You',
        facts: [
          { label: 'Confirmed facts', value: String(confirmed.length) },
          { label: 'Keys', value: String(new Set(confirmed.map((statement) => statement.key)).size) },
          { label: 'Approved behaviours', value: String(behaviors) },
          { label: 'Conversations', value: String(source.sessions.length) },
          { label: 'No longer believed', value: String(source.retired.filter((statement) => statement.status === 'retired').length) },
        ],
        history: [],
        actions: [],
      };
    }
    case 'project': {
      const facts = source.project ? confirmed.filter((statement) => statement.scope === source.project?.scope) : [];
      return {
        nodeId: id,
        kind: 'project',
        title: source.project ? `This project: ${source.project.label}` : 'This project',
        facts: [
          { label: 'Confirmed facts', value: String(facts.length) },
          { label: 'Scope', value: source.project?.scope ?? '' },
        ],
        history: [],
        actions: [],
      };
    }
    case 'key': {
      const values = confirmed.filter((statement) => statement.key === parsed.ref);
      if (values.length === 0) return undefined;
      return {
        nodeId: id,
        kind: 'key',
        title: parsed.ref ?? '',
        facts: [{ label: 'Confirmed values', value: values.map((statement) => statement.value).join(', ') }],
        history: [],
        actions: [],
      };
    }
    case 'fact':
    case 'retired': {
      const list = parsed.kind === 'fact' ? confirmed : source.retired.filter((statement) => statement.status === 'retired');
      const statement = list.find((candidate) => candidate.id === parsed.ref);
      if (!statement) return undefined;
      const events = history(statement.id);
      const facts = [
        { label: 'Origin', value: originWords[statement.origin] },
        { label: 'Tier', value: statement.tier },
        { label: 'First recorded', value: statement.createdAt },
        { label: 'Last changed', value: statement.updatedAt },
      ];
      if (parsed.kind === 'retired') facts.push({ label: 'Why retired', value: source.reasonOf(statement.id) ?? 'retired' });
      return {
        nodeId: id,
        kind: parsed.kind,
        title: `${statement.key}: ${statement.value}`,
        status: statement.status,
        statementId: statement.id,
        words: statement.sourceWords,
        wordsLabel: 'The exact words it came from',
        turnId: statement.sourceTurnId,
        sessionId: statement.sourceSessionId,
        facts,
        history: events.map((event) => ({ at: event.at, action: event.action, reason: event.reason, turnId: event.turnId })),
        // Forget and Edit apply to what is believed; the source of a retired statement can still be read.
        actions: parsed.kind === 'fact' ? ['forget', 'edit', 'showSource'] : ['showSource'],
      };
    }
    case 'behavior': {
      const behavior = source.behaviors.find((candidate) => candidate.id === parsed.ref && candidate.status === 'approved');
      if (!behavior) return undefined;
      return {
        nodeId: id,
        kind: 'behavior',
        title: behavior.text,
        status: behavior.status,
        words: behavior.evidence,
        wordsLabel: 'What taught it',
        turnId: behavior.evidenceTurnId,
        facts: [
          { label: 'Proposed', value: behavior.createdAt },
          { label: 'Last changed', value: behavior.updatedAt },
        ],
        history: [],
        actions: [],
      };
    }
    case 'session': {
      const session = source.sessions.find((candidate) => candidate.id === parsed.ref);
      if (!session) return undefined;
      const facts = [
        { label: 'Started', value: session.startedAt },
        { label: 'Last turn', value: session.lastAt },
        { label: 'Turns kept', value: String(session.turns) },
        { label: 'Facts learned in it', value: String(confirmed.filter((statement) => statement.sourceSessionId === session.id).length) },
      ];
      if (session.cooledAt) facts.push({ label: 'Cooled to its summary', value: session.cooledAt });
      return {
        nodeId: id,
        kind: 'session',
        title: session.opening.trim() || `Conversation ${session.id}`,
        status: session.cooledAt ? 'cooled' : 'kept',
        words: session.summary?.trim() ? session.summary : undefined,
        wordsLabel: 'Summary',
        sessionId: session.id,
        facts,
        history: [],
        actions: [],
      };
    }
    case 'retiredGroup': {
      const count = source.retired.filter((statement) => statement.status === 'retired').length;
      return {
        nodeId: id,
        kind: 'retiredGroup',
        title: 'No longer believed',
        facts: [{ label: 'Retired statements', value: String(count) }],
        history: [],
        actions: [],
      };
    }
  }
}
