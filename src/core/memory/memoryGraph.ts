import type { SessionRecord } from '../store/sessionRepository';
import type { BehaviorRecord } from './behaviors';
import type { StatementEvent, StatementRecord } from './statementRepository';

/**
 * The memory graph is a view, not a store: it is computed on every read from the confirmed facts, the approved
 * behaviours, the sessions and their summaries, and (on demand) the retired statements. Nothing here is kept,
 * and nothing is extracted: forget a fact and its node is gone on the next read.
 *
 * The shape is a tree rooted at "You", expanded by the owner one node at a time; sources (which session a fact
 * came from) are extra edges between nodes that are both shown.
 */

export type MemoryNodeKind = 'you' | 'key' | 'fact' | 'behavior' | 'session' | 'retiredGroup' | 'retired';

export interface MemoryNode {
  /** Unique in the graph and stable across reads: "you", "key:employer", "fact:<statement id>", … (see nodeId). */
  readonly id: string;
  readonly kind: MemoryNodeKind;
  /** One short line to show (memory text: untrusted, shown as text only). */
  readonly label: string;
  /** A second line: tier and date, a summary, a retirement reason. */
  readonly detail?: string;
  /** The node it hangs under; undefined only for "you". */
  readonly parent?: string;
  /** Has children to show (a key's facts, the retired statements). */
  readonly expandable: boolean;
  /** Its children are in the graph. */
  readonly expanded: boolean;
  /** Shown greyed: no longer believed. */
  readonly muted?: boolean;
  /** How many children it has, shown or not (keys, the retired group, You). */
  readonly childCount?: number;
}

export interface MemoryEdge {
  readonly from: string;
  readonly to: string;
  /** child: the tree; source: the session a (shown) fact or retired statement came from. */
  readonly kind: 'child' | 'source';
}

export interface MemoryGraph {
  readonly rootId: string;
  /** Depth-first, parents before their children, siblings in display order. */
  readonly nodes: readonly MemoryNode[];
  readonly edges: readonly MemoryEdge[];
  /** Totals in memory, shown or not. */
  readonly counts: { readonly facts: number; readonly keys: number; readonly behaviors: number; readonly sessions: number; readonly retired: number };
}

export interface MemoryGraphSource {
  /** Confirmed statements; anything else in the list is ignored. */
  readonly confirmed: readonly StatementRecord[];
  /** Retired statements (forgotten, replaced, undone); anything else in the list is ignored. */
  readonly retired: readonly StatementRecord[];
  /** Behaviours; only approved ones are shown. */
  readonly behaviors: readonly BehaviorRecord[];
  readonly sessions: readonly SessionRecord[];
  /** Why a statement was retired (its last audit reason); read only for the retired statements shown. */
  reasonOf(statementId: string): string | undefined;
}

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

export const ROOT_ID = 'you';
export const RETIRED_GROUP_ID = 'retired';

/** Node ids: the kind's prefix and the record's id (a key's name for key nodes). */
export const nodeId = {
  key: (key: string): string => `key:${key}`,
  fact: (statementId: string): string => `fact:${statementId}`,
  behavior: (behaviorId: string): string => `behavior:${behaviorId}`,
  session: (sessionId: string): string => `session:${sessionId}`,
  retired: (statementId: string): string => `retired:${statementId}`,
};

/** What a node id points at: its kind and the record's id (statement, behaviour, session id, or key). */
export function parseNodeId(id: string): { kind: MemoryNodeKind; ref?: string } | undefined {
  if (id === ROOT_ID) return { kind: 'you' };
  if (id === RETIRED_GROUP_ID) return { kind: 'retiredGroup' };
  const colon = id.indexOf(':');
  if (colon <= 0 || colon === id.length - 1) return undefined;
  const prefix = id.slice(0, colon);
  const ref = id.slice(colon + 1);
  switch (prefix) {
    case 'key':
    case 'fact':
    case 'behavior':
    case 'session':
    case 'retired':
      return { kind: prefix, ref };
    default:
      return undefined;
  }
}

/** Longest label; the full text is in the node's provenance. */
const LABEL_CHARS = 80;
const DETAIL_CHARS = 240;

