import * as vscode from 'vscode';
import type { StatementEvent, StatementRecord } from '../core/memory/statementRepository';
import { localDate } from './memoryTreeModel';
import type { MemoryHost } from './memoryHost';
import { isWrongArgs, receiptCommands } from './turnReceipt';

/**
 * The receipt's Wrong: one click retires the belief, with the reply it shaped as the evidence (as a correction in
 * words does), and offers an Undo. Returns the retired statement, for tests.
 */
export function registerReceiptCommands(memory: MemoryHost, log: vscode.LogOutputChannel): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(receiptCommands.wrong, async (args?: unknown): Promise<StatementRecord | undefined> => {
      const access = memory.access;
      if (access.state !== 'open') {
        void vscode.window.showErrorMessage(access.reason);
        return undefined;
      }
      if (!isWrongArgs(args)) {
        log.warn(`${receiptCommands.wrong}: called without a fact and a turn`);
        return undefined;
      }
      try {
        // A reply shown in the chat cannot be changed afterwards, so an old receipt may name a fact retired since:
        // its Wrong then says so and changes nothing, rather than act on a belief Engram no longer holds.
        const since = retiredSince(access.facts.get(args.statementId), access.facts.history(args.statementId));
        if (since) {
          void vscode.window.showInformationMessage(since);
          return undefined;
        }
        const { retired } = access.markWrong(args.statementId, args.turnId);
        void vscode.window.showInformationMessage(`Engram no longer believes ${retired.key} = ${retired.value}. This reply is kept as the reason.`, 'Undo').then((choice) => {
          if (choice !== 'Undo') return;
          const restored = access.facts.restore(retired.id, 'the owner undid "Wrong" from the memory receipt');
          void vscode.window.showInformationMessage(`Engram believes ${restored.key} = ${restored.value} again.`);
        });
        return retired;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        log.error(`${receiptCommands.wrong}: ${message}`);
        void vscode.window.showErrorMessage(`Engram: ${message}`);
        return undefined;
      }
    }),
  ];
}

/** "employer = Northwind Labs was retired since this reply (2026-12-01: …)", for a fact no longer confirmed; else undefined. */
export function retiredSince(statement: StatementRecord, history: readonly StatementEvent[]): string | undefined {
  if (statement.status === 'confirmed') return undefined;
  const last = history.filter((event) => event.statusAfter === statement.status).at(-1);
  const when = last ? ` (${localDate(last.at)}: ${last.reason})` : '';
  return `${statement.key} = ${statement.value} was ${statement.status} since this reply${when}. Engram no longer uses it; nothing was changed.`;
}
