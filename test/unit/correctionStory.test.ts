import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { answerFromPrompt } from '../support/promptReader';
import { engramWithInput } from '../support/storeFiles';
import { useStandIn } from '../support/standInHarness';

const cli = join(__dirname, '..', '..', '..', 'dist', 'cli.js');

interface TurnLine {
  turn: number;
  reply: string;
  learned: { key: string; value: string; tier: string }[];
  retired: { key: string; value: string }[];
  question: { key: string; value: string } | null;
  report: { blocks: { id: string; state: string }[] } | null;
}

/** `engram chat --json` in a child process (asynchronously: the stand-in answers from this process). */
async function chat(db: string, host: string, messages: string[]): Promise<{ code: number | null; turns: TurnLine[]; stderr: string }> {
  const run = await engramWithInput(['chat', '--db', db, '--model', 'stand-in', '--host', host, '--json'], messages.join('\n') + '\n');
  return { code: run.code, stderr: run.stderr, turns: run.stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as TurnLine) };
}

describe('a correction finishes the job (engram chat against a stand-in that answers from its prompt)', function () {
  this.timeout(60_000);
  before(() => assert.ok(existsSync(cli), 'dist/cli.js is missing: run npm run build'));
  const running = useStandIn({ models: [{ name: 'stand-in', contextLength: 32768 }] }, { beforeEach: (standIn) => standIn.setDefaultReply(answerFromPrompt) });
  const standIn = running.standIn;

  it("the seed's exchange: after the correction, the new employer, never the old one", async () => {
    const run = await chat(join(running.folder, 'store'), standIn.url, [
      'Hi! My name is Priya. I work at Northwind Labs as a data engineer.',
      'Where do I work?',
      "I left Northwind last month, remember? I'm at Calico now.",
      'Where do I work?',
      'Thanks. And where do I work again?',
    ]);
    assert.equal(run.code, 0, run.stderr);
    const [intro, asked, corrected, after, again] = run.turns;
    assert.deepEqual(intro.learned.map((f) => `${f.key}=${f.value}`).filter((f) => f.startsWith('employer')), ['employer=Northwind Labs']);
    assert.equal(asked.reply, 'You work at Northwind Labs.');
    assert.deepEqual(corrected.retired, [{ key: 'employer', value: 'Northwind Labs' }]);
    assert.ok(corrected.learned.some((f) => f.key === 'employer' && f.value === 'Calico'), JSON.stringify(corrected));
    assert.equal(corrected.question, null, 'the replacement said in the same breath is learned, not asked');
    assert.equal(after.reply, 'You work at Calico.');
    assert.equal(again.reply, 'You work at Calico.');
    assert.equal(after.report?.blocks.find((block) => block.id === 'stale')?.state, 'included', 'the prompt says Northwind is out of date');
  });

  it('a second story: a move corrected, and no prompt after it presents the old city as true', async () => {
    const run = await chat(join(running.folder, 'store'), standIn.url, [
      'I live in Lisbon.',
      'Where do I live?',
      "I don't live in Lisbon any more, remember? I live in Berlin now.",
      'Where do I live?',
    ]);
    assert.equal(run.code, 0, run.stderr);
    const [, asked, corrected, after] = run.turns;
    assert.equal(asked.reply, 'You live in Lisbon.');
    assert.deepEqual(corrected.retired, [{ key: 'location', value: 'Lisbon' }]);
    assert.ok(corrected.learned.some((f) => f.key === 'location' && f.value === 'Berlin'), JSON.stringify(corrected));
    assert.equal(after.reply, 'You live in Berlin.');
  });
});
