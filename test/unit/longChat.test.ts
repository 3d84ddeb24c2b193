import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { runChat } from '../../src/cli/chatCommand';
import { isExtractive } from '../../src/core/context/assemble';
import { reportsOfSession } from '../../src/core/context/reportRepository';
import { cl100kTokenCounter } from '../../src/core/shared/tokenCounter';
import { MemoryStore } from '../../src/core/store/memoryStore';
import { FakeOllama, type ChatRequestBody, type ScriptedReply } from '../support/fakeOllama';
import { sqlWasmPath, tempFolder } from '../support/tempStore';

const topics = ['the billing service', 'the retry queue', 'the schema migration', 'the flaky login test', 'the cache layer', 'the deploy pipeline', 'the search index', 'the CSV export'];
const verbs = ['profiled', 'rewrote', 'reviewed', 'benchmarked', 'documented', 'split', 'traced', 'simplified'];

/** About 300 words of a developer's message, different every turn (so recall has something to tell apart). */
function message(turn: number): string {
  const topic = topics[turn % topics.length];
  const sentences = Array.from({ length: 20 }, (_, j) => `Step ${j + 1}: I ${verbs[(turn + j) % verbs.length]} ${topic} module m${turn}x${j} and noted case c${(turn * 7 + j) % 53} for later.`);
  return `Turn ${turn}, about ${topic}. ${sentences.join(' ')}`;
}

const planted = 'My colleague Zorbak Quillfeather owns the billing service and reviews every change to it.';
const question = 'What was the name of my colleague who owns the billing service?';

/** The model's side of the conversation: long answers, and for the question, the name when it can see it, else a recall. */
function answer(request: ChatRequestBody): ScriptedReply {
  const messages = request.messages ?? [];
  const last = messages.at(-1);
  if (last?.role === 'user' && last.content?.includes(question)) {
    const seen = messages.some((entry) => entry.content?.includes('Quillfeather'));
    const canRecall = request.tools?.some((tool) => JSON.stringify(tool).includes('recall_conversation'));
    if (!seen && canRecall) return { toolCalls: [{ name: 'recall_conversation', arguments: { query: 'colleague owns billing service name' } }] };
    return { content: seen ? 'Your colleague is Zorbak Quillfeather.' : 'I do not know.' };
  }
  if (last?.role === 'tool') return { content: last.content?.includes('Quillfeather') ? 'Your colleague is Zorbak Quillfeather.' : 'I could not find it.' };
  return { content: `Noted. ${'Here is what I would check next about that change, step by step, with the reasons. '.repeat(8)}` };
}

interface TurnLine {
  readonly turn: number;
  readonly reply: string;
  readonly report: { window: number; budget: number; totalTokens: number; blocks: { id: string; state: string; tokens: number }[]; runtime: { counted: number; estimate: number; flagged: boolean } | null } | null;
}

