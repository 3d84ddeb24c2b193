import * as vscode from 'vscode';
import type { StatementRecord } from '../core/memory/statementRepository';
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
