// What the owner takes back, through the turn engine against the stand-in: off the record, a question answered after
// the conversation lost track of itself, and "forget what I just said", each checked against every file of the store.
import assert from 'node:assert/strict';
import { OllamaChatModel } from '../../src/core/llm/ollamaChatModel';
import { cl100kTokenCounter } from '../../src/core/shared/tokenCounter';
import { MemoryStore } from '../../src/core/store/memoryStore';
import { EngramMemory } from '../../src/core/turn/engramMemory';
import { MemoryToolRunner } from '../../src/core/turn/memoryTools';
import { OllamaTurnModel } from '../../src/core/turn/ollamaTurnModel';
import { TurnEngine, type TurnIo } from '../../src/core/turn/turnEngine';
import { FakeOllama } from '../support/fakeOllama';
import { allFiles } from '../support/storeFiles';
import { sqlWasmPath, tempFolder } from '../support/tempStore';

describe('what the owner takes back', () => {
  const standIn = new FakeOllama({ models: [{ name: 'stand-in', contextLength: 32768 }] });
  let temp: ReturnType<typeof tempFolder>;
  let store: MemoryStore;
  let memory: EngramMemory;
  let engine: TurnEngine;
  let io: TurnIo;
  const holding = (word: string): string[] => allFiles(temp.folder).filter((file) => file.bytes.includes(word)).map((file) => file.path);

  before(() => standIn.start());
  after(() => standIn.stop());
  beforeEach(async () => {
    standIn.reset();
    temp = tempFolder();
    store = await MemoryStore.open({ folder: temp.folder, wasmPath: sqlWasmPath, tokens: cl100kTokenCounter, indexDelayMs: 3_600_000 });
    memory = new EngramMemory(store, cl100kTokenCounter);
    engine = new TurnEngine({ memory, tokens: cl100kTokenCounter });
    io = { model: new OllamaTurnModel(new OllamaChatModel({ host: standIn.url }), 'stand-in', 8192), tools: new MemoryToolRunner(() => store), onText: () => undefined };
  });
  afterEach(async () => {
    await store.close().catch(() => undefined);
    temp.remove();
  });

  it('off the record: the words serve this conversation only: its next prompt, no file of the store, no recall', async () => {
    await engine.run({ sessionId: 'a', text: 'How do I undo a commit?' }, io);
    const secret = await engine.run({ sessionId: 'a', text: 'Off the record: I live in Oslo and I am interviewing at Zanzibar Systems.' }, io);
    assert.equal(secret.offTheRecord, true);
    assert.deepEqual(secret.learned, []);
    await engine.run({ sessionId: 'a', text: 'Which city did I just mention?' }, io);
    assert.match(JSON.stringify(standIn.chatRequests.at(-1)?.messages), /Zanzibar Systems/, 'the words serve the rest of this conversation');
    await engine.run({ sessionId: 'b', text: 'Which city do I live in?' }, io);
    assert.doesNotMatch(JSON.stringify(standIn.chatRequests.at(-1)?.messages), /Zanzibar|Oslo/, 'another conversation never sees them');
    assert.deepEqual(memory.recall('Zanzibar Oslo interviewing'), []);
    engine.offRecord.end('a');
    await store.close({ snapshot: true });
    assert.deepEqual(holding('Zanzibar'), [], 'no file of the store holds the off-the-record words');
    const reopened = await MemoryStore.open({ folder: temp.folder, wasmPath: sqlWasmPath, tokens: cl100kTokenCounter });
    assert.deepEqual(reopened.turns('a').filter((turn) => /Zanzibar|Oslo/.test(turn.text)), []);
    await reopened.close();
  });

  it('a bare "yes" opening a conversation answers the question asked last; later in a conversation it does not', async () => {
    const asked = await engine.run({ sessionId: 'before-reload', text: 'I switched to Helix last week.' }, io);
    assert.equal(asked.question?.key, 'editor', JSON.stringify(asked));
    await engine.run({ sessionId: 'other', text: 'How do I squash commits?' }, io);
    const notFirst = await engine.run({ sessionId: 'other', text: 'yes' }, io);
    assert.equal(notFirst.direct, false, 'a yes in the middle of another conversation is just a message');
    assert.equal(memory.facts.get(asked.question!.id).status, 'proposed');
    const answered = await engine.run({ sessionId: 'after-reload', text: 'yes' }, io);
    assert.match(answered.reply, /remember editor = Helix/);
    assert.equal(memory.facts.get(asked.question!.id).status, 'confirmed');
  });

  it('"forget what I just said" takes the message, its reply and what was learned from it out of every file', async () => {
    await engine.run({ sessionId: 's', text: 'How do I rebase?' }, io);
    const said = await engine.run({ sessionId: 's', text: 'I work at Quixotic Labs.' }, io);
    assert.deepEqual(said.learned.map((s) => `${s.key}=${s.value}`), ['employer=Quixotic Labs']);
    await store.flush();
    await store.snapshot();
    assert.ok(holding('Quixotic').length > 0, 'the test sees the words on disk before');
    const forgot = await engine.run({ sessionId: 's', text: 'forget what I just said' }, io);
    assert.equal(forgot.direct, true);
    assert.match(forgot.reply, /forgot your last message.*employer = Quixotic Labs/);
    assert.deepEqual(store.turns('s').map((turn) => turn.text), ['How do I rebase?', 'Stand-in reply to: How do I rebase?']);
    assert.ok(!memory.facts.list().some((s) => s.value === 'Quixotic Labs'), 'the fact learned from it is gone too');
    const deadline = Date.now() + 10_000;
    while (holding('Quixotic').length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(holding('Quixotic'), [], 'no file of the store holds the words');
  });
});
