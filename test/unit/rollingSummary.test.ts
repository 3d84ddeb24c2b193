import assert from 'node:assert/strict';
import { isExtractive } from '../../src/core/context/assemble';
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

  it('keeps the old summary and, marked as extractive, the first lines of the turns when the model returns something that is not one', async () => {
    const store = await openTestStore(temp.folder);
    for (let i = 1; i <= 9; i++) store.recordTurn({ sessionId: 's', role: 'user', text: `turn ${i} first line\nsecond line of turn ${i}` });
    store.setSummary('s', sectioned, 1);
    const summaries = new RollingSummaries(store, undefined, wordCounter);
    assert.equal(await summaries.roll('s', async () => 'Sure! Here you go.'), true, 'the roll made progress all the same');
    const { summary, uptoSeq } = store.summaryOf('s');
    assert.ok(summary?.startsWith(sectioned), 'the old summary is kept');
    assert.ok(summary && isExtractive(summary), summary);
    assert.match(summary ?? '', /- user: turn 2 first line\n- user: turn 3 first line/);
    assert.doesNotMatch(summary ?? '', /second line/, 'first lines only');
    assert.equal(uptoSeq, 3, 'the pending turns are folded (the six newest stay out)');
    assert.equal(summaries.status('s')?.state, 'extractive');
    assert.match(summaries.describe('s') ?? '', /failed at \d\d:\d\d \(its answer did not have the sections\).*first lines of 2 turns.*asked again at the next roll/);
    assert.equal(isUsableSummary(sectioned), true);
    await store.close();
  });

  it('builds every request to its budget, folding oldest first in chunks; a turn longer than a chunk is cut by whole lines', async () => {
    const store = await openTestStore(temp.folder);
    const long = Array.from({ length: 400 }, (_, line) => `line ${line} of a long paste with some words`).join('\n');
    store.recordTurn({ sessionId: 's', role: 'user', text: long });
    for (let i = 2; i <= 40; i++) store.recordTurn({ sessionId: 's', role: i % 2 ? 'user' : 'assistant', text: `turn ${i} ` + 'word '.repeat(60) });
    const summaries = new RollingSummaries(store, undefined, wordCounter);
    const sent: string[] = [];
    let failing = false;
    const model = async (messages: { content: string }[]): Promise<string> => {
      sent.push(messages.map((message) => message.content).join('\n'));
      failing = !failing;
      return failing ? 'no sections here' : sectioned;
    };
    for (let roll = 0; roll < 12 && summaries.pending('s').length > 0; roll++) await summaries.roll('s', model, { budget: 600, summaryTokens: 120 });
    assert.equal(summaries.pending('s').length, 0, 'every roll made progress, failed ones too');
    assert.ok(sent.length >= 6, `${sent.length} requests`);
    for (const request of sent) assert.ok(wordCounter.count(request) <= 600, `a request of ${wordCounter.count(request)} words for a budget of 600`);
    assert.match(sent[0], /^user: line 0 of a long paste/m, 'the oldest turn first');
    assert.match(sent[0], /\[… \d+ more lines of this turn not shown\]/);
    assert.doesNotMatch(sent[0], /line 399 of/);
    const sizes = sent.map((request) => wordCounter.count(request));
    assert.ok(Math.max(...sizes.slice(2)) <= 600, 'retries never grow past the budget');
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