describe('a long chat (60 turns of ~300 words) against a stand-in that counts like a model and fails every other summary', function () {
  this.timeout(240_000);
  const standIn = new FakeOllama({ models: [{ name: 'stand-in', contextLength: 32768 }], summariser: { failEvery: 2 } });
  let temp: ReturnType<typeof tempFolder>;
  let lines: TurnLine[];
  let warnings: string[];
  let store: MemoryStore;

  before(async () => {
    await standIn.start();
    standIn.setDefaultReply(answer);
    temp = tempFolder();
    store = await MemoryStore.open({ folder: temp.folder, wasmPath: sqlWasmPath, tokens: cl100kTokenCounter, indexDelayMs: 3_600_000 });
    const said = [`${planted} ${message(1)}`, ...Array.from({ length: 58 }, (_, i) => message(i + 2)), question];
    lines = [];
    warnings = [];
    const code = await runChat({
      store, model: 'stand-in', host: standIn.url, session: 'long', contextLength: 8192, json: true,
      input: Readable.from(said.join('\n') + '\n'), write: (line) => lines.push(JSON.parse(line) as TurnLine), warn: (line) => warnings.push(line),
    });
    assert.equal(code, 0, warnings.join('\n'));
  });
  after(async () => {
    await store.close();
    await standIn.stop();
    temp.remove();
  });

  const chats = () => standIn.requests.filter((request) => request.path === '/api/chat' && request.truncation);
  const isTurn = (request: { body: unknown }) => /^You are Engram/.test((request.body as ChatRequestBody).messages?.[0]?.content ?? '');

  it('keeps every request, turns and summary rolls alike, within its num_ctx by the stand-in\'s own count: nothing dropped, nothing cut', () => {
    assert.equal(lines.length, 60);
    assert.ok(chats().length > 60);
    for (const request of chats()) {
      const cut = request.truncation!;
      assert.equal((request.body as ChatRequestBody).options?.num_ctx, 8192);
      assert.ok(cut.sentTokens <= cut.window, `sent ${cut.sentTokens} tokens into a ${cut.window} window`);
      assert.deepEqual(cut.dropped, []);
      assert.equal(cut.cutTokens, 0);
    }
  });

  it('rolls the summary, failed rolls kept extractively, and carries one in every prompt after the first roll', () => {
    const requests = standIn.requests.filter((request) => request.path === '/api/chat' && request.truncation);
    const firstRoll = requests.findIndex((request) => !isTurn(request));
    assert.ok(firstRoll > 0, 'a summary was rolled');
    assert.ok(standIn.summaryRolls >= 4, `${standIn.summaryRolls} rolls`);
    // The turn sent while the first roll was answered may not have it yet; every later one must.
    const later = requests.slice(firstRoll).filter(isTurn).slice(1);
    assert.ok(later.length > 20);
    for (const request of later) assert.match((request.body as ChatRequestBody).messages?.[0]?.content ?? '', /Summary of this conversation so far:\n/);
    const { summary, uptoSeq } = store.summaryOf('long');
    assert.ok(summary && uptoSeq > 60, `the summary covers ${uptoSeq} turns`);
    assert.ok(lines.some((line) => line.report?.blocks.some((block) => block.id === 'summary' && block.state !== 'absent')));
    const kinds = requests.filter((request) => !isTurn(request)).length;
    assert.ok(kinds >= standIn.summaryRolls, 'every roll went through the stand-in');
    assert.ok(summary !== undefined && (isExtractive(summary) || summary.includes('## Goal')));
    // The summary row says how the last roll went: the failures, why, and when the model is asked again.
    const whys = store.read((db) => reportsOfSession(db, 'long')).map((report) => report.blocks.find((block) => block.id === 'summary')?.why ?? '');
    assert.ok(whys.some((why) => /the model's summary failed at \d\d:\d\d \(its answer did not have the sections\).*asked again at the next roll/.test(why)), whys.join('\n'));
    assert.ok(whys.some((why) => /rolled forward by the model at \d\d:\d\d/.test(why)));
    assert.ok(whys.some((why) => /partly extractive/.test(why)));
  });

  it('names the turns out of the prompt and the tool that reaches them, and the planted name from turn 1 reaches the model when asked', () => {
    const last = lines.at(-1)!;
    assert.match(last.reply, /Zorbak Quillfeather/);
    const l1 = last.report?.blocks.find((block) => block.id === 'l1.here');
    assert.equal(l1?.state, 'included');
    const final = chats().filter(isTurn).at(-1)!.body as ChatRequestBody;
    assert.match(final.messages?.[0]?.content ?? '', /\d+ earlier turns of this conversation are not in this prompt.*recall_conversation/);
    assert.ok(final.messages?.some((entry) => entry.content?.includes('Quillfeather')), 'the name was in what the model read');
  });

  it('reports rows that add up to the total, within the budget, every turn; no store closed under a roll', () => {
    for (const line of lines) {
      assert.ok(line.report, `turn ${line.turn} has a report`);
      const sum = line.report.blocks.reduce((total, block) => total + block.tokens, 0);
      assert.equal(sum, line.report.totalTokens, `turn ${line.turn}: rows ${sum}, total ${line.report.totalTokens}`);
      assert.ok(line.report.totalTokens <= line.report.budget, `turn ${line.turn}: ${line.report.totalTokens} of ${line.report.budget}`);
      assert.ok(line.report.runtime && line.report.runtime.counted <= line.report.window);
    }
    assert.deepEqual(warnings.filter((warning) => /closed|not rolled/.test(warning)), []);
    assert.equal(standIn.abortedChats, 0, 'every roll finished before chat returned');
  });
});
