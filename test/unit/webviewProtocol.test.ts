import assert from 'node:assert/strict';
import type { ContextReport } from '../../src/core/context/contextReport';
import { escapeHtml, isContextReport, isMessageToHost, isMessageToWebview, MAX_TURN_ID_LENGTH } from '../../webview/protocol';

const hostile = '<script>alert(1)</script></style><|endoftext|>"\'&';

function sampleReport(): ContextReport {
  return {
    turnId: 't2',
    sessionId: 's1',
    at: '2026-11-29T10:00:00Z',
    model: { id: 'llama3.2', name: 'Llama 3.2', vendor: 'engram-ollama' },
    window: 8192,
    budget: 6144,
    totalTokens: 1234,
    blocks: [
      { id: 'identity', layer: 'L0', title: 'Identity', state: 'included', tokens: 40, fullTokens: 40, why: 'always', text: hostile },
      { id: 'l1.sessions', layer: 'L1', title: 'Sessions', state: 'truncated', tokens: 10, fullTokens: 90, why: 'budget', text: 'x' },
      { id: 'tool.recall.1', layer: 'L2', title: 'Recall', state: 'absent', tokens: 0, fullTokens: 0, why: 'not called', text: '' },
    ],
    retrieval: [
      { kind: 'fact', memoryId: 'f1', via: 'prompt', label: 'editor: vim' },
      { kind: 'turn', memoryId: 'u9', via: 'tool:recall_conversation', label: hostile },
    ],
    health: { fill: 0.2, nextToGo: 'the oldest turns' },
  };
}

