/**
 * Which of the editor's tools @engram may offer its model. Read-only tools (read, find, search, list, errors,
 * usages) are offered by default; tools that edit files or run commands only when the owner allows them by name or
 * tag (`engram.tools.allow`), and VS Code still asks before each one runs. Tools of VS Code's own agent machinery
 * (confirmations, subagents, plans) are never offered unless named.
 */

/** Tools known to only read: VS Code 1.139's built-in chat tools and the core's own. Checked by exact name. */
const readOnlyTools = new Set([
  'copilot_readFile',
  'copilot_findTextInFiles',
  'copilot_findFiles',
  'copilot_listDirectory',
  'copilot_getErrors',
  'copilot_searchCodebase',
  'copilot_searchWorkspaceSymbols',
  'copilot_listCodeUsages',
  'copilot_getChangedFiles',
  'copilot_readNotebookCellOutput',
  'copilot_testFailure',
  'vscode_listCodeUsages',
  'testFailure',
  'get_terminal_output',
  'terminal_last_command',
  'terminal_selection',
  'get_task_output',
]);

/** VS Code's agent machinery: meaningful inside Copilot's own agent, not as a step of another participant's answer. */
const machinery = /(_internal$|^inline_chat_|confirmation|^task_complete$|^runSubagent$|^setup_tools_|^vscode_askQuestions$|^vscode_reviewPlan$|^manage_todo_list$)/;

export interface EditorTool {
  readonly name: string;
  readonly tags: readonly string[];
}

export type ToolVerdict = { readonly allowed: true; readonly why: string } | { readonly allowed: false; readonly why: string };

/** Whether a tool may be offered, and why: read-only by default, the rest only as `allow` says. */
export function judgeTool(tool: EditorTool, allow: readonly string[]): ToolVerdict {
  const named = allow.includes(tool.name);
  const tagged = tool.tags.find((tag) => allow.includes(`tag:${tag}`));
  if (named) return { allowed: true, why: 'allowed by name in engram.tools.allow' };
  if (machinery.test(tool.name)) return { allowed: false, why: "part of VS Code's own agent, not offered" };
  if (readOnlyTools.has(tool.name)) return { allowed: true, why: 'read-only' };
  if (tagged) return { allowed: true, why: `allowed by tag:${tagged} in engram.tools.allow` };
  if (allow.includes('*')) return { allowed: true, why: 'allowed by * in engram.tools.allow' };
  return { allowed: false, why: 'may edit files or run commands: add it to engram.tools.allow to offer it' };
}

export function isReadOnlyTool(name: string): boolean {
  return readOnlyTools.has(name);
}
