import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { FakeOllama } from '../support/fakeOllama';
import { tempFolder } from '../support/tempStore';

/** The CLI as it ships (run `npm run build` first), in a child process; the stand-in runs in this one. */
const cli = join(__dirname, '..', '..', '..', 'dist', 'cli.js');

async function engram(args: string[], stdin: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdin.end(stdin);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout, stderr };
}

interface ChatLine {
  readonly reply: string;
  readonly learned: { key: string; value: string; tier: string }[];
  readonly retired: { key: string; value: string }[];
  readonly question: { key: string; value: string } | null;
}

describe('engram chat: the owner retires a belief in their own words', () => {
  const standIn = new FakeOllama({ models: [{ name: 'stand-in', contextLength: 32768 }] });
  let temp: ReturnType<typeof tempFolder>;
  before(() => standIn.start());
  after(() => standIn.stop());
  beforeEach(() => {
    standIn.reset();
    temp = tempFolder();
  });
  afterEach(() => temp.remove());

  it('"I left Northwind … I\'m at Calico now" retires Northwind Labs though no reply voiced it, and Calico fills the slot', async () => {
    // A reply that names no employer: the correction cannot come from the assistant's words.
    standIn.setDefaultReply(() => ({ content: 'Nice to hear from you. What are you working on today?' }));
    const db = join(temp.folder, 'store');
    const run = await engram(
      ['chat', '--db', db, '--model', 'stand-in', '--host', standIn.url, '--json'],
      "Hi! My name is Priya. I work at Northwind Labs as a data engineer.\nI left Northwind last month, remember? I'm at Calico now.\nyes\n",
    );
    assert.equal(run.code, 0, run.stderr);
    const [first, second] = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as ChatLine);
    assert.ok(first.learned.some((fact) => fact.key === 'employer' && fact.value === 'Northwind Labs'), JSON.stringify(first));
    assert.doesNotMatch(first.reply, /Northwind/, 'the stand-in never voices the belief, so only the owner\'s own words can retire it');
    assert.deepEqual(second.retired, [{ key: 'employer', value: 'Northwind Labs' }]);
    assert.ok(second.learned.some((fact) => fact.key === 'employer' && fact.value === 'Calico'), JSON.stringify(second));
  });

  it('"my colleague left Stripe" and "if I left Stripe" retire nothing, though the reply voices Stripe', async () => {
    standIn.setDefaultReply(() => ({ content: 'How is Stripe treating you?' }));
    const db = join(temp.folder, 'store');
    const run = await engram(
      ['chat', '--db', db, '--model', 'stand-in', '--host', standIn.url, '--json'],
      'I work at Stripe.\nMy colleague left Stripe last week.\nIf I left Stripe I would miss the team.\n',
    );
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as ChatLine);
    assert.ok(lines[0].learned.some((fact) => fact.key === 'employer' && fact.value === 'Stripe'));
    assert.deepEqual(lines.slice(1).flatMap((line) => line.retired), []);
  });
});
