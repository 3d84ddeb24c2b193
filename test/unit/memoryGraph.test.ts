import assert from 'node:assert/strict';
import type { BehaviorRecord } from '../../src/core/memory/behaviors';
import {
  buildMemoryGraph,
  nodeId,
  parseNodeId,
  RETIRED_GROUP_ID,
  ROOT_ID,
  type MemoryGraph,
  type MemoryGraphSource,
} from '../../src/core/memory/memoryGraph';
import { provenanceOf } from '../../src/core/memory/memoryGraphProvenance';
import type { StatementEvent, StatementRecord } from '../../src/core/memory/statementRepository';
import type { SessionRecord } from '../../src/core/store/sessionRepository';
import { isGraphMessageToHost, isGraphMessageToWebview, isMemoryGraph, MAX_ID_LENGTH } from '../../webview/graphProtocol';

function statement(overrides: Partial<StatementRecord>): StatementRecord {
  return {
    id: 'id', key: 'name', value: 'Dana', cardinality: 'single', status: 'confirmed', tier: 'A', origin: 'chat',
    sourceTurnId: 't1', sourceSessionId: 's1', sourceWords: 'My name is Dana',
    createdAt: '2024-05-01T10:00:00.000Z', updatedAt: '2024-05-01T10:00:00.000Z', tokens: 3, scope: 'owner',
    ...overrides,
  };
}

function behavior(overrides: Partial<BehaviorRecord>): BehaviorRecord {
  return {
    id: 'b1', text: 'Use pnpm in examples', status: 'approved', evidence: 'I said pnpm, not npm', evidenceTurnId: 't9',
    createdAt: '2024-05-02T10:00:00.000Z', updatedAt: '2024-05-02T10:00:00.000Z', tokens: 5,
    ...overrides,
  };
}

function session(overrides: Partial<SessionRecord>): SessionRecord {
  return {
    id: 's1', source: 'vscode', startedAt: '2024-05-01T09:00:00.000Z', lastAt: '2024-05-01T10:00:00.000Z', turns: 4,
    opening: 'I work at Calico now', summary: 'Dana moved from Fernhill to Calico.',
    ...overrides,
  };
}

/** A small memory: two keys, one forgotten employer, one approved and one proposed behaviour, two sessions. */
function sample(overrides: Partial<MemoryGraphSource> = {}): MemoryGraphSource & { reasonCalls: string[] } {
  const reasonCalls: string[] = [];
  return {
    confirmed: [
      statement({ id: 'calico', key: 'employer', value: 'Calico', sourceWords: 'I work at Calico now', sourceTurnId: 't3', sourceSessionId: 's2', updatedAt: '2024-05-03T10:00:00.000Z' }),
      statement({ id: 'dana', key: 'name', value: 'Dana' }),
      statement({ id: 'ts', key: 'languages', value: 'TypeScript', cardinality: 'multi', updatedAt: '2024-05-02T10:00:00.000Z' }),
      statement({ id: 'rust', key: 'languages', value: 'Rust', cardinality: 'multi', updatedAt: '2024-05-04T10:00:00.000Z' }),
    ],
    retired: [statement({ id: 'fernhill', key: 'employer', value: 'Fernhill', status: 'retired', sourceWords: 'I work at Fernhill' })],
    behaviors: [behavior({}), behavior({ id: 'b2', text: 'Always answer in French', status: 'proposed' })],
    sessions: [session({}), session({ id: 's2', lastAt: '2024-05-03T10:00:00.000Z', opening: 'quick question about vitest', summary: undefined })],
    reasonOf: (id) => {
      reasonCalls.push(id);
      return id === 'fernhill' ? 'forgotten by the owner (Forget Fact)' : undefined;
    },
    reasonCalls,
    ...overrides,
  };
}

const ids = (graph: MemoryGraph): string[] => graph.nodes.map((node) => node.id);
const childrenOf = (graph: MemoryGraph, parent: string): string[] => graph.nodes.filter((node) => node.parent === parent).map((node) => node.id);

