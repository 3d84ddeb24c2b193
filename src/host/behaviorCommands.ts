import * as vscode from 'vscode';
import type { BehaviorRecord } from '../core/memory/behaviors';
import type { MemoryHost } from './memoryHost';

type BehaviorTarget = string | { readonly behavior: Pick<BehaviorRecord, 'id'> } | undefined;

function idOf(target: BehaviorTarget): string | undefined {
  return typeof target === 'string' ? target : target?.behavior.id;
}

/**
 * Lessons wait for the owner: approve or reject them from the Memory view or the Command Palette. And the
 * Undo of a correction, which brings the retired belief back.
 */
export function registerBehaviorCommands(memory: MemoryHost, log: vscode.LogOutputChannel): vscode.Disposable[] {
  const decide = (action: 'approve' | 'reject') => async (target?: BehaviorTarget): Promise<BehaviorRecord | undefined> => {
    if (memory.access.state !== 'open') return undefined;
    const book = memory.access.behaviors;
    let id = idOf(target);
    if (!id) {
      const proposed = book.list('proposed');
      if (proposed.length === 0) {
        void vscode.window.showInformationMessage('No lessons wait for your review.');
        return undefined;
      }
      const picked = await vscode.window.showQuickPick(
        proposed.map((behavior) => ({ label: behavior.text, detail: behavior.evidence.slice(0, 140), id: behavior.id })),
        { title: action === 'approve' ? 'Approve a lesson' : 'Reject a lesson' },
      );
      id = picked?.id;
    }
    if (!id) return undefined;
    try {
      const decided = book.decide(id, action, action === 'approve' ? 'approved by the owner' : 'rejected by the owner');
      vscode.window.setStatusBarMessage(`Engram: lesson ${action === 'approve' ? 'approved: it is in every prompt from now on' : 'rejected'}`, 4000);
      return decided;
    } catch (error) {
      log.error(String(error));
      void vscode.window.showErrorMessage(`Engram: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  };
  return [
    vscode.commands.registerCommand('engram.approveBehavior', decide('approve')),
    vscode.commands.registerCommand('engram.rejectBehavior', decide('reject')),
    vscode.commands.registerCommand('engram.undoCorrection', (argument?: { statementId?: string }) => {
      if (memory.access.state !== 'open' || !argument?.statementId) return undefined;
      const facts = memory.access.facts;
      const restored = facts.restore(argument.statementId, 'the owner undid the correction');
      void vscode.window.showInformationMessage(`Engram believes ${restored.key} = ${restored.value} again.`);
      return restored;
    }),
  ];
}
