import * as vscode from 'vscode';
import type { Allowlist } from '../core/memory/allowlist';
import type { Facts } from '../core/memory/facts';
import type { StatementRecord, StatementStatus } from '../core/memory/statementRepository';
import { answerQuestion as answerInMemory } from '../core/turn/directAnswers';
import type { MemoryHost } from './memoryHost';
import type { ProjectScope } from '../core/project/projectScope';
import { reviewProposedFacts, type ReviewRequest } from './reviewProposedFacts';
import { factSourceUri } from './memoryDocuments';
import { confirmedDescription, factLabel, factList, truncate } from './memoryTreeModel';

export interface FactCommandDeps {
  readonly memory: MemoryHost;
  readonly allowlist: () => Allowlist;
  readonly log: vscode.LogOutputChannel;
  /** The window's projects (one per folder): their proposals are reviewed beside the owner's. */
  readonly projectScopes?: () => readonly ProjectScope[];
}

/** A fact as commands receive it: its id (chat buttons, tests) or a Memory view row. */
export type FactTarget = string | { readonly statement: Pick<StatementRecord, 'id'> } | undefined;

export interface QuestionAnswer {
  readonly statementId: string;
  readonly answer: 'yes' | 'no';
}

type FactPick = vscode.QuickPickItem & { readonly statement: StatementRecord };

/**
 * The owner's hands on the beliefs: review, remember, forget, undo, answer. Each command also takes its
 * target as an argument (an id, a tree row, a request object) so the chat, the tree and the tests run it
 * without a picker.
 */
export function registerFactCommands(deps: FactCommandDeps): vscode.Disposable[] {
  const register = <A extends unknown[]>(name: string, run: (facts: Facts, ...args: A) => Promise<unknown>) =>
    vscode.commands.registerCommand(name, async (...args: A): Promise<unknown> => {
      const access = deps.memory.access;
      if (access.state !== 'open') {
        void vscode.window.showErrorMessage(access.reason);
        return undefined;
      }
      try {
        return await run(access.facts, ...args);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        deps.log.error(`${name}: ${message}`);
        void vscode.window.showErrorMessage(`Engram: ${message}`);
        return undefined;
      }
    });

  return [
    register('engram.reviewProposedFacts', async (_facts, request?: ReviewRequest) => {
      const access = deps.memory.access;
      return access.state === 'open' ? reviewProposedFacts(access, deps.projectScopes?.() ?? [], request) : undefined;
    }),
    register('engram.remember', (facts, key?: string, value?: string) => remember(facts, deps.allowlist(), key, value)),
    register('engram.forgetFact', forgetFact),
    register('engram.undoLastLearned', undoLastLearned),
    register('engram.answerQuestion', answerQuestion),
    register('engram.approveFact', (facts, target?: FactTarget) => decide(facts, target, 'approve')),
    register('engram.rejectFact', (facts, target?: FactTarget) => decide(facts, target, 'reject')),
    register('engram.editFact', editFact),
    register('engram.showSourceTurn', showSourceTurn),
  ];
}

const info = (message: string): void => void vscode.window.showInformationMessage(message);

function describeForPick(statement: StatementRecord): FactPick {
  const description = statement.status === 'confirmed' ? confirmedDescription(statement) : `tier ${statement.tier}`;
  return { label: factLabel(statement), description, detail: truncate(statement.sourceWords, 100), statement };
}

/** Re-reads the fact by id: a tree row may be older than the last change. */
function statementOf(facts: Facts, target: FactTarget): StatementRecord | undefined {
  if (typeof target === 'string') return facts.get(target);
  if (target && typeof target === 'object' && typeof target.statement?.id === 'string') return facts.get(target.statement.id);
  return undefined;
}

