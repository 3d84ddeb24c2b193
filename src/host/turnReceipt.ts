import * as vscode from 'vscode';
import type { ContextReport } from '../core/context/contextReport';
import { isEmptyReceipt, receiptOf, type MemoryReceipt } from '../core/turn/memoryReceipt';

/** The commands the receipt's links run; a trusted Markdown string enables exactly these and no other. */
export const receiptCommands = {
  wrong: 'engram.markWrong',
  source: 'engram.showSourceTurn',
  context: 'engram.showContext',
  memoryView: 'engram.memory.focus',
} as const;

/** Arguments of the receipt's Wrong link: the fact, and the turn whose reply it shaped. */
export interface WrongArgs {
  readonly statementId: string;
  readonly turnId: string;
}

export function isWrongArgs(value: unknown): value is WrongArgs {
  const args = value as Partial<WrongArgs> | null;
  return !!args && typeof args.statementId === 'string' && typeof args.turnId === 'string';
}

/** Memory text in a link label: every Markdown-significant character escaped, so a fact cannot inject a link. */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, (character) => `\\${character}`).replace(/\s+/g, ' ');
}

/** A command link for trusted chat Markdown (the command must be among the string's enabled ones). */
export function commandLink(label: string, command: string, args: unknown[], title: string): string {
  return `[${label}](command:${command}?${encodeURIComponent(JSON.stringify(args))} "${title}")`;
}

const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;

/**
 * One compact line under the reply: which confirmed facts, behaviours, summary and earlier turns its prompt carried
 * or its tools returned, each openable, each fact with a one-click Wrong, and the context panel on this turn.
 */
export function receiptMarkdown(receipt: MemoryReceipt): vscode.MarkdownString {
  const parts: string[] = receipt.facts.map(
    (fact) =>
      `${commandLink(escapeMarkdown(fact.label), receiptCommands.source, [fact.id], 'Where Engram learned this')} ` +
      `(${commandLink('Wrong', receiptCommands.wrong, [{ statementId: fact.id, turnId: receipt.turnId } satisfies WrongArgs], 'Retire this belief: this reply is the evidence')})`,
  );
  if (receipt.behaviours.length) parts.push(commandLink(plural(receipt.behaviours.length, 'behaviour'), receiptCommands.memoryView, [], 'The behaviours you approved, in the Memory view'));
  if (receipt.summary) parts.push(commandLink('the conversation summary', receiptCommands.context, [receipt.turnId], 'The summary this prompt carried'));
  if (receipt.turns.length) parts.push(commandLink(plural(receipt.turns.length, 'earlier turn'), receiptCommands.context, [receipt.turnId], 'The earlier turns a tool returned, in the context panel'));
  const used = isEmptyReceipt(receipt) ? 'none' : parts.join(' · ');
  const markdown = new vscode.MarkdownString(`\n\n---\n$(database) **Memory used:** ${used} · ${commandLink('Context', receiptCommands.context, [receipt.turnId], 'Everything this prompt carried, in the context panel')}`, true);
  markdown.isTrusted = { enabledCommands: Object.values(receiptCommands) };
  return markdown;
}

/** The receipt of a reply, when it had a report (answers given without the model carry none). */
export function renderReceipt(stream: vscode.ChatResponseStream, report: ContextReport | undefined): { receipt: MemoryReceipt; markdown: string } | undefined {
  if (!report) return undefined;
  const receipt = receiptOf(report);
  const markdown = receiptMarkdown(receipt);
  stream.markdown(markdown);
  return { receipt, markdown: markdown.value };
}
