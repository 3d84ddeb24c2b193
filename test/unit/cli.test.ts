import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempFolder } from '../support/tempStore';

/** The CLI is tested as it ships: the bundled dist/cli.js in a child process (run `npm run build` first). */
const cli = join(__dirname, '..', '..', '..', 'dist', 'cli.js');

function engram(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

function jsonl(lines: unknown[]): string {
  return lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n';
}

describe('engram CLI (dist/cli.js)', () => {
  let temp: ReturnType<typeof tempFolder>;
  before(() => assert.ok(existsSync(cli), 'dist/cli.js is missing: run npm run build'));
  beforeEach(() => (temp = tempFolder()));
  afterEach(() => temp.remove());

  it('prints its help as written, with no raw line break inside a sentence', () => {
    const help = engram('--help');
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /a literal \\n is a newline/);
  });

  it('imports turns and reports them in stats, idempotently', () => {
    const file = join(temp.folder, 'history.jsonl');
    writeFileSync(
      file,
      jsonl([
        { session: 'a', role: 'user', text: 'I work at Northwind Labs', at: '2026-01-05T10:00:00Z', ref: 'a-1' },
        { session: 'a', role: 'assistant', text: 'Noted.', at: '2026-01-05T10:00:05Z' },
        { session: 'b', role: 'user', text: 'same words' },
        { session: 'b', role: 'user', text: 'same words' },
      ]),
    );
    const db = join(temp.folder, 'store');
    const first = engram('import', file, '--db', db, '--json');
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(JSON.parse(first.stdout), { file, lines: 4, imported: 4, alreadyStored: 0, rejected: [] });
    const again = engram('import', file, '--db', db, '--json');
    assert.equal(JSON.parse(again.stdout).imported, 0, 'a second import adds nothing');

    const stats = JSON.parse(engram('stats', '--db', db, '--json').stdout);
    assert.equal(stats.turns, 4);
    assert.equal(stats.sessions, 2);
    assert.deepEqual(stats.facts, { proposed: 0, confirmed: 0, retired: 0, rejected: 0 });
    assert.equal(typeof stats.behaviors, 'number');
    assert.equal(typeof stats.memoriesUsed, 'number');
  });

  it('imports the good lines, names each bad one, and exits non-zero', () => {
    const file = join(temp.folder, 'mixed.jsonl');
    writeFileSync(file, jsonl([{ session: 's', role: 'user', text: 'fine' }, '{not json', { session: 's', role: 'robot', text: 'x' }]));
    const run = engram('import', file, '--db', join(temp.folder, 'store'), '--json');
    assert.equal(run.code, 1);
    const report = JSON.parse(run.stdout);
    assert.equal(report.imported, 1);
    assert.deepEqual(report.rejected.map((r: { line: number }) => r.line), [2, 3]);
    assert.match(report.rejected[1].reason, /role/);
  });

  it('explains usage mistakes with exit code 2', () => {
    const missing = engram('stats');
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--db is required/);
    const unknown = engram('stats', '--db', temp.folder, '--jsn');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown option --jsn/);
  });

  it('reports a zero-byte store file on stderr and keeps it', () => {
    const db = join(temp.folder, 'store');
    mkdirSync(db);
    writeFileSync(join(db, 'engram.sqlite'), '');
    const run = engram('stats', '--db', db, '--json');
    assert.equal(run.code, 0);
    assert.match(run.stderr, /unreadable \(it is empty \(0 bytes\)\); it was kept at .*engram\.sqlite\.damaged-/);
  });
});
