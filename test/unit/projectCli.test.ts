import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ChatRequestBody } from '../support/fakeOllama';
import { engramWithInput } from '../support/storeFiles';
import { useStandIn } from '../support/standInHarness';

const cli = join(__dirname, '..', '..', '..', 'dist', 'cli.js');

function repo(folder: string, remote: string): string {
  mkdirSync(folder, { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: folder });
  execFileSync('git', ['remote', 'add', 'origin', remote], { cwd: folder });
  writeFileSync(join(folder, 'README.md'), 'x\n');
  return folder;
}

const run = (args: string[], stdin = ''): ReturnType<typeof engramWithInput> => engramWithInput(args, stdin);

describe('engram chat, search and stats with --workspace (project scopes from the command line)', function () {
  this.timeout(60_000);
  before(() => assert.ok(existsSync(cli), 'dist/cli.js is missing: run npm run build'));
  const running = useStandIn({ models: [{ name: 'stand-in', contextLength: 32768 }] });
  const standIn = running.standIn;

  it('learns "we use vitest here" for that repository only, searches both scopes, and counts facts per scope', async () => {
    const db = join(running.folder, 'store');
    const a = repo(join(running.folder, 'a'), 'git@github.com:acme/app.git');
    const b = repo(join(running.folder, 'b'), 'git@github.com:acme/other.git');
    const chatIn = (folder: string, text: string) => run(['chat', '--db', db, '--model', 'stand-in', '--host', standIn.url, '--json', '--workspace', folder], `${text}\n`);
    const learned = await chatIn(a, 'we use vitest here');
    assert.equal(learned.code, 0, learned.stderr);
    assert.deepEqual(JSON.parse(learned.stdout).learned, [{ key: 'test_framework', value: 'vitest', tier: 'A' }]);
    await run(['chat', '--db', db, '--model', 'stand-in', '--host', standIn.url, '--json'], 'My editor is Neovim\n');
    const inA = await chatIn(a, 'which test runner do we use?');
    assert.equal(JSON.parse(inA.stdout).report.blocks.find((block: { id: string }) => block.id === 'project').state, 'included');
    const system = (standIn.chatRequests.at(-1) as ChatRequestBody).messages?.[0]?.content ?? '';
    assert.match(system, /test_framework: vitest/);
    await chatIn(b, 'which test runner do we use?');
    assert.doesNotMatch(JSON.stringify(standIn.chatRequests.at(-1)), /vitest/);

    const searchA = JSON.parse((await run(['search', 'vitest neovim', '--db', db, '--json', '--workspace', a])).stdout);
    assert.deepEqual(searchA.hits.map((hit: { label: string; belongsTo: string }) => [hit.label, hit.belongsTo]).sort(), [['editor = Neovim', 'you'], ['test_framework = vitest (this project)', 'this project']]);
    const searchB = JSON.parse((await run(['search', 'vitest neovim', '--db', db, '--json', '--workspace', b])).stdout);
    assert.deepEqual(searchB.hits.map((hit: { label: string }) => hit.label), ['editor = Neovim']);
    const stats = JSON.parse((await run(['stats', '--db', db, '--json'])).stdout);
    assert.equal(stats.factsByScope.owner.confirmed, 1);
    assert.equal(stats.factsByScope['project:github.com/acme/app'].confirmed, 1);
    assert.equal(stats.facts.confirmed, 2);
  });
  it('answers a question about the project with a typed "yes": the fact is confirmed, announced as learned, and the model is not asked', async () => {
    const db = join(running.folder, 'store');
    const a = repo(join(running.folder, 'a'), 'git@github.com:acme/app.git');
    const chat = await run(['chat', '--db', db, '--model', 'stand-in', '--host', standIn.url, '--json', '--workspace', a, '--session', 'repo-chat'], 'we run the tests with pnpm test:unit\nyes\n');
    assert.equal(chat.code, 0, chat.stderr);
    const [asked, answered] = chat.stdout.trim().split('\n').map((line) => JSON.parse(line) as { reply: string; question: unknown; learned: unknown[]; report: unknown });
    assert.deepEqual(asked.question, { key: 'test_command', value: 'pnpm test:unit' });
    const requests = standIn.chatRequests.length;
    assert.match(answered.reply, /I'll remember test_command = pnpm test:unit/);
    assert.deepEqual(answered.learned, [{ key: 'test_command', value: 'pnpm test:unit', tier: 'B' }], 'the yes is announced with its undo');
    assert.equal(answered.report, null, 'answered from memory, without the model');
    assert.equal(standIn.chatRequests.length, requests);
    const stats = JSON.parse((await run(['stats', '--db', db, '--json'])).stdout);
    assert.equal(stats.factsByScope['project:github.com/acme/app'].confirmed, 1);
    assert.equal(stats.factsByScope['project:github.com/acme/app'].proposed ?? 0, 0);
    const human = await run(['chat', '--db', db, '--model', 'stand-in', '--host', standIn.url, '--workspace', a, '--session', 'repo-chat'], 'undo last learned\n');
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /no longer believe test_command = pnpm test:unit/, 'typed "undo last learned" takes back what the yes confirmed');
  });
});
