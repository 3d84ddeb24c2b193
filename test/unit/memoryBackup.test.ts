import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { checkMemoryFile } from '../../src/core/backup/checkMemoryFile';
import { describeImportPlan } from '../../src/core/backup/describeImport';
import { exportMemory } from '../../src/core/backup/exportMemory';
import { importMemory, planImport } from '../../src/core/backup/importMemory';
import type { MemoryFile } from '../../src/core/backup/memoryFile';
import { EngramMemory } from '../../src/core/turn/engramMemory';
import { fillMemory, fixtureProject, memoryTables } from '../support/memoryFixture';
import { allFiles } from '../support/storeFiles';
import { openTestStore, tempFolder, wordCounter } from '../support/tempStore';

/** Bytes in every journal of a store folder: what a write of any kind adds to. */
function layoutJournalBytes(folder: string): number {
  const journals = join(folder, 'journals');
  return readdirSync(journals).reduce((sum, name) => sum + statSync(join(journals, name)).size, 0);
}

/** The backup carries the whole memory: exported, imported into an empty store, everything is as it was. */
describe('memory backup (export format 2, Import Memory)', function () {
  this.timeout(60_000);
  let temp: ReturnType<typeof tempFolder>;
  beforeEach(() => (temp = tempFolder('engram-backup-')));
  afterEach(() => temp.remove());

  async function exported(): Promise<{ file: MemoryFile; tables: Record<string, unknown[]> }> {
    const source = await openTestStore(join(temp.folder, 'laptop'));
    await fillMemory(source);
    const file = JSON.parse(JSON.stringify(exportMemory(source))) as MemoryFile;
    const tables = memoryTables(source);
    await source.close();
    return { file, tables };
  }

  it('imports every status, history, behaviour, summary and tombstone as it was, and a second import changes nothing', async () => {
    const { file, tables } = await exported();
    // The fixture holds what the test is about, so an empty table cannot make it pass.
    const statuses = new Set((tables.statements as { status: string }[]).map((s) => s.status));
    assert.deepEqual([...statuses].sort(), ['confirmed', 'proposed', 'rejected', 'retired']);
    assert.ok((tables.statements as { scope: string }[]).some((s) => s.scope === fixtureProject));
    assert.equal(tables.forgottenSessions.length, 1);
    assert.equal(tables.forgottenTurns.length, 1);
    assert.equal(tables.forgottenStatements.length, 1);
    assert.ok((tables.sessions as { cooled_at: string | null }[]).some((s) => s.cooled_at), 'a conversation cooled to its summary');
    assert.equal(tables.behaviors.length, 3);

    const checked = checkMemoryFile(file);
    assert.ok(typeof checked !== 'string', String(checked));
    const folder = join(temp.folder, 'desktop');
    const target = await openTestStore(folder);
    const plan = planImport(target, checked);
    assert.equal(plan.holds.facts.confirmed, 2, 'name and employer');
    assert.match(describeImportPlan(plan), /^The file holds 2 confirmed facts, 1 retired, 1 rejected, 1 proposed; 1 behaviour approved .*; 4 project facts for 2 repositories; 2 turns in 2 conversations/);
    const first = await importMemory(target, checked, wordCounter);
    assert.equal(first.changed, true);
    assert.deepEqual(memoryTables(target), tables);

    const journalBytes = layoutJournalBytes(folder);
    const second = await importMemory(target, checked, wordCounter);
    assert.equal(second.changed, false);
    assert.equal(second.turnsAdded, 0);
    assert.deepEqual(memoryTables(target), tables);
    assert.equal(layoutJournalBytes(folder), journalBytes, 'the second import writes not one journal line');
    assert.match(describeImportPlan(planImport(target, checked)), /Everything in it is already here: importing it changes nothing\.$/);
    await target.close({ snapshot: true });

    // What was imported is durable: a reader of the disk finds the same memory.
    const reopened = await openTestStore(folder, { readOnly: true });
    assert.deepEqual(memoryTables(reopened), tables);
    await reopened.close();
  });

  it('reaches another window on the same store through the journal, every line valid', async () => {
    const { file, tables } = await exported();
    const folder = join(temp.folder, 'desktop');
    const [importing, watching] = [await openTestStore(folder), await openTestStore(folder)];
    await importMemory(importing, checkMemoryFile(file) as MemoryFile, wordCounter);
    watching.syncFromOtherWriters();
    assert.deepEqual(watching.skippedJournalLines, []);
    assert.deepEqual(memoryTables(watching), tables);
    await Promise.all([importing.close(), watching.close()]);
  });

  it('keeps the newer value of a key confirmed on both machines and retires the other with an audit line', async () => {
    const { file } = await exported();
    // This machine learned the employer later than the laptop's Calico; and earlier than it, a diet the laptop never had.
    const target = await openTestStore(join(temp.folder, 'desktop'));
    const memory = new EngramMemory(target, wordCounter, { now: () => new Date('2026-06-01T00:00:00Z') });
    const here = memory.facts.remember('employer', 'Globex');
    const checked = checkMemoryFile(file) as MemoryFile;
    const plan = planImport(target, checked);
    assert.equal(plan.conflicts.length, 1);
    assert.match(describeImportPlan(plan), /employer: "Globex" on this machine \(confirmed 2026-06-01\) is newer than "Calico" in the file/);
    const result = await importMemory(target, checked, wordCounter);
    assert.equal(result.conflicts.length, 1);
    const employer = memory.facts.list(undefined).filter((s) => s.key === 'employer');
    assert.deepEqual(employer.map((s) => [s.value, s.status]).sort(), [['Calico', 'retired'], ['Globex', 'confirmed'], ['Northwind Labs', 'retired']]);
    const calico = employer.find((s) => s.value === 'Calico')!;
    const audit = memory.facts.history(calico.id).at(-1)!;
    assert.equal(audit.statusAfter, 'retired');
    assert.match(audit.reason, /confirmed on both machines; on import the newer value was kept: employer = Globex/);
    assert.equal(memory.facts.get(here.id).status, 'confirmed');
    assert.equal((await importMemory(target, checked, wordCounter)).changed, false, 'and twice changes nothing');

    // The other way round: the file's value is the newer one, and this machine's is retired.
    const older = await openTestStore(join(temp.folder, 'old-desktop'));
    const olderMemory = new EngramMemory(older, wordCounter, { now: () => new Date('2025-06-01T00:00:00Z') });
    const oldValue = olderMemory.facts.remember('employer', 'Initech');
    await importMemory(older, checked, wordCounter);
    assert.equal(olderMemory.facts.get(oldValue.id).status, 'retired');
    assert.match(olderMemory.facts.history(oldValue.id).at(-1)!.reason, /kept: employer = Calico \(confirmed .* on the machine the backup came from/);
    assert.equal(olderMemory.facts.list('confirmed').find((s) => s.key === 'employer')?.value, 'Calico');
    await Promise.all([target.close(), older.close()]);
  });

  it('forgets here what was forgotten there, and keeps forgotten what was forgotten here', async () => {
    const { file } = await exported();
    const target = await openTestStore(join(temp.folder, 'desktop'));
    // This machine still has the conversation the laptop forgot, and forgot one the laptop kept.
    target.recordTurn({ id: 'secret-1', sessionId: 'secret-plans', role: 'user', text: 'the surprise party is on Friday' });
    target.recordTurn({ id: 'chat-x', sessionId: 'chat', role: 'user', text: 'placeholder' });
    await target.forgetSessions(['chat']);
    const result = await importMemory(target, checkMemoryFile(file) as MemoryFile, wordCounter);
    assert.equal(result.forgottenHere, 1);
    assert.deepEqual(target.turns('secret-plans'), []);
    assert.deepEqual(target.turns('chat'), [], 'the conversation forgotten here stays forgotten');
    assert.equal(result.turnsForgottenHere, 2);
    await target.close();
  });

  it('imports a version 1 file (conversations only), a conversation cooled to its summary included', async () => {
    const v1 = {
      format: 'engram-memory', version: 1, exportedAt: '2026-02-01T00:00:00.000Z',
      sessions: [
        { id: 'a', source: 'chat', summary: 'About tests.', turns: [{ id: 'a1', role: 'user', text: 'my tests hang', at: '2026-01-05T10:00:00Z' }] },
        { id: 'cooled', source: 'chat', summary: 'An old talk about rebasing.', turns: [] },
      ],
    };
    const checked = checkMemoryFile(v1);
    assert.ok(typeof checked !== 'string', String(checked));
    const target = await openTestStore(join(temp.folder, 'desktop'));
    const result = await importMemory(target, checked, wordCounter);
    assert.equal(result.turnsAdded, 1);
    const sessions = new Map(target.listSessions().map((s) => [s.id, s]));
    assert.equal(sessions.get('a')?.summary, 'About tests.');
    assert.equal(sessions.get('cooled')?.summary, 'An old talk about rebasing.');
    assert.equal((await importMemory(target, checked, wordCounter)).changed, false);
    await target.close();
  });

  it('redacts secrets again on the way in: in facts, turns, refs, ids, summaries and behaviours', async () => {
    const token = 'ghp_R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf12';
    const at = '2026-01-05T10:00:00Z';
    const file = {
      format: 'engram-memory', version: 2, exportedAt: at,
      sessions: [{ id: `s-${token}`, source: 'chat', startedAt: at, lastAt: at, summary: `pushed with ${token}`, turns: [{ id: `t-${token}`, role: 'user', text: `use ${token} to push`, at, ref: token }] }],
      statements: [{ id: 'f1', scope: 'owner', key: 'editor', value: `vim ${token}`, cardinality: 'single', status: 'confirmed', tier: 'A', origin: 'chat', words: `my token is ${token}`, createdAt: at, updatedAt: at, mentions: [], history: [{ id: 'e1', at, action: 'confirmed', statusAfter: 'confirmed', reason: `said ${token}` }] }],
      behaviors: [{ id: 'b1', text: 'Be brief', status: 'approved', evidence: `pasted ${token}`, createdAt: at, updatedAt: at, history: [] }],
      forgotten: { sessions: [], turns: [], statements: [] },
    };
    const folder = join(temp.folder, 'desktop');
    const target = await openTestStore(folder);
    await importMemory(target, checkMemoryFile(file) as MemoryFile, wordCounter);
    const everything = JSON.stringify(memoryTables(target)) + JSON.stringify(exportMemory(target));
    await target.close({ snapshot: true });
    assert.ok(!everything.includes(token), 'no table holds the token');
    assert.ok(everything.includes('[secret removed]'));
    const onDisk = allFiles(folder).filter((f) => f.bytes.includes(Buffer.from(token))).map((f) => f.path);
    assert.deepEqual(onDisk, []);
  });
});
