import assert from 'node:assert/strict';
import { OllamaChatModel } from '../../src/core/llm/ollamaChatModel';
import { defaultAllowlist } from '../../src/core/memory/allowlist';
import { proposeWithModel } from '../../src/core/capture/modelProposer';
import { FakeOllama } from '../support/fakeOllama';

describe('the model-assisted proposer (extraction proposes; confidence never confirms)', () => {
  const server = new FakeOllama({ models: [{ name: 'qwen2.5-coder:7b' }] });
  let port: OllamaChatModel;
  before(async () => {
    port = new OllamaChatModel({ host: await server.start() });
  });
  after(() => server.stop());
  beforeEach(() => server.reset());

  const propose = (text: string, facts: { key: string; value: string }[]) => {
    server.enqueue({ content: JSON.stringify({ facts }) });
    return proposeWithModel(port, 'user', text, { model: 'qwen2.5-coder:7b', allowlist: defaultAllowlist });
  };

  it('asks with a JSON schema of the allowlist in Ollama’s format, and sends only the owner’s own words', async () => {
    await propose('I mostly hack on Kotlin these days.\n\nHi team,\nI am Leah and I live in Denver.\nBest,\nLeah', []);
    const request = server.chatRequests[0];
    const schema = request.format as { properties: { facts: { items: { properties: { key: { enum: string[] } } } } } };
    assert.deepEqual(schema.properties.facts.items.properties.key.enum, [...defaultAllowlist.keys()]);
    const sent = (request.messages ?? []).map((message) => message.content ?? '').join('\n');
    assert.match(sent, /Kotlin/);
    assert.doesNotMatch(sent, /Leah|Denver/, 'pasted mail never reaches the model');
  });

  it('keeps a proposal whose value is in the owner’s own present words, and only as tier C', async () => {
    const { accepted } = await propose('I mostly hack on Kotlin these days, and I am on the payments squad.', [
      { key: 'languages', value: 'Kotlin' },
      { key: 'team', value: 'payments' },
    ]);
    assert.deepEqual(accepted, [
      { key: 'languages', value: 'Kotlin', tier: 'C' },
      { key: 'team', value: 'payments', tier: 'C' },
    ]);
  });

  it('refuses what the owner did not say, said of someone else, in the past, in pasted text, off the allowlist or secret', async () => {
    const text = 'My colleague lives in Oslo. I used to work at Initech. Here is the mail:\nHi Sam,\nI am based in Denver.\nThanks,\nAnn';
    const { accepted, rejected } = await propose(text, [
      { key: 'location', value: 'Oslo' },
      { key: 'employer', value: 'Initech' },
      { key: 'location', value: 'Denver' },
      { key: 'name', value: 'Ollama' },
      { key: 'birthday', value: 'June' },
      { key: 'editor', value: 'sk-abcdefabcdefabcdef' },
    ]);
    assert.deepEqual(accepted, []);
    assert.equal(rejected.length, 6);
  });

  it('ignores a reply that is not the schema’s JSON, and never reads a turn that a gate closed', async () => {
    server.enqueue({ content: 'Sure! Here are the facts: name=Dana' });
    const garbled = await proposeWithModel(port, 'user', 'My name is Dana.', { model: 'qwen2.5-coder:7b', allowlist: defaultAllowlist });
    assert.deepEqual(garbled.accepted, []);
    const secret = await proposeWithModel(port, 'user', 'I work at Calico, my token is ghp_abcdefabcdefabcdefabcd', { model: 'qwen2.5-coder:7b', allowlist: defaultAllowlist });
    assert.deepEqual(secret, { accepted: [], rejected: [] });
    const assistant = await proposeWithModel(port, 'assistant', 'You work at Calico.', { model: 'qwen2.5-coder:7b', allowlist: defaultAllowlist });
    assert.deepEqual(assistant, { accepted: [], rejected: [] });
    assert.equal(server.chatRequests.length, 1, 'closed gates cost no model call');
  });
});
