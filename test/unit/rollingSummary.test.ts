import assert from 'node:assert/strict';
import { isUsableSummary, RollingSummaries } from '../../src/core/context/rollingSummary';
import { defaultAllowlist } from '../../src/core/memory/allowlist';
import { Facts } from '../../src/core/memory/facts';
import { openTestStore, tempFolder, wordCounter } from '../support/tempStore';

const sectioned = '## Goal\nFix the hang.\n## Decisions\nAwait the server.\n## Facts and context\n-\n## Open questions\n-';

describe('rolling summary', () => {
  let temp: ReturnType<typeof tempFolder>;
  beforeEach(() => (temp = tempFolder()));
  afterEach(() => temp.remove());

  it('folds the turns that left the recent window, records how far, and runs one roll per session at a time', async () => {
    const store = await openTestStore(temp.folder);
    for (let i = 1; i <= 10; i++) store.recordTurn({ sessionId: 's', role: i % 2 ? 'user' : 'assistant', text: `turn ${i}` });
    const summaries = new RollingSummaries(store, undefined);
    assert.equal(summaries.pending('s').length, 4, 'the last six stay out');
    let calls = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = async (): Promise<string> => {
      calls++;
      await gate;
      return sectioned;
    };
    const first = summaries.roll('s', slow);
    const second = summaries.roll('s', slow);
    assert.ok(summaries.isRolling('s'));
    release();
    assert.deepEqual(await Promise.all([first, second]), [true, true]);
    assert.equal(calls, 1, 'the second roll joined the first');
    assert.deepEqual(store.summaryOf('s'), { summary: sectioned, uptoSeq: 4 });
    assert.equal(summaries.pending('s').length, 0);
    await store.close();
  });

  it('keeps the old summary when the model returns something that is not one', async () => {
    const store = await openTestStore(temp.folder);
    for (let i = 1; i <= 8; i++) store.recordTurn({ sessionId: 's', role: 'user', text: `turn ${i}` });
    store.setSummary('s', sectioned, 1);
    const summaries = new RollingSummaries(store, undefined);
    await assert.rejects(summaries.roll('s', async () => 'Sure! Here you go.'), /old summary is kept/);
    assert.equal(store.summaryOf('s').summary, sectioned);
    assert.equal(isUsableSummary(sectioned), true);
    await store.close();
  });

  it('learns from the turns it folds before they leave the prompt, without reviving replaced values', async () => {
    const store = await openTestStore(temp.folder);
    const facts = new Facts(store, () => defaultAllowlist, wordCounter);
    const said = store.recordTurn({ sessionId: 's', role: 'user', text: 'I work at Northwind Labs' });
    facts.captureFromTurn(said);
    facts.captureFromTurn(store.recordTurn({ sessionId: 's', role: 'user', text: 'I work at Calico' }));
    store.recordTurn({ id: 'imported', sessionId: 's', role: 'user', text: 'I live in Lisbon', source: 'import' });
    for (let i = 0; i < 4; i++) store.recordTurn({ sessionId: 's', role: 'assistant', text: `ok ${i}` });
    await new RollingSummaries(store, facts).roll('s', async () => sectioned, { keep: 2, learnFirst: true });
    const confirmed = facts.list('confirmed').map((s) => `${s.key}=${s.value}`).sort();
    assert.deepEqual(confirmed, ['employer=Calico', 'location=Lisbon']);
    await store.close();
  });
});
