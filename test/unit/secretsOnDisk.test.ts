import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactSecrets } from '../../src/core/shared/secrets';
import { exportMemory } from '../../src/core/backup/exportMemory';
import { allFiles, engram } from '../support/storeFiles';
import { secretShapes } from '../support/secretShapes';
import { openTestStore, tempFolder } from '../support/tempStore';

/** Secrets never reach the disk: every file of the store, the export and the ids are searched for each one. */
describe('secrets stay off disk', function () {
  this.timeout(60_000);
  let temp: ReturnType<typeof tempFolder>;
  beforeEach(() => (temp = tempFolder('engram-secrets-')));
  afterEach(() => temp.remove());

  it(`redacts each of the ${secretShapes.length} shapes and leaves the words around it`, () => {
    for (const shape of secretShapes) {
      const redacted = redactSecrets(shape.text);
      assert.ok(!redacted.includes(shape.secret), `${shape.name}: ${redacted}`);
      assert.match(redacted, /\[secret removed\]/, shape.name);
    }
    assert.equal(redactSecrets('the token_count is 5 and maxTokens: 4096, fetch(url, { credentials: "include" })'),
      'the token_count is 5 and maxTokens: 4096, fetch(url, { credentials: "include" })', 'no false alarm on ordinary code');
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
    for (const shape of secretShapes) {
      const needle = Buffer.from(shape.secret, 'utf8');
      const found = files.filter((f) => f.bytes.includes(needle)).map((f) => f.path);
      assert.deepEqual(found, [], `${shape.name} is on disk`);
      assert.ok(!exported.includes(shape.secret), `${shape.name} is in the export`);
    }
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
