import assert from 'node:assert/strict';
import { existsSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { engram, engramWithInput } from '../support/storeFiles';
import { fillMemory, memoryTables } from '../support/memoryFixture';
import { openTestStore, tempFolder } from '../support/tempStore';

/** `engram export` and `engram import-memory`: the same round trip from the command line, and bad files refused early. */
describe('engram export / import-memory', function () {
  this.timeout(120_000);
  let temp: ReturnType<typeof tempFolder>;
  before(() => (temp = tempFolder('engram-backup-cli-')));
  after(() => temp.remove());

  async function tablesOf(folder: string): Promise<Record<string, unknown[]>> {
    const store = await openTestStore(folder, { readOnly: true });
    try {
      // Token counts are the importing machine's own (the CLI counts with cl100k, the fixture by words).
      return memoryTables(store, { tokens: false });
    } finally {
      await store.close();
    }
  }

  let laptop: string;
  let file: string;
  before(async () => {
    laptop = join(temp.folder, 'laptop');
    const store = await openTestStore(laptop);
    await fillMemory(store);
    await store.close({ snapshot: true });
    file = join(temp.folder, 'backup.json');
    const run = engram(['export', '--db', laptop, '--out', file, '--json']);
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.equal(report.out, file);
    assert.equal(report.holds.facts.confirmed, 2);
  });

  it('round-trips the whole memory into an empty store with --yes, and a second import changes nothing', async () => {
    const desktop = join(temp.folder, 'desktop');
    const first = engram(['import-memory', file, '--db', desktop, '--yes', '--json']);
    assert.equal(first.code, 0, first.stderr);
    const [plan, applied] = first.stdout.trim().split('\n').map((line) => JSON.parse(line));
    assert.equal(plan.holds.facts.retired, 1);
    assert.equal(plan.new.facts, 9);
    assert.equal(applied.applied, true);
    assert.equal(applied.changed, true);
    assert.deepEqual(await tablesOf(desktop), await tablesOf(laptop));

    const second = engram(['import-memory', file, '--db', desktop, '--yes']);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /Everything in it is already here: importing it changes nothing\./);
    assert.match(second.stdout, /Nothing new/);
    assert.deepEqual(await tablesOf(desktop), await tablesOf(laptop));
  });

  it('asks before importing: "n" or no answer imports nothing, "y" imports', async () => {
    const desktop = join(temp.folder, 'asked');
    const no = await engramWithInput(['import-memory', file, '--db', desktop], 'n\n');
    assert.equal(no.code, 0, no.stderr);
    assert.match(no.stdout, /^The file holds 2 confirmed facts, 1 retired, 1 rejected, 1 proposed/);
    assert.match(no.stdout, /Nothing was imported\./);
    assert.match(no.stderr, /import it\? \[y\/N\]/);
    const silent = await engramWithInput(['import-memory', file, '--db', desktop], '');
    assert.equal(silent.code, 1);
    assert.match(silent.stderr, /no answer on stdin, so nothing was imported \(pass --yes/);
    assert.equal((await tablesOf(desktop)).statements.length, 0);
    const yes = await engramWithInput(['import-memory', file, '--db', desktop], 'y\n');
    assert.equal(yes.code, 0, yes.stderr);
    assert.match(yes.stdout, /Imported 2 turns from 2 conversations, 9 facts/);
    assert.deepEqual(await tablesOf(desktop), await tablesOf(laptop));
  });

  it('writes the Markdown view to stdout or a file, saying at its top that it is never read back', () => {
    const run = engram(['export', '--markdown', '--db', laptop]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^# What Engram remembers\n\n> \*\*This file is a view, not the memory\.\*\* .* never reads it back: editing it changes nothing/);
    assert.match(run.stdout, /- ` employer ` = ` Calico ` — confirmed 2026-03-01/);
    assert.match(run.stdout, /- ` employer ` = ` Northwind Labs ` — retired 2026-03-01: ` superseded by employer = Calico/);
    const out = join(temp.folder, 'memory.md');
    assert.equal(engram(['export', '--markdown', '--db', laptop, '--out', out]).code, 0);
    assert.equal(readFileSync(out, 'utf8').split('\n')[0], '# What Engram remembers');
  });

  describe('refuses a bad file with a clear message before anything is written', () => {
    const at = '2026-01-05T10:00:00Z';
    const valid = (): Record<string, unknown> => ({
      format: 'engram-memory', version: 2, exportedAt: at,
      sessions: [{ id: 's', source: 'chat', startedAt: at, lastAt: at, turns: [{ id: 't1', role: 'user', text: 'hello', at }, { id: 't2', role: 'assistant', text: 'hi', at }] }],
      statements: [], behaviors: [], forgotten: { sessions: [], turns: [], statements: [] },
    });
    const cases: [string, (path: string) => void, RegExp][] = [
      ['another format', (path) => writeFileSync(path, JSON.stringify({ format: 'claude-memory', memories: [] })), /is not an Engram memory export \(its "format" is not "engram-memory"\)/],
      ['a turns file for engram import', (path) => writeFileSync(path, '{"session":"s","role":"user","text":"hi"}\n{"session":"s","role":"assistant","text":"yo"}\n'), /one conversation turn per line: that is conversation history for `engram import`/],
      ['a version from the future', (path) => writeFileSync(path, JSON.stringify({ ...valid(), version: 3 })), /format version 3, written by a newer Engram; this one reads versions 1 and 2\. Update Engram/],
      ['a truncated file', (path) => { const text = JSON.stringify(valid(), null, 2); writeFileSync(path, text.slice(0, text.length / 2)); }, /the file ends before its JSON does \(it was cut short/],
      ['a 207 MB file', (path) => { writeFileSync(path, ''); truncateSync(path, 207 * 1024 * 1024); }, /the file is 207 MB, more than the 64 MB Import Memory reads/],
      ['duplicate turn ids', (path) => {
        const data = valid() as { sessions: { turns: { id: string }[] }[] };
        data.sessions[0].turns[1].id = 't1';
        writeFileSync(path, JSON.stringify(data));
      }, /turn 2 of conversation 1: the turn id "t1" appears twice \(first at turn 1 of conversation 1\)/],
      ['a bad date', (path) => {
        const data = valid() as { sessions: { turns: { at: string }[] }[] };
        data.sessions[0].turns[0].at = 'not a date';
        writeFileSync(path, JSON.stringify(data));
      }, /turn 1 of conversation 1: "at" is "not a date", not an ISO-8601 time/],
      ['a bad status', (path) => {
        const statement = { id: 'f', scope: 'owner', key: 'editor', value: 'vim', cardinality: 'single', status: 'believed', tier: 'A', origin: 'chat', words: 'x', createdAt: at, updatedAt: at, mentions: [], history: [] };
        writeFileSync(path, JSON.stringify({ ...valid(), statements: [statement] }));
      }, /fact 1: "status" is "believed", not "proposed", "confirmed", "retired", "rejected"/],
      ['not JSON at all', (path) => writeFileSync(path, 'hello there'), /the file is not JSON \(.*\), so it is not an Engram memory export/],
    ];
    for (const [name, write, message] of cases) {
      it(name, () => {
        const path = join(temp.folder, `${name.replace(/\W+/g, '-')}.json`);
        write(path);
        const store = join(temp.folder, `store-${name.replace(/\W+/g, '-')}`);
        const run = engram(['import-memory', path, '--db', store, '--yes']);
        assert.equal(run.code, 1, run.stdout);
        assert.match(run.stderr, message);
        assert.match(run.stderr, /nothing was imported\.\n$/);
        assert.equal(existsSync(store), false, 'not even the store folder was created');
      });
    }
  });
});
