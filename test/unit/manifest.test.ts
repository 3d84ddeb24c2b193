// What package.json promises VS Code, checked against the core it describes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { memoryToolNames, memoryToolSpecs } from '../../src/core/turn/memoryTools';

interface Manifest {
  extensionKind?: string[];
  contributes: {
    languageModelTools: { name: string; toolReferenceName: string; modelDescription: string; inputSchema: object }[];
    mcpServerDefinitionProviders?: { id: string; label: string }[];
  };
}

const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as Manifest;

describe('package.json', () => {
  it("declares the core's two tools, with its input schemas, under reference names that say Engram", () => {
    const tools = manifest.contributes.languageModelTools;
    assert.deepEqual(tools.map((tool) => tool.name), Object.values(memoryToolNames));
    for (const spec of memoryToolSpecs) assert.deepEqual(tools.find((tool) => tool.name === spec.name)?.inputSchema, spec.inputSchema, spec.name);
    // VS Code 1.139's built-in chat contributes copilot_memory as #memory: Engram's must be told apart.
    assert.deepEqual(tools.map((tool) => tool.toolReferenceName), ['engram', 'engramRecall']);
    assert.match(tools[0].modelDescription, /the user's confirmed facts, reviewed by the user/);
    assert.match(tools[0].modelDescription, /not notes kept in files/);
  });

  it('offers an MCP server definition provider and prefers the UI side under Remote', () => {
    assert.deepEqual(manifest.contributes.mcpServerDefinitionProviders, [{ id: 'engram.memory', label: 'Engram memory' }]);
    assert.deepEqual(manifest.extensionKind, ['ui', 'workspace']);
  });
});
