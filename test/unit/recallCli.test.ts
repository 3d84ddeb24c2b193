import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempFolder } from '../support/tempStore';

const cli = join(__dirname, '..', '..', '..', 'dist', 'cli.js');
function engram(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('engram recall, search and context (dist/cli.js)', () => {
  let temp: ReturnType<typeof tempFolder>;
  let db: string;
  before(() => {
    temp = tempFolder();
    db = join(temp.folder, 'store');
    const lines = [
      { session: 'a', role: 'user', text: 'the deployment to staging failed with exit code 137', ref: 'a1' },
      { session: 'a', role: 'assistant', text: 'Exit code 137 means the container was killed for using too much memory.', ref: 'a2' },
      { session: 'b', role: 'user', text: 'how do I format dates for pt-PT?', ref: 'b1' },
      { session: 'b', role: 'assistant', text: 'Use Intl.DateTimeFormat with the pt-PT locale.', ref: 'b2' },
    ];
    writeFileSync(join(temp.folder, 'h.jsonl'), lines.map((line) => JSON.stringify(line)).join('\n'));
    assert.equal(engram('import', join(temp.folder, 'h.jsonl'), '--db', db).code, 0);
  });
  after(() => temp.remove());

  it('recalls a turn from different words, best first, with its ref', () => {
    const run = engram('recall', 'why was the staging deploy killed', '--db', db, '--json');
    assert.equal(run.code, 0, run.stderr);
    const { hits } = JSON.parse(run.stdout);
    assert.ok(['a1', 'a2'].includes(hits[0].ref), JSON.stringify(hits[0]));
    assert.deepEqual(Object.keys(hits[0]).sort(), ['ref', 'role', 'score', 'session', 'text']);
  });

  it('answers a batch of queries, one JSON line each, in order', () => {
    writeFileSync(join(temp.folder, 'q.jsonl'), [{ id: 'q1', query: 'container memory 137' }, { id: 'q2', query: 'date locale portugal pt-PT' }].map((q) => JSON.stringify(q)).join('\n'));
    const run = engram('recall', '--queries', join(temp.folder, 'q.jsonl'), '--db', db, '--k', '3');
    const lines = run.stdout.trim().split('\n').map((line) => JSON.parse(line));
    assert.deepEqual(lines.map((line) => line.id), ['q1', 'q2']);
    assert.equal(lines[1].hits[0].session, 'b');
    assert.ok(lines[0].hits.length <= 3);
  });

  it('searches confirmed memory (nothing is confirmed from an import) and prints an empty context table', () => {
    const search = engram('search', 'employer', '--db', db, '--json');
    assert.deepEqual(JSON.parse(search.stdout).hits, []);
    const context = engram('context', '--session', 'a', '--db', db, '--json');
    assert.deepEqual(JSON.parse(context.stdout).reports, []);
    assert.equal(engram('search', 'x', '--scope', 'nope', '--db', db).code, 2);
  });
});
