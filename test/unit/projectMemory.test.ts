import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectScopeOf, type ProjectScope } from '../../src/core/project/projectScope';
import { teamFilePath } from '../../src/core/project/teamFile';
import type { MemoryStore } from '../../src/core/store/memoryStore';
import { EngramMemory } from '../../src/core/turn/engramMemory';
import { MemoryToolRunner } from '../../src/core/turn/memoryTools';
import { TurnEngine } from '../../src/core/turn/turnEngine';
import type { TurnModel } from '../../src/core/turn/turnModel';
import { openTestStore, tempFolder, wordCounter } from '../support/tempStore';

const model: TurnModel = {
  id: 'preview', name: 'preview', vendor: 'test', systemDelivery: 'system message',
  window: async () => ({ tokens: 8192, replyReserve: 2048, why: 'test' }),
  send: async function* () {},
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A repository with one commit, a remote (or none) and a package.json naming its test framework. */
function makeRepo(folder: string, remote?: string, author = 'Ana Lima'): string {
  mkdirSync(folder, { recursive: true });
  git(folder, 'init', '-q', '-b', 'main');
  git(folder, 'config', 'user.name', author);
  git(folder, 'config', 'user.email', 'dev@example.com');
  if (remote) git(folder, 'remote', 'add', 'origin', remote);
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'app', scripts: { test: 'vitest run' }, devDependencies: { typescript: '^5.6.0', vitest: '^2.1.0' } }, null, 2) + '\n');
  writeFileSync(join(folder, 'package-lock.json'), '{\n  "lockfileVersion": 3\n}\n');
  git(folder, 'add', '.');
  git(folder, 'commit', '-q', '-m', 'first');
  return folder;
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => (statSync(join(folder, name)).isDirectory() ? filesUnder(join(folder, name)) : [join(folder, name)]));
}

