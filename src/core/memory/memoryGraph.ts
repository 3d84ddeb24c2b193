import type { SessionRecord } from '../store/sessionRepository';
import type { BehaviorRecord } from './behaviors';
import type { StatementRecord } from './statementRepository';

/**
 * The memory graph is a view, not a store: it is computed on every read from the confirmed facts, the approved
 * behaviours, the sessions and their summaries, and (on demand) the retired statements. Nothing here is kept,
 * and nothing is extracted: forget a fact and its node is gone on the next read.
 *
 * The shape is a tree rooted at "You", expanded by the owner one node at a time; sources (which session a fact
 * came from) are extra edges between nodes that are both shown.
 */

export type MemoryNodeKind = 'you' | 'key' | 'fact' | 'behavior' | 'session' | 'retiredGroup' | 'retired' | 'project';

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
  /** The project of the window's workspace, if any: its confirmed facts (in `confirmed`, by scope) hang under it. */
  readonly project?: { readonly scope: string; readonly label: string };
}

export const ROOT_ID = 'you';
export const RETIRED_GROUP_ID = 'retired';
export const PROJECT_ID = 'project';

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
  if (id === PROJECT_ID) return { kind: 'project' };
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
  const all = source.confirmed.filter((statement) => statement.status === 'confirmed');
  // The owner's facts hang under You by key; this project's under "This project"; another project's nowhere.
  const confirmed = all.filter((statement) => (statement.scope ?? 'owner') === 'owner');
  const projectFacts = source.project ? all.filter((statement) => statement.scope === source.project?.scope) : [];
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
    childCount: byKey.length + behaviors.length + sessions.length + (retiredGroupShown ? 1 : 0) + (source.project ? 1 : 0),
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

  // After the owner's own keys: You first, then the project the owner is working in.
  if (source.project) {
    const open = expanded.has(PROJECT_ID);
    add({
      id: PROJECT_ID,
      kind: 'project',
      label: clip(`This project: ${source.project.label}`, LABEL_CHARS),
      detail: projectFacts.length === 1 ? '1 confirmed fact about this repository' : `${projectFacts.length} confirmed facts about this repository`,
      parent: ROOT_ID,
      expandable: projectFacts.length > 0,
      expanded: open,
      childCount: projectFacts.length,
    });
    if (open) {
      for (const statement of projectFacts) {
        add({
          id: nodeId.fact(statement.id),
          kind: 'fact',
          label: clip(`${statement.key}: ${statement.value}`, LABEL_CHARS),
          detail: `tier ${statement.tier} · ${statement.updatedAt.slice(0, 10)}`,
          parent: PROJECT_ID,
          expandable: false,
          expanded: false,
        });
      }
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
/** Text cut to `max` characters on one line, with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, Math.max(0, max - 1))}…`;
}
