import assert from 'node:assert/strict';
import { assemblePrompt, truncateToTokens } from '../../src/core/context/assemble';
import type { StatementRecord } from '../../src/core/memory/statementRepository';
import type { TurnRecord } from '../../src/core/store/turnRepository';
import { wordCounter } from '../support/tempStore';

function turn(seq: number, text: string): TurnRecord {
  return { id: `t${seq}`, sessionId: 's', seq, role: seq % 2 ? 'user' : 'assistant', text, at: '2026-01-01T00:00:00Z', tokens: wordCounter.count(text) };
}

function fact(key: string, value: string): StatementRecord {
  return {
    id: `${key}-${value}`, key, value, cardinality: 'single', status: 'confirmed', tier: 'A', origin: 'chat', sourceWords: '',
    createdAt: '', updatedAt: '', tokens: 2, scope: 'owner',
  };
}

const base = {
  identity: 'You are Engram.',
  capabilities: 'Tools: memory_search, recall_conversation.',
  profile: [] as StatementRecord[],
  recent: [] as TurnRecord[],
  prompt: 'what next?',
  elsewhere: { otherSessions: 0, otherTurns: 0, olderTurnsHere: 0 },
  budget: 200,
  tokens: wordCounter,
};

describe('prompt assembly (layers under a budget)', () => {
  it('trims history by whole exchanges, and names the turns left out and the tool that reaches them', () => {
    const recent = Array.from({ length: 30 }, (_, i) => turn(i + 1, `turn ${i + 1} ${'word '.repeat(8)}`));
    for (let budget = 100; budget <= 200; budget += 7) {
      const { history, blocks, system } = assemblePrompt({ ...base, recent, budget, summary: { sessionId: 's', text: 'Goal: ship it.' } });
      assert.equal(history[0]?.role, 'user', `budget ${budget}: the history opens on a user turn`);
      const out = 30 - history.length;
      const line = blocks.find((b) => b.id === 'l1.here');
      assert.equal(line?.state, 'included');
      assert.equal(line?.text, `${out} earlier turns of this conversation are not in this prompt (the summary above covers the oldest): call recall_conversation to search them.`);
      assert.ok(system.includes(line?.text ?? '?'), 'the line is in the system text');
      const total = blocks.reduce((sum, b) => sum + b.tokens, 0);
      assert.ok(total <= budget, `budget ${budget}: ${total} tokens`);
    }
    const whole = assemblePrompt({ ...base, recent: recent.slice(0, 2), budget: 400 });
    assert.equal(whole.blocks.find((b) => b.id === 'l1.here')?.state, 'absent');
  });

  it('fills the recent conversation newest first to the budget, not a fixed tail', () => {
    const recent = Array.from({ length: 30 }, (_, i) => turn(i + 1, `turn ${i + 1} ${'word '.repeat(8)}`));
    const small = assemblePrompt({ ...base, recent, budget: 120 });
    const large = assemblePrompt({ ...base, recent, budget: 400 });
    assert.ok(large.history.length > small.history.length);
    assert.match(small.history.at(-1)?.text ?? '', /^turn 30 /, 'the newest turn is kept');
    const block = small.blocks.find((b) => b.id === 'conversation');
    assert.equal(block?.state, 'truncated');
    assert.match(block?.why ?? '', /older turns left out/);
    const total = small.blocks.filter((b) => b.layer !== 'L2').reduce((sum, b) => sum + b.tokens, 0);
    assert.ok(total <= 120, `assembled ${total} tokens within a 120 budget`);
  });

  it('cuts an oversized message with a visible marker instead of dropping it', () => {
    const huge = turn(1, 'x '.repeat(5000));
    const assembled = assemblePrompt({ ...base, recent: [huge], budget: 300 });
    assert.equal(assembled.history.length, 1);
    assert.match(assembled.history[0].text, /tokens of this message not shown\]$/);
    assert.match(assembled.blocks.find((b) => b.id === 'conversation')?.why ?? '', /cut with a marker/);
    const cut = truncateToTokens('a '.repeat(100), 10, wordCounter);
    assert.ok(cut.cut && cut.tokens <= 10 + 8);
  });

  it('puts confirmed facts in the profile up to its share, and says how many more exist (L1)', () => {
    const profile = Array.from({ length: 40 }, (_, i) => fact(`k${i}`, `v${i}`));
    const assembled = assemblePrompt({ ...base, profile, budget: 200 });
    const block = assembled.blocks.find((b) => b.id === 'profile');
    assert.equal(block?.state, 'truncated');
    const more = assembled.blocks.find((b) => b.id === 'l1.facts');
    assert.equal(more?.state, 'included');
    assert.match(more?.text ?? '', /more confirmed facts .* memory_search/);
    assert.ok(assembled.retrieval.every((entry) => entry.via === 'prompt'));
    assert.ok(assembled.system.includes('- k0: v0'));
  });

  it('names every absent L0 block and why, and an L1 line only for memory that exists', () => {
    const alone = assemblePrompt(base);
    assert.equal(alone.blocks.find((b) => b.id === 'l1.sessions')?.state, 'absent');
    assert.equal(alone.blocks.find((b) => b.id === 'behaviours')?.state, 'absent');
    assert.match(alone.blocks.find((b) => b.id === 'summary')?.why ?? '', /no summary/);
    const withOthers = assemblePrompt({ ...base, elsewhere: { otherSessions: 3, otherTurns: 40, olderTurnsHere: 0 }, summary: { sessionId: 's', text: 'Goals: fix the hang.' } });
    assert.match(withOthers.blocks.find((b) => b.id === 'l1.sessions')?.text ?? '', /3 earlier conversations \(40 turns\)/);
    assert.equal(withOthers.blocks.find((b) => b.id === 'summary')?.state, 'included');
    assert.ok(withOthers.system.includes('Goals: fix the hang.'));
  });
});
