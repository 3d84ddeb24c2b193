// Memory is what the owner confirmed, in a real VS Code: learned in the turn with an undo, queued facts
// approved from the review command, and only confirmed facts in the prompt.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { EngramApi } from '../../src/host/extension';
import { chat, withStandInChat } from './engramApi';

describe('Engram confirmed memory', () => {
  const { ollama, api: connected } = withStandInChat();
  let api: EngramApi;
  before(() => (api = connected()));

  const confirmed = (): string[] => (api.facts?.list('confirmed') ?? []).map((s) => `${s.key}=${s.value}`).sort();

  it('learns "My name is Dana and I work at Fernhill" in the turn, announces it, and shows it in the tree', async () => {
    const outcome = await chat(api, '@engram My name is Dana and I work at Fernhill');
    assert.deepStrictEqual(outcome.learned.map((s) => `${s.key}=${s.value}`), ['name=Dana', 'employer=Fernhill']);
    assert.ok(confirmed().includes('name=Dana') && confirmed().includes('employer=Fernhill'), confirmed().join(', '));
    const tree = await vscode.commands.executeCommand<{ labels: string[] }>('engram.describeMemoryTree');
    assert.ok(tree.labels.some((label) => label.includes('Dana')), `tree: ${tree.labels.join(' | ')}`);
    assert.ok(tree.labels.some((label) => label.includes('Fernhill')), `tree: ${tree.labels.join(' | ')}`);
  });

  it('takes both back when the owner says "undo last learned"', async () => {
    const requestsBefore = ollama.chatRequests.length;
    const outcome = await chat(api, '@engram undo last learned');
    assert.match(outcome.reply, /no longer believe name = Dana, employer = Fernhill/);
    assert.strictEqual(ollama.chatRequests.length, requestsBefore, 'answered from memory, without the model');
    assert.ok(!confirmed().includes('name=Dana'));
    const retired = api.facts?.list('retired').find((s) => s.value === 'Fernhill');
    assert.ok(retired);
    assert.match(api.facts?.history(retired.id).at(-1)?.reason ?? '', /undo last learned/);
  });

  it('puts a queued fact approved through the review command into the next turn\'s prompt', async () => {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    const outcome = await chat(api, "@engram Hi! I'm Priya");
    assert.deepStrictEqual(outcome.learned, []);
    const queued = api.facts?.list('proposed').find((s) => s.key === 'name' && s.value === 'Priya');
    assert.ok(queued, 'the guess waits in the review queue');
    const firstPrompt = JSON.stringify(ollama.chatRequests.at(-1)?.messages ?? []);
    assert.ok(!firstPrompt.includes('name: Priya'), 'a proposal never reaches the prompt');

    const reviewed = await vscode.commands.executeCommand<{ approved: string[] }>('engram.reviewProposedFacts', { approve: [queued.id] });
    assert.deepStrictEqual(reviewed.approved, [queued.id]);
    await chat(api, '@engram what should you call me?');
    const nextPrompt = JSON.stringify(ollama.chatRequests.at(-1)?.messages ?? []);
    assert.ok(nextPrompt.includes('name: Priya'), nextPrompt.slice(0, 400));
  });

  it('asks once about an inferred fact, and a Yes confirms it', async () => {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    const outcome = await chat(api, '@engram I switched to Helix last week');
    assert.strictEqual(outcome.question?.key, 'editor');
    const second = await chat(api, '@engram I moved to Berlin last month');
    assert.strictEqual(second.question, undefined, 'one question per conversation');
    await vscode.commands.executeCommand('engram.answerQuestion', { statementId: outcome.question.id, answer: 'yes' });
    assert.ok(confirmed().includes('editor=Helix'));
  });
});
