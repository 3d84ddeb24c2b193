import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectedOfHostileTeamFile, writeHostileTeamFile } from '../../src/cli/benchTeamFile';
import { projectScopeOf, type ProjectScope } from '../../src/core/project/projectScope';
import { teamFileCaps, teamFilePath } from '../../src/core/project/teamFile';
import type { MemoryStore } from '../../src/core/store/memoryStore';
import { EngramMemory } from '../../src/core/turn/engramMemory';
import { FakeOllama } from '../support/fakeOllama';
import { engramWithInput } from '../support/storeFiles';
import { openTestStore, tempFolder, wordCounter } from '../support/tempStore';

const hidden = /[\p{Cc}\p{Cf}]/u;

describe('a hostile team file (.engram/project-facts.md): bounded, read off the host thread, settled in one pass', function () {
  this.timeout(60_000);
  let temp: ReturnType<typeof tempFolder>;
  let store: MemoryStore;
  let memory: EngramMemory;
  let project: ProjectScope;
  beforeEach(async () => {
    temp = tempFolder();
    store = await openTestStore(join(temp.folder, 'store'));
    memory = new EngramMemory(store, wordCounter);
    const root = join(temp.folder, 'repo');
    mkdirSync(root);
    writeHostileTeamFile(root);
    project = projectScopeOf(root);
  });
  afterEach(async () => {
    await store.close();
    temp.remove();
  });

  it('reads 20,000 lines only up to its caps, proposes exactly what may be proposed, confirms nothing, hides nothing', async () => {
    let turned = false;
    setImmediate(() => (turned = true));
    const pending = memory.projects.readShared(project);
    assert.equal(turned, false, 'nothing has run yet');
    const reading = await pending;
    assert.equal(turned, true, 'the host thread was free while the file was read');
    const expected = expectedOfHostileTeamFile(teamFileCaps.lines);
    assert.equal(reading.lines, teamFileCaps.lines);
    assert.match(reading.notRead ?? '', /has [\d,]+ bytes; only its first 1,000 lines \(at most 256 KB and 1,000 lines\) were read/);
    assert.deepEqual(
      { factLines: reading.factLines, proposed: reading.proposed.length, refused: reading.refused.length, alreadyKnown: reading.alreadyKnown },
      expected,
    );
    assert.deepEqual(expected, { factLines: 995, proposed: 500, refused: 397, alreadyKnown: 98 });
    const why = (text: RegExp) => reading.refused.filter((line) => text.test(line.why)).length;
    assert.equal(why(/^cites a path outside the repository \((\.\.\/\.\.\/\.\.\/\.\.\/etc\/passwd|\/etc\/shadow|\.\.\\\.\.\\secrets\.txt)\)$/), 298);
    assert.equal(why(/^not a key Engram may learn about a project \(root_password_hint\)$/), 99);

    assert.equal(memory.facts.list('confirmed', project.scope).length, 0, 'a file’s word confirms nothing');
    const proposed = memory.projects.proposed(project);
    assert.equal(proposed.length, 500);
    assert.ok(proposed.every((s) => s.origin === 'shared' && s.tier === 'C' && s.status === 'proposed'));
    for (const statement of proposed) {
      assert.doesNotMatch(statement.value, hidden, statement.value);
      assert.doesNotMatch(statement.sourceWords, hidden, statement.sourceWords);
      assert.doesNotMatch(statement.value, /etc\/passwd|etc\/shadow|secrets\.txt/);
      assert.equal(statement.citation, undefined);
    }
    assert.ok(proposed.some((s) => s.value === 'keep module 0 small gnirts nedd'), 'the override is gone, the letters stay');
    assert.ok(proposed.some((s) => s.value === 'zero width 1'));
    assert.ok(proposed.some((s) => s.value === 'isolate hidden 9 text'));
    assert.ok(proposed.some((s) => s.value === '[run this](command:engram.forgetEverything) 2'), 'markup is kept as literal text, never rendered');
    assert.match(proposed[0].sourceWords, /committed by Mallory yrrem on \d{4}-\d{2}-\d{2}/, 'the sharer’s name is made plain too');
  });

  it('does no repeated work on a second activation with the same file', async () => {
    await memory.projects.readShared(project);
    await store.flush();
    const journal = join(store.layout.folder, 'journals', store.journalName!);
    const bytes = statSync(journal).size;
    const again = await memory.projects.readShared(project);
    await store.flush();
    assert.equal(again.proposed.length, 0);
    assert.equal(again.alreadyKnown, 500 + 98);
    assert.equal(statSync(journal).size, bytes, 'not one operation written');
    assert.equal(memory.projects.proposed(project).length, 500);
  });

  it('reads nothing through a team file that links outside, or is a FIFO, and says why', async () => {
    const linked = join(temp.folder, 'linked');
    mkdirSync(join(linked, '.engram'), { recursive: true });
    writeFileSync(join(temp.folder, 'elsewhere.md'), '- decisions = read from outside\n');
    symlinkSync(join(temp.folder, 'elsewhere.md'), join(linked, teamFilePath));
    const viaLink = await memory.projects.readShared(projectScopeOf(linked));
    assert.equal(viaLink.proposed.length, 0);
    assert.match(viaLink.notRead ?? '', /leads outside the workspace/);
    const piped = join(temp.folder, 'piped');
    mkdirSync(join(piped, '.engram'), { recursive: true });
    execFileSync('mkfifo', [join(piped, teamFilePath)]);
    const viaFifo = await memory.projects.readShared(projectScopeOf(piped));
    assert.equal(viaFifo.proposed.length, 0);
    assert.match(viaFifo.notRead ?? '', /not a regular file/);
  });

  it('search --workspace reads it as activation does: the same counts, then nothing new', async () => {
    const db = join(temp.folder, 'cli-store');
    const first = await engramWithInput(['search', 'module', '--db', db, '--workspace', project.root, '--json'], '');
    assert.equal(first.code, 0, first.stderr);
    const out = JSON.parse(first.stdout);
    assert.deepEqual([out.teamFile.lines, out.teamFile.proposed, out.teamFile.refused, out.teamFile.alreadyKnown], [1000, 500, 397, 98]);
    const second = JSON.parse((await engramWithInput(['search', 'module', '--db', db, '--workspace', project.root, '--json'], '')).stdout);
    assert.equal(second.teamFile.proposed, 0);
    const stats = JSON.parse((await engramWithInput(['stats', '--db', db, '--json'], '')).stdout);
    assert.deepEqual(stats.factsByScope[project.scope], { proposed: 500, confirmed: 0, retired: 0, rejected: 0 });
  });

  it('chat --workspace reads it too before the first message, and says so on stderr', async () => {
    const standIn = new FakeOllama({ models: [{ name: 'stand-in', contextLength: 32768 }] });
    await standIn.start();
    try {
      const db = join(temp.folder, 'chat-store');
      const chat = await engramWithInput(['chat', '--db', db, '--model', 'stand-in', '--host', standIn.url, '--json', '--workspace', project.root], 'hello\n');
      assert.equal(chat.code, 0, chat.stderr);
      assert.match(chat.stderr, /engram: \.engram\/project-facts\.md: 1000 lines read, 500 proposed for review, 98 already known, 397 refused \(cites a path outside the repository; not a key Engram may learn about a project\); \.engram\/project-facts\.md has [\d,]+ bytes; only its first 1,000 lines/);
      assert.equal(JSON.parse(chat.stdout).learned.length, 0);
      const stats = JSON.parse((await engramWithInput(['stats', '--db', db, '--json'], '')).stdout);
      assert.deepEqual(stats.factsByScope[project.scope], { proposed: 500, confirmed: 0, retired: 0, rejected: 0 });
    } finally {
      await standIn.stop();
    }
  });
});
