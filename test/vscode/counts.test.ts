// One source for every count, in a real VS Code: Review Proposed Facts offers what the badge counts (the owner's and this
// project's proposals), /help, the tree and the graph say the same numbers after a Wrong, an old receipt's Wrong on a
// fact retired since changes nothing, and the Context and Memory Graph panels come back after a window reload.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { MemoryCounts } from '../../src/core/project/memoryOverview';
import type { StatementRecord } from '../../src/core/memory/statementRepository';
import type { EngramApi } from '../../src/host/extension';
import { chat, extensionId, waitFor, withStandInChat } from './engramApi';

type Tree = { labels: string[]; proposed: number; counts?: MemoryCounts; groups: Record<string, string> };
type Listed = { listed: { id: string; label: string; description: string }[] };

const within = <T>(promise: Promise<T>, what: string, ms = 20_000): Promise<T> =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms))]);

describe('Engram counts and panels', () => {
  const { ollama, api: connected } = withStandInChat();
  let api: EngramApi;
  before(() => (api = connected()));

  it('reviews the project proposals beside the owner\'s, and badge, review, /help, tree and graph agree after a Wrong', async function () {
    this.timeout(120_000);
    const employer = await vscode.commands.executeCommand<StatementRecord>('engram.remember', 'employer', 'Countwell Labs');
    const proposal = await chat(api, '@engram we run the tests with pnpm test:unit');
    const projectProposal = proposal.question ?? api.facts?.list('proposed').find((s) => s.value === 'pnpm test:unit');
    assert.ok(projectProposal, 'the project fact is proposed');
    ollama.enqueue({ chunks: ['You work at Countwell Labs.'] });
    const answered = await chat(api, '@engram where do I work?');
    const receipt = answered.receipt?.receipt;
    if (!receipt) assert.fail(`no receipt under the reply: ${answered.error ?? answered.reply}`);
    assert.ok(receipt.facts.some((fact) => fact.id === employer.id), `the receipt names the fact: ${answered.receipt?.markdown}`);

    const retired = await vscode.commands.executeCommand<StatementRecord>('engram.markWrong', { statementId: employer.id, turnId: receipt.turnId });
    assert.strictEqual(retired?.status, 'retired');
    // The old receipt still has its link (a shown reply cannot change): clicking it again says "retired since", and acts on nothing.
    const events = api.facts?.history(employer.id).length;
    assert.strictEqual(await vscode.commands.executeCommand('engram.markWrong', { statementId: employer.id, turnId: receipt.turnId }), undefined);
    assert.strictEqual(api.facts?.history(employer.id).length, events, 'no new event on a fact retired since the receipt');

    const tree = await vscode.commands.executeCommand<Tree>('engram.describeMemoryTree');
    const counts = tree.counts;
    assert.ok(counts, 'the tree reads the overview');
    const review = await vscode.commands.executeCommand<Listed>('engram.reviewProposedFacts', { list: true });
    const row = review.listed.find((item) => item.id === projectProposal.id);
    assert.match(row?.description ?? '', /^this project \(/, `the project proposal is offered, saying whom it is about: ${JSON.stringify(review.listed)}`);
    assert.ok(review.listed.every((item) => /^(about you|this project \()/.test(item.description)), 'each row says its scope');
    assert.strictEqual(review.listed.length, tree.proposed, 'the review offers what the badge counts');
    assert.strictEqual(tree.proposed, counts.waiting);
    assert.strictEqual(tree.groups.Confirmed, String(counts.confirmed), `the tree's Confirmed row: ${JSON.stringify(tree.groups)}`);
    const project = counts.projects[0];
    assert.ok(project, 'the workspace folder is a project');
    assert.match(tree.groups[`This project: ${project.label}`] ?? '', new RegExp(`^${project.confirmed} confirmed`));

    const help = await chat(api, '@engram /help');
    const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
    assert.ok(help.reply.includes(`${plural(counts.confirmed, 'confirmed fact', 'confirmed facts')} about you`), help.reply);
    assert.ok(help.reply.includes(plural(counts.waiting, 'fact waits for your review', 'facts wait for your review')), help.reply);

    await vscode.commands.executeCommand('engram.showMemoryGraph');
    const graph = api.memoryGraph();
    assert.ok(graph, 'the graph is open');
    await within(graph.whenReady(), 'the graph page');
    const drawn = await waitFor(() => graph.lastGraph, 'the graph');
    assert.strictEqual(drawn.counts.facts, counts.confirmed, 'the graph counts what the tree counts');
    assert.ok(drawn.nodes[0]?.detail?.startsWith(plural(counts.confirmed, 'confirmed fact', 'confirmed facts')), drawn.nodes[0]?.detail);
    graph.dispose();
  });

  it('restores the Context and Memory Graph panels after a window reload (simulated through the serializer VS Code calls)', async function () {
    this.timeout(90_000);
    const manifest = vscode.extensions.getExtension(extensionId)?.packageJSON as { activationEvents: string[] };
    for (const viewType of ['engram.context', 'engram.memoryGraph']) assert.ok(manifest.activationEvents.includes(`onWebviewPanel:${viewType}`), `activates for ${viewType}`);

    await vscode.commands.executeCommand('engram.showContext');
    const before = api.contextPanel();
    assert.ok(before, 'the context panel is open');
    await within(before.whenReady(), 'the context page');
    // A reload ends the extension host with its panels; VS Code keeps the tab and, in the new host, hands a fresh empty
    // panel of the same view type to the registered serializer. Both steps, in this host: close it, revive one.
    before.dispose();
    assert.strictEqual(api.contextPanel(), undefined);
    const revived = vscode.window.createWebviewPanel('engram.context', 'Engram: Context', vscode.ViewColumn.Beside, {});
    await api.restorePanel(revived);
    const restored = api.contextPanel();
    assert.strictEqual(restored?.panel, revived, 'the revived tab is the context panel again');
    await within(restored.whenReady(), 'the restored page says ready (its script runs under the restored options)');
    const posted = await waitFor(() => (restored.lastPosted?.type === 'report' ? restored.lastPosted : undefined), 'a report posted to the restored page');
    assert.ok(posted.report && posted.turns.length > 0, 'it shows the latest turn');
    restored.dispose();

    const revivedGraph = vscode.window.createWebviewPanel('engram.memoryGraph', 'Engram: Memory Graph', vscode.ViewColumn.Active, {});
    await api.restorePanel(revivedGraph);
    const graph = api.memoryGraph();
    assert.strictEqual(graph?.panel, revivedGraph);
    await within(graph.whenReady(), 'the restored graph page');
    assert.strictEqual((await waitFor(() => graph.lastGraph, 'the restored graph')).rootId, 'you');
    graph.dispose();
  });
});
