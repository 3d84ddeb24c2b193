import assert from 'node:assert/strict';
import { join } from 'node:path';
import { engram } from '../support/engramCli';
import { useStandIn } from '../support/standInHarness';


interface ChatLine {
  readonly reply: string;
  readonly learned: { key: string; value: string; tier: string }[];
  readonly retired: { key: string; value: string }[];
  readonly question: { key: string; value: string } | null;
}

describe('engram chat: the owner retires a belief in their own words', () => {
  const running = useStandIn({ models: [{ name: 'stand-in', contextLength: 32768 }] });
  const standIn = running.standIn;

  /** One `chat --json` run over the given messages, one JSON line per turn. */
  async function chat(messages: string[]): Promise<ChatLine[]> {
    const run = await engram(['chat', '--db', join(running.folder, 'store'), '--model', 'stand-in', '--host', standIn.url, '--json'], `${messages.join('\n')}\n`);
    assert.equal(run.code, 0, run.stderr);
    return run.stdout.trim().split('\n').map((line) => JSON.parse(line) as ChatLine);
  }

  it('"I left Northwind … I\'m at Calico now" retires Northwind Labs though no reply voiced it, and Calico fills the slot', async () => {
    // A reply that names no employer: the correction cannot come from the assistant's words.
    standIn.setDefaultReply(() => ({ content: 'Nice to hear from you. What are you working on today?' }));
    const [first, second] = await chat(['Hi! My name is Priya. I work at Northwind Labs as a data engineer.', "I left Northwind last month, remember? I'm at Calico now.", 'yes']);
    assert.ok(first.learned.some((fact) => fact.key === 'employer' && fact.value === 'Northwind Labs'), JSON.stringify(first));
    assert.doesNotMatch(first.reply, /Northwind/, 'the stand-in never voices the belief, so only the owner\'s own words can retire it');
    assert.deepEqual(second.retired, [{ key: 'employer', value: 'Northwind Labs' }]);
    assert.ok(second.learned.some((fact) => fact.key === 'employer' && fact.value === 'Calico'), JSON.stringify(second));
  });

  it('"I moved from Chicago to Denver" and a diary\'s "Switched from bash to zsh" retire the old value and the new one fills the slot', async () => {
    standIn.setDefaultReply(() => ({ content: 'Thanks, noted. Anything else?' }));
    const lines = await chat(['I live in Chicago.', 'My shell is bash.', 'I moved from Chicago to Denver over the summer.', 'Switched from bash to zsh when I got the new laptop.']);
    assert.ok(lines[0].learned.some((fact) => fact.key === 'location' && fact.value === 'Chicago'), JSON.stringify(lines[0]));
    assert.ok(lines[1].learned.some((fact) => fact.key === 'shell' && fact.value.toLowerCase() === 'bash'), JSON.stringify(lines[1]));
    assert.deepEqual(lines[2].retired, [{ key: 'location', value: 'Chicago' }]);
    assert.ok(lines[2].learned.some((fact) => fact.key === 'location' && fact.value === 'Denver'), JSON.stringify(lines[2]));
    assert.deepEqual(lines[3].retired.map((fact) => fact.key), ['shell']);
    assert.ok(lines[3].learned.some((fact) => fact.key === 'shell' && fact.value === 'zsh'), JSON.stringify(lines[3]));
  });

  it('"my colleague left Stripe" and "if I left Stripe" retire nothing, though the reply voices Stripe', async () => {
    standIn.setDefaultReply(() => ({ content: 'How is Stripe treating you?' }));
    const lines = await chat(['I work at Stripe.', 'My colleague left Stripe last week.', 'If I left Stripe I would miss the team.']);
    assert.ok(lines[0].learned.some((fact) => fact.key === 'employer' && fact.value === 'Stripe'));
    assert.deepEqual(lines.slice(1).flatMap((line) => line.retired), []);
  });
});