describe('memory graph', () => {
  it('opens on You: keys, approved behaviours, conversations and the retired group, nothing below them', () => {
    const source = sample();
    const graph = buildMemoryGraph(source, new Set());
    assert.equal(graph.rootId, ROOT_ID);
    const you = graph.nodes[0];
    assert.equal(you?.id, ROOT_ID);
    assert.equal(you?.kind, 'you');
    assert.equal(you?.expanded, true, 'You is always open');
    assert.deepEqual(childrenOf(graph, ROOT_ID), [
      nodeId.key('employer'), nodeId.key('languages'), nodeId.key('name'),
      nodeId.behavior('b1'),
      // Latest conversation first.
      nodeId.session('s2'), nodeId.session('s1'),
      RETIRED_GROUP_ID,
    ]);
    assert.ok(graph.nodes.every((node) => node.kind !== 'fact' && node.kind !== 'retired'), 'nothing below a closed node');
    assert.ok(graph.nodes.filter((node) => node.kind === 'key').every((node) => node.expandable && !node.expanded));
    assert.equal(graph.nodes.find((node) => node.id === nodeId.key('languages'))?.childCount, 2);
    assert.ok(!ids(graph).includes(nodeId.behavior('b2')), 'a proposed lesson is not a behaviour yet');
    assert.deepEqual(graph.counts, { facts: 4, keys: 3, behaviors: 1, sessions: 2, retired: 1 });
    assert.deepEqual(source.reasonCalls, [], 'retirement reasons are not read until asked for');
    const summary = graph.nodes.find((node) => node.id === nodeId.session('s1'));
    assert.equal(summary?.detail, 'Dana moved from Fernhill to Calico.', 'a conversation carries its summary');
    assert.deepEqual(graph.edges.filter((edge) => edge.kind === 'child').length, graph.nodes.length - 1, 'a tree: one edge per non-root node');
  });

  it('expanding a key shows its facts, newest first; other keys stay closed', () => {
    const graph = buildMemoryGraph(sample(), new Set([nodeId.key('languages')]));
    assert.deepEqual(childrenOf(graph, nodeId.key('languages')), [nodeId.fact('rust'), nodeId.fact('ts')]);
    assert.equal(graph.nodes.find((node) => node.id === nodeId.key('languages'))?.expanded, true);
    assert.deepEqual(childrenOf(graph, nodeId.key('employer')), []);
    const rust = graph.nodes.find((node) => node.id === nodeId.fact('rust'));
    assert.equal(rust?.kind, 'fact');
    assert.equal(rust?.label, 'Rust');
    assert.equal(rust?.expandable, false);
    // Parents come before their children: the page draws in one pass.
    const index = new Map(ids(graph).map((id, i) => [id, i]));
    for (const node of graph.nodes) if (node.parent) assert.ok((index.get(node.parent) ?? Infinity) < (index.get(node.id) ?? -1));
    assert.ok(graph.edges.some((edge) => edge.kind === 'child' && edge.from === nodeId.key('languages') && edge.to === nodeId.fact('rust')));
  });

  it('a forgotten (retired) fact is not under the confirmed facts, and is gone on the next read', () => {
    const before = sample();
    const open = new Set([nodeId.key('employer')]);
    assert.deepEqual(childrenOf(buildMemoryGraph(before, open), nodeId.key('employer')), [nodeId.fact('calico')]);

    // Forget Calico: the store now lists it as retired. Nothing else is kept between reads.
    const calico = before.confirmed.find((s) => s.id === 'calico');
    assert.ok(calico);
    const after = sample({
      confirmed: before.confirmed.filter((s) => s.id !== 'calico'),
      retired: [...before.retired, { ...calico, status: 'retired', updatedAt: '2024-05-05T10:00:00.000Z' }],
    });
    const graph = buildMemoryGraph(after, open);
    assert.ok(!ids(graph).includes(nodeId.fact('calico')));
    assert.ok(!ids(graph).includes(nodeId.key('employer')), 'a key with no confirmed fact left is gone too');
    assert.equal(graph.counts.retired, 2);

    // Even a list that disagrees with itself never shows a non-confirmed statement as a fact.
    const confused = buildMemoryGraph(
      sample({ confirmed: [statement({ id: 'x', key: 'editor', value: 'Helix', status: 'retired' }), statement({ id: 'y', key: 'editor', value: 'Zed', status: 'proposed' })] }),
      new Set([nodeId.key('editor')]),
    );
    assert.ok(confused.nodes.every((node) => node.kind !== 'fact' && node.id !== nodeId.key('editor')));
  });

  it('shows retired statements only on demand, greyed, with the reason', () => {
    const closed = sample();
    const closedGraph = buildMemoryGraph(closed, new Set());
    const group = closedGraph.nodes.find((node) => node.id === RETIRED_GROUP_ID);
    assert.equal(group?.kind, 'retiredGroup');
    assert.equal(group?.expandable, true);
    assert.equal(group?.expanded, false);
    assert.equal(group?.muted, true);
    assert.ok(closedGraph.nodes.every((node) => node.kind !== 'retired'));

    const open = sample();
    const graph = buildMemoryGraph(open, new Set([RETIRED_GROUP_ID]));
    const retired = graph.nodes.filter((node) => node.kind === 'retired');
    assert.deepEqual(retired.map((node) => node.id), [nodeId.retired('fernhill')]);
    assert.equal(retired[0]?.parent, RETIRED_GROUP_ID);
    assert.equal(retired[0]?.label, 'employer: Fernhill');
    assert.equal(retired[0]?.detail, 'forgotten by the owner (Forget Fact)');
    assert.equal(retired[0]?.muted, true);
    assert.deepEqual(open.reasonCalls, ['fernhill']);

    const none = buildMemoryGraph(sample({ retired: [] }), new Set([RETIRED_GROUP_ID]));
    assert.ok(!ids(none).includes(RETIRED_GROUP_ID), 'no group when nothing was retired');
  });

  it('joins a shown fact to the conversation it was said in', () => {
    const graph = buildMemoryGraph(sample(), new Set([nodeId.key('employer'), RETIRED_GROUP_ID]));
    const sources = graph.edges.filter((edge) => edge.kind === 'source');
    assert.deepEqual(sources, [
      { from: nodeId.session('s2'), to: nodeId.fact('calico'), kind: 'source' },
      { from: nodeId.session('s1'), to: nodeId.retired('fernhill'), kind: 'source' },
    ]);
  });

  it('builds 500 facts and 200 conversations, all open, with every node accounted for', () => {
    const confirmed: StatementRecord[] = [];
    for (let i = 0; i < 500; i++) {
      confirmed.push(statement({ id: `f${i}`, key: `key${i % 25}`, value: `value ${i}`, cardinality: 'multi', sourceSessionId: `s${i % 200}`, updatedAt: new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString() }));
    }
    const sessions = Array.from({ length: 200 }, (_, i) => session({ id: `s${i}`, lastAt: new Date(Date.UTC(2024, 1, 1, i)).toISOString() }));
    const retired = Array.from({ length: 30 }, (_, i) => statement({ id: `r${i}`, key: 'employer', value: `Old ${i}`, status: 'retired' }));
    const behaviors = Array.from({ length: 10 }, (_, i) => behavior({ id: `b${i}` }));
    const source = sample({ confirmed, sessions, retired, behaviors, reasonOf: () => 'replaced' });

    const closed = buildMemoryGraph(source, new Set());
    assert.equal(closed.nodes.length, 1 + 25 + 10 + 200 + 1);

    const everything = new Set([...Array.from({ length: 25 }, (_, i) => nodeId.key(`key${i}`)), RETIRED_GROUP_ID]);
    const graph = buildMemoryGraph(source, everything);
    assert.equal(graph.nodes.length, 1 + 25 + 500 + 10 + 200 + 1 + 30);
    assert.equal(graph.nodes.filter((node) => node.kind === 'fact').length, 500);
    assert.equal(graph.nodes.filter((node) => node.kind === 'session').length, 200);
    assert.equal(graph.edges.filter((edge) => edge.kind === 'child').length, graph.nodes.length - 1);
    assert.equal(graph.edges.filter((edge) => edge.kind === 'source').length, 500 + 30, 'each fact and retired statement to its conversation');
    assert.deepEqual(graph.counts, { facts: 500, keys: 25, behaviors: 10, sessions: 200, retired: 30 });
    assert.equal(new Set(ids(graph)).size, graph.nodes.length, 'ids are unique');
    assert.ok(isMemoryGraph(graph), 'the page accepts it');
  });

  it('names nodes by kind and record, and reads the names back', () => {
    assert.deepEqual(parseNodeId(ROOT_ID), { kind: 'you' });
    assert.deepEqual(parseNodeId(RETIRED_GROUP_ID), { kind: 'retiredGroup' });
    assert.deepEqual(parseNodeId(nodeId.fact('a:b')), { kind: 'fact', ref: 'a:b' });
    assert.deepEqual(parseNodeId(nodeId.key('employer')), { kind: 'key', ref: 'employer' });
    for (const bad of ['', 'fact:', ':x', 'nope:x', 'fact']) assert.equal(parseNodeId(bad), undefined, bad);
  });

  describe('provenance', () => {
    const events: StatementEvent[] = [
      { id: 'e1', statementId: 'calico', at: '2024-05-03T10:00:00.000Z', action: 'proposed', statusAfter: 'proposed', reason: 'captured from your words (tier A)', turnId: 't3' },
      { id: 'e2', statementId: 'calico', at: '2024-05-03T10:00:01.000Z', action: 'confirmed', statusAfter: 'confirmed', reason: 'learned: a plain self-statement', turnId: 't3' },
    ];
    const history = (id: string): StatementEvent[] => (id === 'calico' ? events : []);

    it('gives a fact its words, turn, conversation, audit reasons and the tree actions', () => {
      const provenance = provenanceOf(sample(), history, nodeId.fact('calico'));
      assert.equal(provenance?.title, 'employer: Calico');
      assert.equal(provenance?.words, 'I work at Calico now');
      assert.equal(provenance?.turnId, 't3');
      assert.equal(provenance?.sessionId, 's2');
      assert.equal(provenance?.statementId, 'calico');
      assert.deepEqual(provenance?.history.map((event) => event.reason), ['captured from your words (tier A)', 'learned: a plain self-statement']);
      assert.deepEqual(provenance?.actions, ['forget', 'edit', 'showSource']);
    });

    it('offers only the source for a retired statement, and says why it was retired', () => {
      const provenance = provenanceOf(sample(), history, nodeId.retired('fernhill'));
      assert.deepEqual(provenance?.actions, ['showSource']);
      assert.ok(provenance?.facts.some((fact) => fact.label === 'Why retired' && fact.value === 'forgotten by the owner (Forget Fact)'));
    });

    it('has nothing for a node that is gone, or a fact id that is really retired', () => {
      assert.equal(provenanceOf(sample(), history, nodeId.fact('nobody')), undefined);
      assert.equal(provenanceOf(sample(), history, nodeId.fact('fernhill')), undefined);
      assert.equal(provenanceOf(sample(), history, nodeId.behavior('b2')), undefined, 'a proposed lesson is not in the graph');
      assert.equal(provenanceOf(sample(), history, 'bogus'), undefined);
    });

    it('shows a conversation with its summary and a behaviour with its evidence', () => {
      const conversation = provenanceOf(sample(), history, nodeId.session('s1'));
      assert.equal(conversation?.words, 'Dana moved from Fernhill to Calico.');
      assert.deepEqual(conversation?.actions, []);
      const lesson = provenanceOf(sample(), history, nodeId.behavior('b1'));
      assert.equal(lesson?.words, 'I said pnpm, not npm');
      assert.equal(lesson?.turnId, 't9');
    });
  });

  describe('protocol guards (the trust boundary)', () => {
    it('accepts exactly the messages the page may send', () => {
      assert.ok(isGraphMessageToHost({ type: 'ready' }));
      assert.ok(isGraphMessageToHost({ type: 'expand', nodeId: 'key:employer' }));
      assert.ok(isGraphMessageToHost({ type: 'collapse', nodeId: 'retired' }));
      assert.ok(isGraphMessageToHost({ type: 'select', nodeId: 'fact:x' }));
      assert.ok(isGraphMessageToHost({ type: 'action', action: 'forget', statementId: 'x' }));
      assert.ok(isGraphMessageToHost({ type: 'rendered', nodes: 737, ms: 41.5 }));
    });

    it('rejects unknown types, extra fields, wrong types and odd values', () => {
      for (const value of [
        undefined, null, 'ready', [], {}, { type: 'Ready' }, Object.create({ type: 'ready' }),
        { type: 'ready', extra: 1 },
        { type: 'expand' }, { type: 'expand', nodeId: '' }, { type: 'expand', nodeId: 7 }, { type: 'expand', nodeId: 'x'.repeat(MAX_ID_LENGTH + 1) },
        { type: 'action', action: 'rm', statementId: 'x' }, { type: 'action', action: 'forget' }, { type: 'action', action: 'forget', statementId: 'x', command: 'y' },
        { type: 'rendered', nodes: -1, ms: 1 }, { type: 'rendered', nodes: 1.5, ms: 1 }, { type: 'rendered', nodes: 1, ms: Number.NaN }, { type: 'rendered', nodes: 1 },
      ]) {
        assert.equal(isGraphMessageToHost(value), false, JSON.stringify(value));
      }
    });

    it('lets hostile memory text through as data, and drops a malformed graph', () => {
      const hostile = '<img src=x onerror=alert(1)></style><script>';
      const graph = buildMemoryGraph(sample({ confirmed: [statement({ id: 'h', key: 'name', value: hostile })] }), new Set([nodeId.key('name')]));
      assert.ok(isGraphMessageToWebview({ type: 'graph', graph }));
      assert.equal(graph.nodes.find((node) => node.id === nodeId.fact('h'))?.label, hostile);
      const orphan = { ...graph, nodes: [...graph.nodes, { id: 'fact:z', kind: 'fact', label: 'z', parent: 'key:nowhere', expandable: false, expanded: false }] };
      assert.equal(isGraphMessageToWebview({ type: 'graph', graph: orphan }), false, 'a node whose parent is not shown first');
      const badKind = { ...graph, nodes: graph.nodes.map((node) => ({ ...node, kind: 'script' })) };
      assert.equal(isGraphMessageToWebview({ type: 'graph', graph: badKind }), false);
      assert.equal(isGraphMessageToWebview({ type: 'provenance', nodeId: 'x', provenance: undefined }), true);
      const provenance = provenanceOf(sample(), () => [], nodeId.fact('calico'));
      assert.ok(isGraphMessageToWebview({ type: 'provenance', nodeId: nodeId.fact('calico'), provenance }));
      assert.equal(isGraphMessageToWebview({ type: 'provenance', nodeId: 'x', provenance: { ...provenance, statementId: undefined } }), false, 'actions need a statement');
    });
  });
});