describe('webview protocol', () => {
  describe('isMessageToHost (the trust boundary)', () => {
    it('accepts exactly the three messages the page may send', () => {
      assert.ok(isMessageToHost({ type: 'ready' }));
      assert.ok(isMessageToHost({ type: 'compactNow' }));
      assert.ok(isMessageToHost({ type: 'selectTurn', turnId: 't1' }));
    });

    it('rejects non-objects, unknown types and inherited or missing type fields', () => {
      for (const value of [undefined, null, 'ready', 42, [], [{ type: 'ready' }], {}, { type: 'Ready' }, { type: 'report' }]) {
        assert.equal(isMessageToHost(value), false, JSON.stringify(value));
      }
      assert.equal(isMessageToHost(Object.create({ type: 'ready' })), false, 'a type on the prototype is not a field');
    });

    it('checks selectTurn.turnId: a string, not empty, not huge', () => {
      assert.equal(isMessageToHost({ type: 'selectTurn' }), false);
      assert.equal(isMessageToHost({ type: 'selectTurn', turnId: 7 }), false);
      assert.equal(isMessageToHost({ type: 'selectTurn', turnId: { toString: () => 't1' } }), false);
      assert.equal(isMessageToHost({ type: 'selectTurn', turnId: '' }), false);
      assert.equal(isMessageToHost({ type: 'selectTurn', turnId: 'x'.repeat(MAX_TURN_ID_LENGTH + 1) }), false);
      assert.ok(isMessageToHost({ type: 'selectTurn', turnId: 'x'.repeat(MAX_TURN_ID_LENGTH) }));
    });

    it('rejects extra fields, so nothing unexpected rides along', () => {
      assert.equal(isMessageToHost({ type: 'ready', extra: 1 }), false);
      assert.equal(isMessageToHost({ type: 'compactNow', turnId: 't1' }), false);
      assert.equal(isMessageToHost({ type: 'selectTurn', turnId: 't1', command: 'rm -rf' }), false);
    });
  });

  describe('isMessageToWebview', () => {
    it('accepts a full report, an empty one, and an error', () => {
      const turns = [{ turnId: 't2', at: '2026-11-29T10:00:00Z', sessionId: 's1', label: 'hello' }];
      assert.ok(isMessageToWebview({ type: 'report', report: sampleReport(), turns, selectedTurnId: 't2' }));
      assert.ok(isMessageToWebview({ type: 'report', report: undefined, turns: [] }));
      assert.ok(isMessageToWebview({ type: 'error', message: 'no store' }));
      const agentCall = { ...sampleReport(), retrieval: [{ kind: 'fact', memoryId: 'f1', via: 'mcp:claude-code:memory_search', label: 'employer = Calico' }] };
      assert.ok(isMessageToWebview({ type: 'report', report: agentCall, turns }), "another agent's call over MCP");
    });

    it('rejects malformed turns, errors and selections', () => {
      assert.equal(isMessageToWebview({ type: 'report', report: undefined }), false, 'turns is required');
      assert.equal(isMessageToWebview({ type: 'report', report: undefined, turns: [{ turnId: 't1' }] }), false);
      assert.equal(isMessageToWebview({ type: 'report', report: undefined, turns: [], selectedTurnId: 3 }), false);
      assert.equal(isMessageToWebview({ type: 'error' }), false);
      assert.equal(isMessageToWebview({ type: 'ready' }), false, 'a host-bound message is not a webview message');
    });

    it('checks every field of the report', () => {
      assert.ok(isContextReport(sampleReport()));
      const broken: [string, (report: Record<string, unknown>) => void][] = [
        ['missing model name', (r) => (r.model = { id: 'm', vendor: 'v' })],
        ['string window', (r) => (r.window = '8192')],
        ['negative budget', (r) => (r.budget = -1)],
        ['NaN total', (r) => (r.totalTokens = Number.NaN)],
        ['blocks not an array', (r) => (r.blocks = {})],
        ['unknown layer', (r) => (r.blocks = [{ ...sampleReport().blocks[0], layer: 'L3' }])],
        ['unknown state', (r) => (r.blocks = [{ ...sampleReport().blocks[0], state: 'hidden' }])],
        ['infinite tokens', (r) => (r.blocks = [{ ...sampleReport().blocks[0], tokens: Infinity }])],
        ['text not a string', (r) => (r.blocks = [{ ...sampleReport().blocks[0], text: null }])],
        ['unknown retrieval kind', (r) => (r.retrieval = [{ ...sampleReport().retrieval[0], kind: 'secret' }])],
        ['bad via', (r) => (r.retrieval = [{ ...sampleReport().retrieval[0], via: 'web' }])],
        ['missing health', (r) => delete r.health],
        ['fill not a number', (r) => (r.health = { fill: '20%', nextToGo: '' })],
      ];
      for (const [name, breakIt] of broken) {
        const report = { ...sampleReport() } as unknown as Record<string, unknown>;
        breakIt(report);
        assert.equal(isContextReport(report), false, name);
        assert.equal(isMessageToWebview({ type: 'report', report, turns: [] }), false, name);
      }
    });

    it('accepts hostile memory text as data (escaping is the renderer’s job, not the guard’s)', () => {
      const report = sampleReport();
      const junk = { ...report, blocks: [{ ...report.blocks[0], text: `${hostile}${'x'.repeat(1024 * 1024)}` }] };
      assert.ok(isContextReport(junk));
    });
  });

  describe('escapeHtml', () => {
    it('escapes the five HTML-significant characters', () => {
      assert.equal(escapeHtml(`<a href="x" title='y'>&</a>`), '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
    });

    it('neutralises script, style-closing and model control tokens', () => {
      const escaped = escapeHtml(hostile);
      assert.equal(escaped, '&lt;script&gt;alert(1)&lt;/script&gt;&lt;/style&gt;&lt;|endoftext|&gt;&quot;&#39;&amp;');
      assert.doesNotMatch(escaped, /[<>"']/);
    });

    it('escapes already-escaped text again instead of passing entities through', () => {
      assert.equal(escapeHtml('&lt;b&gt;'), '&amp;lt;b&amp;gt;');
    });

    it('leaves other text alone and escapes all of 1 MB', () => {
      assert.equal(escapeHtml(''), '');
      assert.equal(escapeHtml('plain text, ünïcode ✓ and `code`'), 'plain text, ünïcode ✓ and `code`');
      const big = '<x>'.repeat(350_000);
      const escaped = escapeHtml(big);
      assert.equal(escaped, '&lt;x&gt;'.repeat(350_000));
    });
  });
});
