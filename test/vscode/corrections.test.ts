// Behaviour as memory, in a real VS Code: the seed's exchange retires the Northwind belief with the user's words
// as the reason, the Memory view shows it retired, the next prompt no longer carries it, and a lesson waits.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { EngramApi } from '../../src/host/extension';
import { answerFromPrompt } from '../support/promptReader';
import { chat, withStandInChat } from './engramApi';

describe('Engram corrections', () => {
  const { ollama, api: connected } = withStandInChat();
  let api: EngramApi;
  before(() => (api = connected()));

  it('retires the belief the assistant voiced when the user says "I left Northwind last month, remember?"', async () => {
    const learned = await chat(api, '@engram I work at Northwind Labs');
    assert.deepStrictEqual(learned.learned.map((s) => `${s.key}=${s.value}`), ['employer=Northwind Labs']);
    ollama.enqueue({ content: 'How are you finding it compared to your work at Northwind Labs?' });
    await chat(api, '@engram Morning! Back on the dbt migration today.');

    const words = "I left Northwind last month, remember? I'm at Calico now.";
    await chat(api, `@engram ${words}`);
    const northwind = api.facts?.list('retired').find((s) => s.value === 'Northwind Labs');
    assert.ok(northwind, 'the Northwind belief is retired');
    const reason = api.facts?.history(northwind.id).at(-1)?.reason ?? '';
    assert.ok(reason.includes(words), `the audit cites the user's words: ${reason}`);
    assert.ok(reason.includes('How are you finding it compared to your work at Northwind Labs?'), 'and the assistant\'s');
    const tree = await vscode.commands.executeCommand<{ labels: string[] }>('engram.describeMemoryTree');
    assert.ok(tree.labels.some((label) => label.includes('Northwind Labs')), 'the Memory view lists it (under Retired)');
    assert.ok(tree.labels.some((label) => /Check the user's current employer/.test(label)), 'a lesson is proposed');

    const next = await chat(api, '@engram what should I name the new repo?');
    const profile = next.report?.blocks.find((block) => block.id === 'profile');
    assert.ok(!(profile?.text ?? '').includes('Northwind'), 'the next prompt no longer carries the retired belief');
    assert.ok(!JSON.stringify(ollama.chatRequests.at(-1)?.messages ?? []).includes('employer: Northwind'));
  });

  it('puts a lesson the owner approved into the next prompt\'s behaviours block', async () => {
    const lesson = api.behaviors?.list('proposed').find((b) => b.text.includes('current employer'));
    assert.ok(lesson, 'the correction proposed a lesson');
    const before = await chat(api, '@engram ok');
    assert.strictEqual(before.report?.blocks.find((block) => block.id === 'behaviours')?.state, 'absent', 'a proposed lesson is not used');
    await vscode.commands.executeCommand('engram.approveBehavior', lesson.id);
    const after = await chat(api, '@engram and now?');
    const behaviours = after.report?.blocks.find((block) => block.id === 'behaviours');
    assert.strictEqual(behaviours?.state, 'included');
    assert.match(behaviours?.text ?? '', /Check the user's current employer/);
  });

  it("answers \"Where do I work?\" after the seed's correction with the new employer, never the old one", async () => {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    ollama.setDefaultReply(answerFromPrompt);
    try {
      await chat(api, '@engram Hi! My name is Priya. I work at Initech Labs as a data engineer.');
      const before = await chat(api, '@engram Where do I work?');
      assert.strictEqual(before.reply, 'You work at Initech Labs.');
      const corrected = await chat(api, "@engram I left Initech last month, remember? I'm at Globex now.");
      assert.ok(api.facts?.list('retired').some((s) => s.value === 'Initech Labs'), 'the old employer is retired');
      assert.ok(corrected.learned.some((s) => s.key === 'employer' && s.value === 'Globex'), 'the new one is learned with the correction');
      assert.strictEqual(corrected.question, undefined);
      const after = await chat(api, '@engram Where do I work?');
      assert.strictEqual(after.reply, 'You work at Globex.');
      const stale = after.report?.blocks.find((block) => block.id === 'stale');
      assert.strictEqual(stale?.state, 'included', 'the prompt says the old employer is out of date');
      assert.match(stale?.text ?? '', /No longer true: employer = Initech Labs/);
    } finally {
      ollama.clearScript();
    }
  });
});
