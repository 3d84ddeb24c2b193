// Engram's memory for VS Code's other agents: the MCP server definition VS Code starts, and tool reference names that
// no other registered tool shares (VS Code 1.139's built-in chat has a `memory` tool of its own).
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { EngramApi } from '../../src/host/extension';
import { mcpServerLabel } from '../../src/host/mcpServerProvider';
import { activeEngram, extensionId, waitFor } from './engramApi';

/**
 * The short reference name (`#name`) of a tool as VS Code holds it. The extension host's tool objects carry
 * `fullReferenceName` ("<extension id>/<name>", "<tool set>/<name>", or the bare name) beyond the typed API.
 */
function referenceName(tool: vscode.LanguageModelToolInformation): string | undefined {
  const full = (tool as { fullReferenceName?: unknown }).fullReferenceName;
  return typeof full === 'string' ? full.slice(full.lastIndexOf('/') + 1) : undefined;
}

const describeTool = (tool: vscode.LanguageModelToolInformation): string => `${tool.name} (${String((tool as { fullReferenceName?: unknown }).fullReferenceName)})`;

async function invoke(name: string, input: object): Promise<string> {
  const result = await Promise.race([
    vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${name} did not answer within 15 s`)), 15_000)),
  ]);
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

describe('Engram for other agents (MCP) and tool names', () => {
  const serverId = `${extensionId}/${mcpServerLabel}`;
  let api: EngramApi;

  before(async () => {
    api = await activeEngram();
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.mcp.stopServer', serverId);
  });

  it("registers its MCP server definition: VS Code starts it, lists its tools, and reaches the window's memory through it", async function () {
    this.timeout(90_000);
    // VS Code collects servers from providers a moment after they register (a 500 ms debounce): start it until it runs.
    const mcpTools = await waitFor(
      async () => {
        await vscode.commands.executeCommand('workbench.mcp.startServer', serverId, { waitForLiveTools: true, autoTrustChanges: true });
        const found = vscode.lm.tools.filter((tool) => tool.name.startsWith('mcp_') && /(memory_search|recall_conversation|propose_fact)$/.test(tool.name));
        return found.length >= 3 ? found : undefined;
      },
      "the MCP server's tools in vscode.lm.tools",
      60_000,
    );
    console.log(`MCP tools VS Code lists from Engram's server: ${mcpTools.map(describeTool).join(', ')}`);
    const byTool = (suffix: string): vscode.LanguageModelToolInformation => {
      const tool = mcpTools.find((candidate) => candidate.name.endsWith(suffix));
      assert.ok(tool, `${suffix} is served: ${mcpTools.map((candidate) => candidate.name).join(', ')}`);
      return tool;
    };
    assert.match(byTool('propose_fact').description, /NOT confirmed/);
    byTool('recall_conversation');

    // A fact the owner confirms in this window reaches an agent through the server (another process, the same store).
    const facts = api.facts;
    assert.ok(facts, 'the memory is open');
    const shell = facts.remember('shell', 'fish-mcp-check');
    await api.flush();
    assert.match(await invoke(byTool('memory_search').name, { query: 'shell' }), /shell: fish-mcp-check/);

    // What the agent proposes shows up here as a proposal from an agent, never as a confirmed fact.
    assert.match(await invoke(byTool('propose_fact').name, { key: 'timezone', value: 'Pacific/Chatham', evidence: 'I moved to the Chatham Islands' }), /not a confirmed fact/);
    const proposal = await waitFor(
      () => facts.list('proposed').find((statement) => statement.value === 'Pacific/Chatham'),
      "the agent's proposal in this window",
    );
    assert.strictEqual(proposal.origin, 'agent');
    assert.ok(!facts.list('confirmed').some((statement) => statement.value === 'Pacific/Chatham'));
    console.log(`the proposal's audit trail: ${facts.history(proposal.id)[0]?.reason}`);
    facts.reject(proposal.id, 'test cleanup');
    facts.retire(shell.id, 'test cleanup');
  });

  it('has no reference-name clash among vscode.lm.tools', async () => {
    const tools = await waitFor(() => (vscode.lm.tools.some((tool) => tool.name === 'memory_search') ? vscode.lm.tools : undefined), 'Engram tools in vscode.lm.tools');
    console.log(`vscode.lm.tools in this host: ${tools.map(describeTool).join(', ')}`);
    const ours = new Map([
      ['memory_search', 'engram'],
      ['recall_conversation', 'engramRecall'],
    ]);
    for (const [name, reference] of ours) {
      const tool = tools.find((candidate) => candidate.name === name);
      assert.ok(tool, `${name} is registered`);
      assert.strictEqual(referenceName(tool), reference, `${name} is #${reference} in this VS Code`);
      const clashes = tools.filter((other) => other.name !== name && referenceName(other) === reference).map((other) => other.name);
      assert.deepStrictEqual(clashes, [], `no other tool is #${reference}`);
      assert.match(tool.description, /confirmed|recorded/, `${name}'s model description says whose memory it is`);
    }
    const manifest = vscode.extensions.getExtension(extensionId)?.packageJSON as { contributes: { languageModelTools: { toolReferenceName: string }[] } };
    const others = tools.filter((tool) => !ours.has(tool.name)).map(referenceName);
    for (const { toolReferenceName } of manifest.contributes.languageModelTools) assert.ok(!others.includes(toolReferenceName), `#${toolReferenceName} is Engram's alone`);
    // Engram's MCP tools (named after the server, "engram-memory/…") clash with nothing either.
    const held = tools.map(referenceName);
    const engramServed = tools.filter((tool) => String((tool as { fullReferenceName?: unknown }).fullReferenceName).startsWith('engram-memory/'));
    assert.ok(engramServed.length >= 3, `the MCP server's tools are listed too: ${engramServed.map(describeTool).join(', ')}`);
    for (const tool of [...engramServed, ...tools.filter((candidate) => ours.has(candidate.name))]) {
      assert.strictEqual(held.filter((reference) => reference === referenceName(tool)).length, 1, `#${referenceName(tool)} (${tool.name}) is held by one tool only`);
    }
    const builtInMemory = tools.find((tool) => tool.name === 'copilot_memory');
    if (builtInMemory) assert.strictEqual(referenceName(builtInMemory), 'memory', "the built-in memory tool is #memory, so Engram's must not be");
  });
});
