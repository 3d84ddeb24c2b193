import assert from 'node:assert/strict';
import { chooseTools } from '../../src/core/turn/toolChoice';
import { judgeTool } from '../../src/core/turn/toolPolicy';

const tool = (name: string, tags: string[] = []) => ({ name, tags });

describe("which of VS Code's tools @engram offers", () => {
  it('offers read-only tools by default, edits and terminal only when allowed by name, tag or *', () => {
    for (const name of ['copilot_readFile', 'copilot_findTextInFiles', 'copilot_getErrors', 'vscode_listCodeUsages']) assert.equal(judgeTool(tool(name), []).allowed, true, name);
    for (const name of ['copilot_replaceString', 'run_in_terminal', 'copilot_applyPatch', 'runTests']) {
      const verdict = judgeTool(tool(name), []);
      assert.equal(verdict.allowed, false, name);
      assert.match(verdict.why, /engram\.tools\.allow/);
    }
    assert.equal(judgeTool(tool('run_in_terminal'), ['run_in_terminal']).allowed, true);
    assert.equal(judgeTool(tool('copilot_replaceString', ['vscode_editing']), ['tag:vscode_editing']).allowed, true);
    assert.equal(judgeTool(tool('runTests'), ['*']).allowed, true);
  });

  it("never offers VS Code's agent machinery unless it is named", () => {
    for (const name of ['vscode_get_confirmation', 'inline_chat_exit', 'runSubagent', 'vscode_editFile_internal', 'task_complete']) {
      assert.equal(judgeTool(tool(name), ['*']).allowed, false, name);
    }
    assert.equal(judgeTool(tool('runSubagent'), ['runSubagent']).allowed, true);
  });

  it('keeps required tools even past the cap, and never more than 128', () => {
    const available = Array.from({ length: 200 }, (_, i) => ({ name: `tool_${i}`, description: '', inputSchema: {} }));
    const capped = chooseTools({ available, message: 'hello', required: [], cap: 500 });
    assert.equal(capped.offered.length, 128);
    const required = chooseTools({ available, message: 'hello', required: ['tool_150', 'tool_151'], cap: 1 });
    assert.deepEqual(required.offered.map((spec) => spec.name), ['tool_150', 'tool_151']);
    assert.equal(required.left.length, 198);
  });

  it('leaves out a tool whose long definition would pass the share for definitions, and says so', () => {
    const spec = (name: string, description: string) => ({ name, description, inputSchema: {} });
    const choice = chooseTools({
      available: [spec('copilot_readFile', 'short'), spec('vscode_listCodeUsages', 'long '.repeat(400)), spec('copilot_findFiles', 'short')],
      message: 'where is it used?',
      required: [],
      definitions: { budget: 100, cost: (candidate) => candidate.description.split(' ').length },
    });
    assert.deepEqual(choice.offered.map((candidate) => candidate.name), ['copilot_findFiles', 'copilot_readFile'], 'by relevance: "where" asks for finding');
    assert.match(choice.left.find((tool) => tool.name === 'vscode_listCodeUsages')?.why ?? '', /definition would pass the 100 tokens/);
  });
});
