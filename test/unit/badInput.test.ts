import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkMemoryFile } from '../../src/core/backup/checkMemoryFile';
import { engram } from '../support/storeFiles';
import { openTestStore, tempFolder } from '../support/tempStore';

/** Input a person or another program gets wrong: each is reported, nothing is changed silently, nothing is created. */
describe('bad input', function () {
  this.timeout(60_000);
  let temp: ReturnType<typeof tempFolder>;
  beforeEach(() => (temp = tempFolder('engram-input-')));
  afterEach(() => temp.remove());

  it('read-only commands on a folder that is no store say so and create nothing', () => {
    const typo = join(temp.folder, 'typo');
    for (const command of [['stats'], ['recall', 'x'], ['search', 'x'], ['context', '--session', 's']]) {
      const run = engram([...command, '--db', typo, '--json']);
      assert.equal(run.code, 1, command[0]);
      assert.match(run.stderr, /There is no Engram memory store at .*typo \(the folder does not exist\)\. Nothing was created\./);
    }
    assert.equal(existsSync(typo), false, 'the folder was not created');
    const empty = engram(['stats', '--db', temp.folder]);
    assert.match(empty.stderr, /is not an Engram memory store \(it holds no engram\.sqlite, generations\.json or journals\/\)/);
  });

  it('rejects a line of invalid UTF-8 and a lone surrogate, each by line, and stores the rest unchanged', () => {
    const file = join(temp.folder, 'mixed.jsonl');
    const good = (text: string): Buffer => Buffer.from(`${JSON.stringify({ session: 's', role: 'user', text })}\n`);
    writeFileSync(file, Buffer.concat([
      good('first'),
      Buffer.from('{"session":"s","role":"user","text":"caf\xe9 latin-1"}\n', 'latin1'),
      Buffer.from('{"session":"s\\ud800","role":"user","text":"lone"}\n'),
      Buffer.from('{"session":"s","role":"user","text":"pair \\ud83d\\ude00 ok"}\n'),
      good('last'),
    ]));
    const store = join(temp.folder, 'store');
    const run = engram(['import', file, '--db', store, '--json']);
    assert.equal(run.code, 1);
    const report = JSON.parse(run.stdout);
    assert.equal(report.imported, 3);
    assert.deepEqual(report.rejected, [
      { line: 2, reason: 'not valid UTF-8 (byte 41 of the line, 0xe9, is not valid UTF-8)' },
      { line: 3, reason: '"session" holds a lone surrogate (\\ud800 at character 2), which UTF-8 cannot store' },
    ]);
    const hits = JSON.parse(engram(['recall', 'pair', '--db', store, '--json']).stdout).hits;
    assert.equal(hits[0].text, 'pair \u{1F600} ok', 'a surrogate pair is a character like any other');
  });

  it('refuses an export file whose text holds a lone surrogate', () => {
    const file = { format: 'engram-memory', version: 1, exportedAt: '2026-01-01T00:00:00Z', sessions: [{ id: 's', source: 'chat', turns: [{ id: 't', role: 'user', text: 'x\ud800', at: '2026-01-01T00:00:00Z' }] }] };
    assert.equal(checkMemoryFile(file), 'turn 1 of conversation 1: "text" holds a lone surrogate, which UTF-8 cannot store');
  });

  it('searches for words, not patterns: `_` and `%` are no wildcards, and a 50 KB word works', async () => {
    const folder = join(temp.folder, 'store');
    const store = await openTestStore(folder);
    store.recordTurn({ sessionId: 'a', role: 'user', text: 'rename snake_case_name' });
    store.recordTurn({ sessionId: 'b', role: 'user', text: 'rename snakeXcaseYname' });
    store.setSummary('a', 'We renamed snake_case_name to camelCase and kept 100% of the tests.');
    store.setSummary('b', 'We renamed snakeXcaseYname and kept 100 of the tests.');
    await store.close({ snapshot: true });
    const search = (query: string): { hits: { label: string }[] } => {
      const run = engram(['search', query, '--scope', 'summaries', '--db', folder, '--json']);
      assert.equal(run.code, 0, run.stderr);
      return JSON.parse(run.stdout);
    };
    assert.equal(search('snake_case_name').hits.length, 1, 'only the summary with the very words');
    assert.equal(search('100%').hits.length, 2, '% is a character, not "anything"');
    const huge = 'z'.repeat(50_000);
    assert.deepEqual(search(huge).hits, []);
    const recall = engram(['recall', huge, '--db', folder, '--json']);
    assert.equal(recall.code, 0, recall.stderr);
  });
});
