import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { memoryOverview } from '../../src/core/project/memoryOverview';
import { citeLines } from '../../src/core/project/citations';
import type { ProjectScope } from '../../src/core/project/projectScope';
import type { MemoryStore } from '../../src/core/store/memoryStore';
import { answerFromMemory } from '../../src/core/turn/directAnswers';
import { EngramMemory } from '../../src/core/turn/engramMemory';
import { runMemorySearch } from '../../src/core/turn/memoryTools';
import { openTestStore, tempFolder, wordCounter } from '../support/tempStore';

describe('memoryOverview: the one source of the counts every view shows', () => {
  let temp: ReturnType<typeof tempFolder>;
  let store: MemoryStore;
  let memory: EngramMemory;
  let project: ProjectScope;
  beforeEach(async () => {
    temp = tempFolder();
    store = await openTestStore(join(temp.folder, 'store'));
    memory = new EngramMemory(store, wordCounter);
    const root = join(temp.folder, 'repo');
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, 'package.json'), '{ "scripts": { "test": "vitest run" } }\n');
    project = { scope: 'project:example.com/acme/app', label: 'app', root, identifiedBy: 'remote' };
  });
  afterEach(async () => {
    await store.close();
    temp.remove();
  });

  it("counts the owner's facts apart from each project's, and what waits: every proposal and every fact that needs a look", () => {
    memory.facts.remember('name', 'Dana');
    const employer = memory.facts.remember('employer', 'Fernhill');
    memory.facts.proposeForReview({ scope: 'owner', key: 'editor', value: 'Helix', origin: 'derived', words: 'x', reason: 'test' });
    memory.facts.proposeFromAgent({ key: 'shell', value: 'fish', client: 'test' });
    memory.projects.remember(project, 'test_framework', 'vitest');
    memory.facts.proposeForReview({ scope: project.scope, key: 'package_manager', value: 'pnpm', origin: 'derived', words: 'pnpm-lock.yaml', reason: 'test' });
    // A project fact cites a line that then changes: it needs a look, and waits for the owner like a proposal.
    const cited = memory.facts.remember('test_command', 'vitest run', project.scope);
    store.applyOperation({ kind: 'statement', action: 'cite', id: 'cite-1', statementId: cited.id, at: new Date().toISOString(), reason: 'test', citation: citeLines(project.root, 'package.json', 1, 1) });
    writeFileSync(join(project.root, 'package.json'), '{ "scripts": { "test": "mocha" } }\n');

    const before = memoryOverview(memory.facts, { memory: memory.projects, scopes: [project, project] }).counts;
    assert.deepEqual(before, {
      confirmed: 2, proposed: 2, retired: 0,
      projects: [{ scope: project.scope, label: 'app', confirmed: 1, needsLook: 1, proposed: 1 }],
      waiting: 4,
    });
    memory.facts.retire(employer.id, 'marked wrong by the owner');
    const after = memoryOverview(memory.facts, { memory: memory.projects, scopes: [project] });
    assert.equal(after.counts.confirmed, 1, 'a Wrong leaves one confirmed fact about the owner');
    assert.equal(after.counts.retired, 1);
    assert.equal(after.owner.confirmed.length, after.counts.confirmed, 'the counts are the lengths of the lists the views draw');
  });

  it('memory_search says plainly that nothing matched instead of listing unrelated facts', () => {
    memory.facts.remember('role', 'data engineer');
    memory.facts.remember('employer', 'Calico');
    const diet = memory.facts.remember('diet', 'pescatarian');
    assert.match(runMemorySearch(store, { query: 'diet' }).text, /diet: pescatarian/);
    memory.facts.retire(diet.id, 'undone by the owner');
    const text = runMemorySearch(store, { query: 'diet' }).text;
    assert.equal(text, 'Nothing in Engram\'s confirmed memory matches "diet". Do not guess; ask the user if it matters.');
    assert.match(runMemorySearch(store, { query: '' }).text, /employer: Calico/, 'a query without words still lists what is confirmed');
  });

  it('a "yes" in a new conversation confirms the last question asked, about the owner or the project, and says it learned it', () => {
    store.recordTurn({ sessionId: 'first', role: 'user', text: 'we run the tests with pnpm test:unit' });
    const turn = store.recentTurns('first', 1)[0];
    const asked = memory.facts.captureFromTurn(turn, { project: project.scope }).question;
    assert.equal(asked?.scope, project.scope);
    const answer = answerFromMemory(memory.facts, 'yes', 'after-a-reload', { firstTurn: true });
    assert.equal(answer?.text, "Thanks, I'll remember test_command = pnpm test:unit.");
    assert.deepEqual(answer?.learned.map((s) => [s.key, s.status, s.scope]), [['test_command', 'confirmed', project.scope]]);
    assert.equal(answerFromMemory(memory.facts, 'yes', 'after-a-reload', { firstTurn: true }), undefined, 'nothing is pending any more');
  });
});