describe('the memory graph with a project', () => {
  const owner = statement({ id: 'f-owner', key: 'editor', value: 'Helix' });
  const here = statement({ id: 'f-here', key: 'test_framework', value: 'vitest', scope: 'project:github.com/acme/api' });
  const elsewhere = statement({ id: 'f-elsewhere', key: 'test_framework', value: 'jest', scope: 'project:github.com/acme/web' });
  const source = (project?: MemoryGraphSource['project']): MemoryGraphSource => ({
    confirmed: [owner, here, elsewhere],
    retired: [],
    behaviors: [],
    sessions: [],
    reasonOf: () => undefined,
    project,
  });

  it('shows "This project" beside the owner\'s keys, with this project\'s facts only, and none of them under You', () => {
    const graph = buildMemoryGraph(source({ scope: 'project:github.com/acme/api', label: 'api' }), new Set(['project', nodeId.key('editor'), nodeId.key('test_framework')]));
    const project = graph.nodes.find((node) => node.id === 'project');
    assert.equal(project?.label, 'This project: api');
    assert.equal(project?.parent, ROOT_ID);
    assert.deepEqual(graph.nodes.filter((node) => node.parent === 'project').map((node) => node.label), ['test_framework: vitest']);
    assert.ok(!graph.nodes.some((node) => node.id === nodeId.key('test_framework')), 'a project fact is not an owner key');
    assert.ok(!graph.nodes.some((node) => node.label.includes('jest')), 'another project is never shown');
    assert.ok(isMemoryGraph(graph), 'the page accepts the graph');
    assert.equal(provenanceOf(source({ scope: 'project:github.com/acme/api', label: 'api' }), () => [], 'project')?.title, 'This project: api');
  });

  it('without a project, project facts stay out of the graph', () => {
    const graph = buildMemoryGraph(source(), new Set([nodeId.key('test_framework')]));
    assert.ok(!graph.nodes.some((node) => node.kind === 'project' || node.label.includes('vitest') || node.label.includes('jest')));
  });
});