export function buildMemoryGraph(source: MemoryGraphSource, expanded: ReadonlySet<string>): MemoryGraph {
  const confirmed = source.confirmed.filter((statement) => statement.status === 'confirmed');
  const confirmedIds = new Set(confirmed.map((statement) => statement.id));
  // A statement is in one state at a time; a list that disagrees with itself never shows a fact twice.
  const retired = source.retired
    .filter((statement) => statement.status === 'retired' && !confirmedIds.has(statement.id))
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.id.localeCompare(b.id));
  const behaviors = source.behaviors
    .filter((behavior) => behavior.status === 'approved')
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.id.localeCompare(b.id));
  const sessions = [...source.sessions].sort((a, b) => b.lastAt.localeCompare(a.lastAt) || a.id.localeCompare(b.id));
  const byKey = groupByKey(confirmed);

  const nodes: MemoryNode[] = [];
  const edges: MemoryEdge[] = [];
  const add = (node: MemoryNode): void => {
    nodes.push(node);
    if (node.parent !== undefined) edges.push({ from: node.parent, to: node.id, kind: 'child' });
  };

  const retiredGroupShown = retired.length > 0;
  add({
    id: ROOT_ID,
    kind: 'you',
    label: 'You',
    detail: youDetail(confirmed.length, behaviors.length, sessions.length),
    expandable: true,
    expanded: true,
    childCount: byKey.length + behaviors.length + sessions.length + (retiredGroupShown ? 1 : 0),
  });

  for (const [key, statements] of byKey) {
    const id = nodeId.key(key);
    const open = expanded.has(id);
    add({
      id,
      kind: 'key',
      label: clip(key, LABEL_CHARS),
      detail: statements.length === 1 ? '1 confirmed fact' : `${statements.length} confirmed facts`,
      parent: ROOT_ID,
      expandable: true,
      expanded: open,
      childCount: statements.length,
    });
    if (!open) continue;
    for (const statement of statements) {
      add({
        id: nodeId.fact(statement.id),
        kind: 'fact',
        label: clip(statement.value, LABEL_CHARS),
        detail: `tier ${statement.tier} · ${statement.updatedAt.slice(0, 10)}`,
        parent: id,
        expandable: false,
        expanded: false,
      });
    }
  }

  for (const behavior of behaviors) {
    add({
      id: nodeId.behavior(behavior.id),
      kind: 'behavior',
      label: clip(behavior.text, LABEL_CHARS),
      detail: behavior.evidence ? clip(behavior.evidence, DETAIL_CHARS) : undefined,
      parent: ROOT_ID,
      expandable: false,
      expanded: false,
    });
  }

  for (const session of sessions) {
    add({
      id: nodeId.session(session.id),
      kind: 'session',
      label: sessionLabel(session),
      detail: session.summary?.trim() ? clip(session.summary, DETAIL_CHARS) : undefined,
      parent: ROOT_ID,
      expandable: false,
      expanded: false,
    });
  }

  if (retiredGroupShown) {
    const open = expanded.has(RETIRED_GROUP_ID);
    add({
      id: RETIRED_GROUP_ID,
      kind: 'retiredGroup',
      label: 'No longer believed',
      detail: retired.length === 1 ? '1 retired statement' : `${retired.length} retired statements`,
      parent: ROOT_ID,
      expandable: true,
      expanded: open,
      muted: true,
      childCount: retired.length,
    });
    if (open) {
      for (const statement of retired) {
        const reason = source.reasonOf(statement.id);
        add({
          id: nodeId.retired(statement.id),
          kind: 'retired',
          label: clip(`${statement.key}: ${statement.value}`, LABEL_CHARS),
          detail: reason ? clip(reason, DETAIL_CHARS) : 'retired',
          parent: RETIRED_GROUP_ID,
          expandable: false,
          expanded: false,
          muted: true,
        });
      }
    }
  }

  // Source edges join what is on screen only: a fact and the conversation it was said in.
  const shownSessions = new Set(sessions.map((session) => nodeId.session(session.id)));
  const statementsById = new Map([...confirmed, ...retired].map((statement) => [statement.id, statement] as const));
  for (const node of nodes) {
    if (node.kind !== 'fact' && node.kind !== 'retired') continue;
    const ref = parseNodeId(node.id)?.ref;
    const sessionId = ref === undefined ? undefined : statementsById.get(ref)?.sourceSessionId;
    if (sessionId !== undefined && shownSessions.has(nodeId.session(sessionId))) {
      edges.push({ from: nodeId.session(sessionId), to: node.id, kind: 'source' });
    }
  }

  return {
    rootId: ROOT_ID,
    nodes,
    edges,
    counts: { facts: confirmed.length, keys: byKey.length, behaviors: behaviors.length, sessions: sessions.length, retired: retired.length },
  };
}

/** Confirmed statements by key: keys alphabetical, newest value first (as in the Memory view). */
function groupByKey(statements: readonly StatementRecord[]): [string, StatementRecord[]][] {
  const byKey = new Map<string, StatementRecord[]>();
  for (const statement of statements) {
    const group = byKey.get(statement.key);
    if (group) group.push(statement);
    else byKey.set(statement.key, [statement]);
  }
  return [...byKey.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, group]) => [key, group.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.id.localeCompare(b.id))]);
}

function youDetail(facts: number, behaviors: number, sessions: number): string {
  const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
  return [plural(facts, 'confirmed fact', 'confirmed facts'), plural(behaviors, 'behaviour', 'behaviours'), plural(sessions, 'conversation', 'conversations')].join(' · ');
}

/** "2024-05-01 · how do I migrate…": the day and the first words, to recognise a conversation. */
function sessionLabel(session: SessionRecord): string {
  const day = session.lastAt.slice(0, 10);
  const opening = session.opening.trim() || (session.cooledAt ? '(cooled to its summary)' : `(conversation ${session.id.slice(0, 8)})`);
  return clip(`${day} · ${opening}`, LABEL_CHARS);
}

/** One line, at most `max` characters. */
function clip(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, Math.max(0, max - 1))}…`;
}

const originWords: Record<StatementRecord['origin'], string> = {
  chat: 'captured from your words in the chat',
  remember: 'typed by you in Remember…',
  import: 'imported from an Engram memory export',
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
