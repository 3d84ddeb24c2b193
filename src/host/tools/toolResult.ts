import * as vscode from 'vscode';

/** A tool's answer as VS Code carries it: one text part. */
export function toolResult(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}