describe('project memory: scopes, citations, sharing and forgetting', () => {
  let temp: ReturnType<typeof tempFolder>;
  let store: MemoryStore;
  let memory: EngramMemory;
  let engine: TurnEngine;
  let repoA: ProjectScope;
  let repoB: ProjectScope;
  beforeEach(async () => {
    temp = tempFolder();
    store = await openTestStore(join(temp.folder, 'store'), { indexDelayMs: 3_600_000 });
    memory = new EngramMemory(store, wordCounter);
    engine = new TurnEngine({ memory, tokens: wordCounter });
    repoA = projectScopeOf(makeRepo(join(temp.folder, 'a'), 'git@github.com:acme/app.git'));
    repoB = projectScopeOf(makeRepo(join(temp.folder, 'b'), 'https://github.com/acme/other.git'));
  });
  afterEach(async () => {
    await store.close();
    temp.remove();
  });

  function promptOf(text: string, projectScope: ProjectScope | undefined, sessionId = 's') {
    const prepared = engine.prepare({ sessionId, text, projectScope });
    return { prepared, prompt: engine.previewPrompt(prepared, 6000, { model, tools: new MemoryToolRunner(() => store) }) };
  }

  it('a project fact learned in one repository is in its prompts and absent from another repository’s', () => {
    const { prepared } = promptOf('we use vitest here', repoA);
    assert.deepEqual(prepared.capture.learned.map((s) => [s.scope, s.key, s.value]), [[repoA.scope, 'test_framework', 'vitest']]);
    assert.deepEqual(memory.facts.list('confirmed'), [], 'not a fact about the owner');
    const inA = promptOf('how do I run one test?', repoA, 's2').prompt;
    const blockA = inA.blocks.find((block) => block.id === 'project');
    assert.equal(blockA?.state, 'included');
    assert.match(inA.system, /This project|this project \(app\)/);
    assert.match(inA.system, /test_framework: vitest/);
    const inB = promptOf('how do I run one test?', repoB, 's3').prompt;
    assert.doesNotMatch(inB.system, /vitest/);
    assert.equal(inB.blocks.find((block) => block.id === 'project')?.state, 'absent');
    const noProject = promptOf('how do I run one test?', undefined, 's4').prompt;
    assert.doesNotMatch(noProject.system, /vitest/);
  });

  it('a clone and a worktree of the same repository share its scope; ssh and https remotes agree', () => {
    const clone = projectScopeOf(makeRepo(join(temp.folder, 'clone'), 'https://someone:secret@GitHub.com/acme/app'));
    assert.equal(clone.scope, repoA.scope);
    assert.equal(repoA.scope, 'project:github.com/acme/app');
    assert.doesNotMatch(clone.scope, /secret|someone/);
    git(repoA.root, 'worktree', 'add', '-q', join(temp.folder, 'wt'), '-b', 'side');
    assert.equal(projectScopeOf(join(temp.folder, 'wt')).scope, repoA.scope);
    const local = projectScopeOf(makeRepo(join(temp.folder, 'local')));
    assert.match(local.scope, /^project:git-root:[0-9a-f]{40}$/);
    const plain = join(temp.folder, 'plain');
    mkdirSync(plain);
    assert.match(projectScopeOf(plain).scope, /^project:folder:/);
  });

  it('a proposal derived from package.json carries its citation, and is only a proposal', () => {
    const proposals = memory.projects.proposeDerived(repoA);
    const framework = proposals.find((s) => s.key === 'test_framework');
    assert.equal(framework?.value, 'vitest');
    assert.equal(framework?.status, 'proposed');
    assert.equal(framework?.origin, 'derived');
    assert.equal(framework?.citation?.path, 'package.json');
    const line = readFileSync(join(repoA.root, 'package.json'), 'utf8').split('\n')[framework!.citation!.lines[0] - 1];
    assert.match(line, /"vitest"/);
    assert.match(framework!.citation!.hash, /^[0-9a-f]{16}$/);
    assert.equal(proposals.find((s) => s.key === 'package_manager')?.citation?.path, 'package-lock.json');
    assert.equal(memory.projects.confirmed(repoA).current.length, 0, 'nothing derived is believed until the owner confirms it');
    assert.equal(memory.projects.proposeDerived(repoA).length, 0, 'proposing again adds nothing');
  });

  it('changing the cited lines turns the fact into "needs a look" on the next prompt, and it is not injected', () => {
    const framework = memory.projects.proposeDerived(repoA).find((s) => s.key === 'test_framework')!;
    memory.facts.approve(framework.id);
    assert.match(promptOf('which test runner?', repoA).prompt.system, /test_framework: vitest/);
    const manifest = join(repoA.root, 'package.json');
    // Lines added above move the cited line: it still holds.
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('"name": "app",', '"name": "app",\n  "private": true,'));
    assert.match(promptOf('which test runner?', repoA, 's2').prompt.system, /test_framework: vitest/);
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('"vitest": "^2.1.0"', '"jest": "^29.7.0"'));
    const after = promptOf('which test runner?', repoA, 's3').prompt;
    assert.doesNotMatch(after.system, /vitest/);
    assert.match(after.blocks.find((block) => block.id === 'project')!.why, /needs a look: test_framework/);
    assert.deepEqual(memory.projects.confirmed(repoA).needsLook.map((n) => [n.fact.key, n.state]), [['test_framework', 'changed']]);
    assert.equal(memory.facts.get(framework.id).status, 'confirmed', 'not deleted, not retired: it waits for a look');
    // One click: the owner confirms it against the file as it is now, and it is back.
    memory.projects.confirmAfterLook(repoA, framework.id);
    assert.deepEqual(memory.projects.confirmed(repoA).needsLook, []);
  });

  it('a shared file read in a second store yields proposals, not beliefs, naming who committed them', async () => {
    const framework = memory.projects.proposeDerived(repoA).find((s) => s.key === 'test_framework')!;
    memory.facts.approve(framework.id);
    memory.projects.remember(repoA, 'do_not_touch', 'generated/');
    const shared = memory.projects.share(repoA);
    assert.equal(shared.facts, 2);
    const text = readFileSync(shared.path, 'utf8');
    assert.match(text, /^- do_not_touch = generated\/$/m);
    assert.match(text, /^- test_framework = vitest {2}\(cites package\.json:\d+ #[0-9a-f]{16}\)$/m);
    git(repoA.root, 'add', teamFilePath);
    git(repoA.root, 'commit', '-q', '-m', 'share project facts');
    const teammate = await openTestStore(join(temp.folder, 'teammate-store'));
    try {
      const theirs = new EngramMemory(teammate, wordCounter);
      const proposals = (await theirs.projects.readShared(repoA)).proposed;
      assert.deepEqual(proposals.map((s) => [s.key, s.value, s.status, s.origin]).sort(), [
        ['do_not_touch', 'generated/', 'proposed', 'shared'],
        ['test_framework', 'vitest', 'proposed', 'shared'],
      ]);
      assert.match(proposals[0].sourceWords, /committed by Ana Lima on \d{4}-\d{2}-\d{2}/);
      assert.equal(proposals.find((s) => s.key === 'test_framework')?.citation?.hash, framework.citation?.hash);
      assert.deepEqual(theirs.projects.confirmed(repoA).current, [], 'a file’s word confirms nothing');
      assert.equal((await theirs.projects.readShared(repoA)).proposed.length, 0, 'reading it again adds nothing');
    } finally {
      await teammate.close();
    }
  });

  it('forgetting a project fact removes it from every file of the store', async () => {
    const fact = memory.projects.remember(repoA, 'decisions', 'keep the parser zanzibarish');
    // A turn whose report (retrieval log included) names the fact it carried.
    const run = await engine.run({ sessionId: 's', text: 'what did we decide?', projectScope: repoA }, { model, tools: new MemoryToolRunner(() => store), onText: () => undefined });
    assert.ok(run.report?.retrieval.some((entry) => entry.memoryId === fact.id));
    await store.snapshot();
    assert.ok(filesUnder(store.layout.folder).some((file) => readFileSync(file).includes('zanzibarish')), 'the test sees the value before');
    await memory.projects.forget(fact.id);
    assert.deepEqual(filesUnder(store.layout.folder).filter((file) => readFileSync(file).includes('zanzibarish')), []);
    assert.deepEqual(memory.projects.confirmed(repoA).current, []);
    await store.close({ snapshot: true });
    store = await openTestStore(join(temp.folder, 'store'));
    assert.deepEqual(filesUnder(store.layout.folder).filter((file) => readFileSync(file).includes('zanzibarish')), []);
    assert.equal(new EngramMemory(store, wordCounter).facts.list(undefined, repoA.scope).length, 0, 'it does not come back on reload');
  });
});
