import * as vscode from 'vscode';
import { memoryOverview } from '../core/project/memoryOverview';
import type { ProjectScope } from '../core/project/projectScope';
import type { StatementRecord } from '../core/memory/statementRepository';
import type { EngramMemory } from '../core/turn/engramMemory';
import { describeOrigin, factLabel, truncate } from './memoryTreeModel';

export interface ReviewRequest {
  readonly approve?: readonly string[];
  readonly reject?: readonly string[];
  /** Returns what the picker would offer, without showing it (for the extension's own tests). */
  readonly list?: boolean;
}

export interface ReviewResult {
  approved: string[];
  rejected: string[];
  /** With `list`: the rows the picker offers, in its order. */
  listed?: { readonly id: string; readonly label: string; readonly description: string }[];
}

/** One row of the review: a proposal (the owner's or a project's), or a project fact whose cited lines changed. */
interface ReviewItem extends vscode.QuickPickItem {
  readonly statement: StatementRecord;
  /** A project fact that needs a look: approving re-cites it as the lines are now; rejecting retires it. */
  readonly look?: ProjectScope;
}

/**
 * Everything that waits for the owner, exactly what the Memory view's badge counts (memoryOverview): the owner's
 * proposals, each project's proposals, and the project facts that need a look, each row saying whom it is about.
 */
function reviewItems(memory: EngramMemory, scopes: readonly ProjectScope[]): ReviewItem[] {
  const overview = memoryOverview(memory.facts, { memory: memory.projects, scopes });
  const row = (statement: StatementRecord, about: string, look?: ProjectScope): ReviewItem => ({
    label: factLabel(statement), description: about, detail: truncate(`${describeOrigin(statement)}: ${statement.sourceWords}`, 100), statement, look,
  });
  return [
    ...overview.owner.proposed.map((statement) => row(statement, `about you · tier ${statement.tier}`)),
    ...overview.projects.flatMap(({ scope, now, proposed }) => [
      ...proposed.map((statement) => row(statement, `this project (${scope.label}) · tier ${statement.tier}`)),
      ...now.needsLook.map(({ fact, state }) => row(fact, `this project (${scope.label}) · needs a look: ${fact.citation?.path ?? 'its file'} ${state === 'changed' ? 'changed' : 'is gone'}`, scope)),
    ]),
  ];
}

const approvedReason = 'approved by the owner (Review Proposed Facts)';
const rejectedReason = 'rejected by the owner (Review Proposed Facts)';

function approve(memory: EngramMemory, item: ReviewItem): string {
  return item.look ? memory.projects.confirmAfterLook(item.look, item.statement.id).id : memory.facts.approve(item.statement.id, approvedReason).id;
}

function reject(memory: EngramMemory, item: ReviewItem): string {
  // A confirmed fact is retired (the owner no longer holds it true); a proposal is rejected (never proposed again).
  return item.look
    ? memory.facts.retire(item.statement.id, 'retired by the owner after its cited lines changed (Review Proposed Facts)').id
    : memory.facts.reject(item.statement.id, rejectedReason).id;
}

/** Review Proposed Facts: several at once, approve, reject or edit; with a request, without the picker. */
export async function reviewProposedFacts(memory: EngramMemory, scopes: readonly ProjectScope[], request?: ReviewRequest): Promise<ReviewResult> {
  const result: ReviewResult = { approved: [], rejected: [] };
  const items = reviewItems(memory, scopes);
  if (request?.list) return { ...result, listed: items.map((item) => ({ id: item.statement.id, label: item.label, description: item.description ?? '' })) };
  if (request) {
    // Check the whole batch first, so a stale id does not leave it half applied.
    const byId = new Map(items.map((item) => [item.statement.id, item]));
    const pick = (id: string): ReviewItem => {
      const item = byId.get(id);
      if (!item) throw new Error(`${id} does not wait for review (it was decided already, or it is not in memory)`);
      return item;
    };
    const approving = (request.approve ?? []).map(pick);
    const rejecting = (request.reject ?? []).map(pick);
    for (const item of approving) result.approved.push(approve(memory, item));
    for (const item of rejecting) result.rejected.push(reject(memory, item));
    return result;
  }
  if (items.length === 0) {
    void vscode.window.showInformationMessage('No facts wait for your review.');
    return result;
  }
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Review proposed facts',
    placeHolder: 'Choose the facts to approve, reject or edit; Engram uses none of them until you approve',
    canPickMany: true,
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (!picked?.length) return result;
  const action = await vscode.window.showQuickPick(
    [
      { label: 'Approve', detail: 'Engram may use them from the next turn', action: 'approve' as const },
      { label: 'Reject', detail: 'Engram will not propose them again from the chat', action: 'reject' as const },
      { label: 'Edit value…', detail: 'Correct each value, then approve it', action: 'edit' as const },
    ],
    { title: `${picked.length} selected: what should Engram do?` },
  );
  for (const item of action ? picked : []) {
    if (action?.action === 'reject') {
      result.rejected.push(reject(memory, item));
      continue;
    }
    if (action?.action === 'edit') {
      const value = await vscode.window.showInputBox({
        title: `Edit ${item.statement.key}`,
        prompt: `The value Engram should hold for ${item.statement.key}`,
        value: item.statement.value,
        ignoreFocusOut: true,
        validateInput: (input) => (input.trim() ? undefined : 'A fact needs a value'),
      });
      if (value === undefined) continue;
      if (value.trim() !== item.statement.value) memory.facts.edit(item.statement.id, value);
    }
    result.approved.push(approve(memory, item));
  }
  if (result.approved.length + result.rejected.length > 0) {
    void vscode.window.showInformationMessage(`Engram approved ${result.approved.length} and rejected ${result.rejected.length} proposed facts.`);
  }
  return result;
}
