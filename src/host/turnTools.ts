import * as vscode from 'vscode';
import type { ToolCallRequest, ToolSpec } from '../core/llm/chatModel';
import type { MemoryToolRunner, ToolOutcome } from '../core/turn/memoryTools';
import type { ToolRunner, TurnToolContext } from '../core/turn/turnModel';
import { sameJobInVsCode, WorkspaceToolRunner, workspaceToolNames } from '../core/turn/workspaceTools';
import { EditorToolRunner } from './editorTools';
import { readToolSettings } from './settings';
import { vscodeWorkspaceFiles } from './vscodeWorkspace';

/** What a person reads while Engram's own workspace tools run (VS Code shows its own tools' calls itself). */
function progressOf(call: ToolCallRequest): string | undefined {
  const input = call.arguments as Record<string, unknown>;
  if (call.name === workspaceToolNames.readFile) return `Reading ${String(input.path ?? 'a file')}…`;
  if (call.name === workspaceToolNames.findFiles) return `Finding ${String(input.pattern ?? 'files')}…`;
  if (call.name === workspaceToolNames.getErrors) return `Reading the problems${input.path ? ` of ${String(input.path)}` : ''}…`;
  return undefined;
}

/**
 * The tools of one @engram request: Engram's memory tools (run in the core, so what they return belongs to the
 * turn), VS Code's own tools as the settings allow, and Engram's read-only workspace tools where VS Code offers no
 * tool for the same job. Built per request: VS Code's tools need that request's invocation token.
 */
class RequestTools implements ToolRunner {
  readonly alwaysOffered: readonly string[];

  constructor(
    private readonly memory: MemoryToolRunner,
    private readonly editor: EditorToolRunner,
    private readonly workspace: WorkspaceToolRunner,
    private readonly progress: (message: string) => void,
  ) {
    this.alwaysOffered = memory.alwaysOffered;
  }

  specs(): readonly ToolSpec[] {
    return [...this.memory.specs(), ...this.editor.specs(), ...this.workspace.specs()];
  }

  withheld(): readonly { name: string; why: string }[] {
    return this.editor.withheld();
  }

  prefill(name: string, message: string): ToolCallRequest | undefined {
    return this.memory.prefill(name, message);
  }

  async run(call: ToolCallRequest, signal?: AbortSignal, turn?: TurnToolContext): Promise<ToolOutcome> {
    // The turn's context goes with the call: recall skips what this prompt already carries (the message itself too).
    if (this.memory.handles(call.name)) return this.memory.run(call, signal, turn);
    if (this.workspace.handles(call.name)) {
      const said = progressOf(call);
      if (said) this.progress(said);
      return this.workspace.run(call);
    }
    if (this.editor.handles(call.name)) return this.editor.run(call);
    const names = this.specs().map((spec) => spec.name).join(', ');
    return { text: `Error: there is no tool named "${call.name}" in this turn. Call one of: ${names}.`, retrieval: [] };
  }
}

/** Builds each request's tools, and logs once what VS Code's tool list really holds (it varies between hosts). */
export class TurnToolCatalogue {
  private logged = false;

  constructor(
    private readonly memory: MemoryToolRunner,
    private readonly ownNames: ReadonlySet<string>,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  forRequest(request: vscode.ChatRequest, token: vscode.CancellationToken, progress: (message: string) => void, referenced: readonly string[]): { tools: ToolRunner; cap: number } {
    if (!this.logged) {
      this.logged = true;
      this.log.info(`VS Code offers ${vscode.lm.tools.length} language-model tools: ${vscode.lm.tools.map((tool) => tool.name).join(', ')}`);
    }
    return this.build(request.toolInvocationToken, token, progress, referenced);
  }

  /** The catalogue as a request would get it, for the warm-up: its definitions are counted before the first turn. */
  forWarmUp(): ToolRunner {
    return this.build(undefined, new vscode.CancellationTokenSource().token, () => undefined, []).tools;
  }

  private build(invocationToken: vscode.ChatParticipantToolToken | undefined, token: vscode.CancellationToken, progress: (message: string) => void, referenced: readonly string[]): { tools: ToolRunner; cap: number } {
    const settings = readToolSettings();
    const editor = new EditorToolRunner(invocationToken, token, settings, this.ownNames, referenced);
    const offered = new Set(editor.specs().map((spec) => spec.name));
    // One tool per job: Engram's own read tool steps aside where VS Code's is offered.
    const omit = new Set(Object.entries(sameJobInVsCode).filter(([, theirs]) => offered.has(theirs)).map(([ours]) => ours));
    const workspace = new WorkspaceToolRunner(vscodeWorkspaceFiles, omit);
    return { tools: new RequestTools(this.memory, editor, workspace, progress), cap: settings.maxOffered };
  }
}
