import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { OllamaChatModel } from '../../src/core/llm/ollamaChatModel';
import { hybridRecall, turnVectorKey } from '../../src/core/recall/hybridRecall';
import { fuseRankings, VectorMemory } from '../../src/core/recall/vectorMemory';
import { FakeOllama } from '../support/fakeOllama';
import { openTestStore, tempFolder } from '../support/tempStore';

describe('vectors beside the store (when an embedding model is configured)', () => {
  const ollama = new FakeOllama({ embeddingDims: 48 });
  let temp: ReturnType<typeof tempFolder>;
  let model: OllamaChatModel;
  before(async () => (model = new OllamaChatModel({ host: await ollama.start() })));
  after(() => ollama.stop());
  beforeEach(() => (temp = tempFolder()));
  afterEach(() => temp.remove());

  it('embeds turns through Ollama /api/embed, finds them by meaning, and forgets them with their conversation', async () => {
    const store = await openTestStore(temp.folder);
    const vectors = new VectorMemory(temp.folder, 'window-a');
    store.onDidForget((removed) => vectors.remove(removed.turnIds.map(turnVectorKey)));
    const texts = ['the zebrafish pipeline retries forever', 'lunch plans for friday', 'zebrafish retries need a backoff'];
    const turns = texts.map((text, i) => store.recordTurn({ sessionId: i === 1 ? 'other' : 'fish', role: 'user', text }));
    const embedded = await model.embed('stand-in:latest', texts);
    vectors.add(turns.map((turn, i) => ({ key: turnVectorKey(turn.id), vector: embedded[i] })));
    assert.ok(readdirSync(join(temp.folder, 'vectors')).some((file) => file.endsWith('.48.f32')), 'vectors live in their own file');

    const [query] = await model.embed('stand-in:latest', ['zebrafish retries']);
    store.indexPending();
    const hits = store.read((db) => hybridRecall(db, 'zebrafish retries', query, vectors, { k: 2 }));
    assert.deepEqual(hits.map((hit) => hit.session), ['fish', 'fish']);

    await store.forgetSessions(['fish']);
    assert.equal(vectors.search(query, 5).filter((hit) => hit.key !== turnVectorKey(turns[1].id)).length, 0, 'the forgotten turns left the vector files');
    vectors.close();
    await store.close();
  });

  it('fuses two rankings so agreement wins', () => {
    assert.deepEqual(fuseRankings(['a', 'b', 'c'], ['b', 'd']).slice(0, 2), ['b', 'a']);
  });
});
