import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { redactSecrets } from '../../src/core/shared/secrets';
import { exportMemory } from '../../src/core/backup/exportMemory';
import { FakeOllama } from '../support/fakeOllama';
import { allFiles, cli, engram, engramWithInput } from '../support/storeFiles';
import { harmlessLines, secretShapes } from '../support/secretShapes';
import { openTestStore, tempFolder } from '../support/tempStore';

/** Every file of the store and the export, searched for each shape's secret; returns the places it was found. */
function whereSecretsAre(files: { path: string; bytes: Buffer }[], exported: string): string[] {
  const found: string[] = [];
  for (const shape of secretShapes) {
    const needle = Buffer.from(shape.secret, 'utf8');
    for (const file of files) if (file.bytes.includes(needle)) found.push(`${shape.name} in ${file.path}`);
    if (exported.includes(shape.secret)) found.push(`${shape.name} in the export`);
  }
  return found;
}

/** Secrets never reach the disk: every file of the store, the export and the ids are searched for each one. */
describe('secrets stay off disk', function () {
  this.timeout(60_000);
  let temp: ReturnType<typeof tempFolder>;
  beforeEach(() => (temp = tempFolder('engram-secrets-')));
  afterEach(() => temp.remove());

  it(`redacts each of the ${secretShapes.length} shapes and leaves the words around it`, () => {
    assert.ok(secretShapes.length >= 40, `${secretShapes.length} shapes`);
    assert.equal(new Set(secretShapes.map((shape) => shape.name)).size, secretShapes.length, 'each shape is named once');
    for (const shape of secretShapes) {
      const redacted = redactSecrets(shape.text);
      assert.ok(!redacted.includes(shape.secret), `${shape.name}: ${redacted}`);
      assert.match(redacted, /\[secret removed\]/, shape.name);
    }
  });

  it(`leaves ${harmlessLines.length} lines of ordinary code and prose about passwords, tokens and keys unchanged`, () => {
    const changed = harmlessLines.filter((line) => redactSecrets(line) !== line).map((line) => `${line} => ${redactSecrets(line)}`);
    assert.deepEqual(changed, []);
  });

  it('keeps every shape out of the snapshot, the previous generation, the journals, the manifest and the export', async () => {
    const store = join(temp.folder, 'store');
    const file = join(temp.folder, 'pasted.jsonl');
    writeFileSync(file, secretShapes.map((shape, i) => JSON.stringify({ session: `s${i % 3}`, role: 'user', text: shape.text })).join('\n') + '\n');
    for (const args of [['import', file], ['import', file]]) assert.equal(engram([...args, '--db', store]).code, 0);
    const window = await openTestStore(store);
    for (const shape of secretShapes) window.recordTurn({ sessionId: 'chat', role: 'user', text: shape.text });
    window.setSummary('chat', `Summary: the user pasted ${secretShapes.map((shape) => shape.text).join(' and ')}`);
    const exported = JSON.stringify(exportMemory(window));
    await window.snapshot();
    // Searched twice: with journals and both generations on disk, and after the window closed and compacted.
    const files = allFiles(store);
    await window.close({ snapshot: true });
    files.push(...allFiles(store));
    for (const kind of ['engram.sqlite', 'engram.sqlite.previous', 'generations.json', '.jsonl']) {
      assert.ok(files.some((f) => f.path.endsWith(kind)), `a ${kind} file is searched`);
    }
    assert.deepEqual(whereSecretsAre(files, exported), []);
  });

  it(`keeps all ${secretShapes.length} shapes off every file and out of the export after chat, import and MCP`, async function () {
    const store = join(temp.folder, 'store');
    // Import: each shape as a turn's text, and again as a session name and a ref (import lines carry both).
    const file = join(temp.folder, 'pasted.jsonl');
    const lines = secretShapes.flatMap((shape, i) => [
      JSON.stringify({ session: `s${i % 3}`, role: 'user', text: shape.text, ref: `line-${i}` }),
      JSON.stringify({ session: `pasted ${shape.text}`, role: 'assistant', text: 'noted', ref: shape.text }),
    ]);
    writeFileSync(file, `${lines.join('\n')}\n`);
    assert.equal(engram(['import', file, '--db', store]).code, 0);

    // Chat: each shape as a message (the stand-in echoes it back, so the reply carries it too).
    const standIn = new FakeOllama({ models: [{ name: 'stand-in', contextLength: 32768 }] });
    await standIn.start();
    try {
      standIn.setDefaultReply((request) => ({ content: `You said: ${String(request.messages?.at(-1)?.content ?? '').slice(-400)}` }));
      const messages = secretShapes.map((shape) => shape.text.replace(/\n/g, '\\n')).join('\n');
      const chat = await engramWithInput(['chat', '--db', store, '--model', 'stand-in', '--host', standIn.url, '--session', 'chat ghp_R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf12', '--json'], `${messages}\n`);
      assert.equal(chat.code, 0, chat.stderr);
      assert.equal(chat.stdout.trim().split('\n').length, secretShapes.length, 'one turn per shape');
    } finally {
      await standIn.stop();
    }

    // MCP: each shape as a query and as a proposal's evidence, from a client whose name is a token.
    const transport = new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', '--db', store], stderr: 'pipe' });
    const client = new Client({ name: 'agent-ghp_R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf12', version: '1.0.0' });
    await client.connect(transport);
    try {
      for (const [i, shape] of secretShapes.entries()) {
        await client.callTool({ name: 'recall_conversation', arguments: { query: shape.text.slice(0, 1000) } });
        await client.callTool({ name: 'memory_search', arguments: { query: shape.text.slice(0, 1000) } });
        await client.callTool({ name: 'propose_fact', arguments: { key: 'editor', value: `Helix ${i}`, evidence: shape.text.slice(0, 2000) } });
      }
    } finally {
      await client.close();
    }

    const reader = await openTestStore(store, { readOnly: true });
    const exported = JSON.stringify(exportMemory(reader));
    await reader.close();
    const files = allFiles(store);
    for (const kind of ['engram.sqlite', 'engram.sqlite.previous', 'generations.json', '.jsonl']) {
      assert.ok(files.some((f) => f.path.endsWith(kind)), `a ${kind} file is searched`);
    }
    assert.ok(existsSync(join(store, 'engram.sqlite.previous')));
    assert.deepEqual(whereSecretsAre(files, exported), []);
    assert.match(exported, /\[secret removed\]/, 'the redacted text is there');
  });

  it('derives import ids after redaction: an id cannot confirm a guessed secret', () => {
    const ids = ['hunter2', 'correct-horse'].map((password, n) => {
      const file = join(temp.folder, `one-${n}.jsonl`);
      writeFileSync(file, `${JSON.stringify({ session: 's', role: 'user', text: `password=${password}` })}\n`);
      const store = join(temp.folder, `store-${n}`);
      assert.equal(engram(['import', file, '--db', store]).code, 0);
      const stats = engram(['recall', 'password', '--db', store, '--json']);
      return JSON.parse(stats.stdout).hits[0].ref as string;
    });
    assert.equal(ids[0], ids[1], 'the same line with another password has the same id');
    assert.match(ids[0], /^import-[0-9a-f]{32}$/);
  });
});