async function pickFact(candidates: StatementRecord[], title: string, empty: string): Promise<StatementRecord | undefined> {
  if (candidates.length === 0) {
    info(empty);
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(candidates.map(describeForPick), { title, matchOnDescription: true, matchOnDetail: true });
  return picked?.statement;
}

function requireStatus(statement: StatementRecord, allowed: readonly StatementStatus[]): void {
  if (!allowed.includes(statement.status)) throw new Error(`${factLabel(statement)} is ${statement.status}, so that does not apply to it`);
}

async function askValue(statement: StatementRecord): Promise<string | undefined> {
  return vscode.window.showInputBox({
    title: `Edit ${statement.key}`,
    prompt: `The value Engram should hold for ${statement.key}`,
    value: statement.value,
    ignoreFocusOut: true,
    validateInput: (value) => (value.trim() ? undefined : 'A fact needs a value'),
  });
}

async function remember(facts: Facts, allowlist: Allowlist, key?: string, value?: string): Promise<StatementRecord | undefined> {
  const chosenKey =
    key ??
    (await vscode.window.showQuickPick(
      [...allowlist.values()].map((slot) => ({ label: slot.key, description: slot.description })),
      { title: 'Remember…', placeHolder: 'What kind of fact? Engram remembers only the keys in its allowlist', matchOnDescription: true },
    ))?.label;
  if (chosenKey === undefined) return undefined;
  const slot = allowlist.get(chosenKey);
  if (!slot) throw new Error(`"${chosenKey}" is not a key Engram may learn (see the key allowlist)`);
  const chosenValue =
    value ??
    (await vscode.window.showInputBox({
      title: `Remember ${chosenKey}`,
      prompt: slot.description,
      ignoreFocusOut: true,
      validateInput: (input) => (input.trim() ? undefined : 'A fact needs a value'),
    }));
  if (chosenValue === undefined) return undefined;
  const statement = facts.remember(chosenKey, chosenValue);
  info(`Engram will remember: ${factLabel(statement)}`);
  return statement;
}

async function forgetFact(facts: Facts, target?: FactTarget): Promise<StatementRecord | undefined> {
  const statement =
    statementOf(facts, target) ?? (await pickFact(facts.list('confirmed'), 'Forget a fact', 'Engram holds no confirmed facts about you.'));
  if (!statement) return undefined;
  requireStatus(statement, ['confirmed', 'proposed']);
  const retired = facts.retire(statement.id, 'forgotten by the owner (Forget Fact)');
  info(`Engram forgot: ${factLabel(retired)}`);
  return retired;
}

async function undoLastLearned(facts: Facts, request?: { statementIds?: readonly string[] }): Promise<StatementRecord[]> {
  // An Undo button may be pressed twice, or after Forget Fact: take back only what is still believed.
  const undone = request?.statementIds
    ? request.statementIds
        .map((id) => facts.get(id))
        .filter((statement) => statement.status === 'confirmed')
        .map((statement) => facts.retire(statement.id, 'undone by the owner (Undo button)'))
    : facts.undoLastLearned();
  info(undone.length > 0 ? `Engram no longer believes: ${factList(undone)}.` : 'Engram has nothing recently learned to undo.');
  return undone;
}

async function answerQuestion(facts: Facts, answer?: QuestionAnswer): Promise<StatementRecord> {
  if (typeof answer?.statementId !== 'string' || (answer.answer !== 'yes' && answer.answer !== 'no')) {
    throw new Error('Answering a question needs { statementId, answer: "yes" | "no" }');
  }
  const asked = facts.get(answer.statementId);
  const answered = answerInMemory(facts, asked, answer.answer);
  if (asked.status === 'proposed' && answered.statement.status === 'confirmed') {
    // Learned by a click: taken back by a click, as every learned fact is.
    void vscode.window.showInformationMessage(answered.message, 'Undo').then((choice) => {
      if (choice !== 'Undo') return;
      const undone = facts.retire(answered.statement.id, 'undone by the owner (Undo after answering yes)');
      info(`Engram no longer believes: ${factLabel(undone)}.`);
    });
  } else {
    info(answered.message);
  }
  return answered.statement;
}

/** Approve or Reject on a Memory view row (or with an id). */
async function decide(facts: Facts, target: FactTarget, decision: 'approve' | 'reject'): Promise<StatementRecord | undefined> {
  const statement =
    statementOf(facts, target) ?? (await pickFact(facts.list('proposed'), `${decision === 'approve' ? 'Approve' : 'Reject'} a proposed fact`, 'No facts wait for your review.'));
  if (!statement) return undefined;
  requireStatus(statement, ['proposed']);
  const decided = decision === 'approve'
    ? facts.approve(statement.id, 'approved by the owner (Memory view)')
    : facts.reject(statement.id, 'rejected by the owner (Memory view)');
  // The row moving in the tree is the main feedback; a status bar line confirms without a toast per click.
  vscode.window.setStatusBarMessage(`Engram ${decision === 'approve' ? 'approved' : 'rejected'}: ${factLabel(decided)}`, 4000);
  return decided;
}

/** Edits the value only: an edited proposal still waits for Approve, so the owner decides on the final words. */
async function editFact(facts: Facts, target?: FactTarget, newValue?: unknown): Promise<StatementRecord | undefined> {
  const live = (): StatementRecord[] => [...facts.list('confirmed'), ...facts.list('proposed')];
  const statement = statementOf(facts, target) ?? (await pickFact(live(), 'Edit a fact', 'Engram holds no facts to edit.'));
  if (!statement) return undefined;
  requireStatus(statement, ['confirmed', 'proposed']);
  // VS Code passes other things as a second argument from some menus; only a string is a new value.
  const value = typeof newValue === 'string' ? newValue : await askValue(statement);
  if (value === undefined || value.trim() === statement.value) return statement;
  return facts.edit(statement.id, value);
}

async function showSourceTurn(facts: Facts, target?: FactTarget): Promise<vscode.TextDocument | undefined> {
  const statement =
    statementOf(facts, target) ?? (await pickFact(facts.list(), 'Show where a fact came from', 'Engram holds no facts about you.'));
  if (!statement) return undefined;
  // A read-only document over memory, not an untitled copy of it (see MemoryDocuments).
  const document = await vscode.workspace.openTextDocument(factSourceUri(statement));
  await vscode.window.showTextDocument(document, { preview: true });
  return document;
}
