import * as vscode from 'vscode';
import type { StatementRecord } from '../core/memory/statementRepository';
import type { ProjectScope } from '../core/project/projectScope';
import type { EngramMemory } from '../core/turn/engramMemory';
import type { MemoryHost } from './memoryHost';
import { factLabel, truncate } from './memoryTreeModel';
import type { ProjectScopes } from './projectScopes';

export interface ProjectCommandDeps {
  readonly memory: MemoryHost;
  readonly projects: ProjectScopes;
  readonly log: vscode.LogOutputChannel;
}

type Target = string | { readonly statement: Pick<StatementRecord, 'id'> } | undefined;
const idOf = (target: Target): string | undefined => (typeof target === 'string' ? target : target?.statement.id);

/**
 * The owner's hands on project memory: Remember for this project…, review (proposals and facts that need a look),
 * confirm after a look, forget, and Share Project Facts with the Team. Each takes its target as arguments too, so
 * the Memory view and the tests run it without a picker.
 */
export function registerProjectCommands(deps: ProjectCommandDeps): vscode.Disposable[] {
  const register = <A extends unknown[]>(name: string, run: (memory: EngramMemory, project: ProjectScope, ...args: A) => Promise<unknown>) =>
    vscode.commands.registerCommand(name, async (...args: A): Promise<unknown> => {
      const access = deps.memory.access;
      const project = deps.projects.current();
      if (access.state !== 'open') return void vscode.window.showErrorMessage(access.reason);
      if (!project) return void vscode.window.showInformationMessage('Open a folder first: project facts belong to a workspace folder.');
      try {
        return await run(access, project, ...args);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        deps.log.error(`${name}: ${message}`);
        void vscode.window.showErrorMessage(`Engram: ${message}`);
        return undefined;
      }
    });
  return [
    register('engram.rememberForProject', rememberForProject),
    register('engram.reviewProjectFacts', reviewProjectFacts),
    register('engram.confirmProjectFact', async (memory, project, target?: Target) => {
      const id = idOf(target);
      return id ? memory.projects.confirmAfterLook(project, id) : undefined;
    }),
    register('engram.retireProjectFact', async (memory, _project, target?: Target) => {
      const id = idOf(target);
      return id ? memory.facts.retire(id, 'retired by the owner: no longer true of this project') : undefined;
    }),
    register('engram.forgetProjectFact', async (memory, _project, target?: Target, confirmed?: boolean) => {
      const id = idOf(target);
      if (!id) return undefined;
      const label = factLabel(memory.facts.get(id));
      const answer = confirmed ? 'Forget' : await vscode.window.showWarningMessage(`Forget ${label}? It leaves every file of the memory store.`, { modal: true }, 'Forget');
      if (answer !== 'Forget') return undefined;
      await memory.projects.forget(id);
      return label;
    }),
    register('engram.shareProjectFacts', async (memory, project, silent?: boolean) => {
      const shared = memory.projects.share(project);
      if (!silent) await vscode.window.showTextDocument(vscode.Uri.file(shared.path));
      return shared;
    }),
  ];
}

async function rememberForProject(memory: EngramMemory, project: ProjectScope, key?: string, value?: string): Promise<StatementRecord | undefined> {
  const slots = [...memory.facts.slotsOf(project.scope).values()];
  const chosen = key ?? (await vscode.window.showQuickPick(slots.map((slot) => ({ label: slot.key, description: slot.description })), { title: `Remember for ${project.label}`, placeHolder: 'What kind of fact?' }))?.label;
  if (!chosen) return undefined;
  const typed = value ?? (await vscode.window.showInputBox({ title: `Remember for ${project.label}: ${chosen}`, prompt: slots.find((slot) => slot.key === chosen)?.description }));
  if (!typed) return undefined;
  const fact = memory.projects.remember(project, chosen, typed);
  void vscode.window.showInformationMessage(`Engram remembers for ${project.label}: ${factLabel(fact)}`);
  return fact;
}

/** Proposals (derived, shared, captured) and facts that need a look, in one picker: picked ones are confirmed. */
async function reviewProjectFacts(memory: EngramMemory, project: ProjectScope, request?: { approve?: string[]; reject?: string[] }): Promise<{ approved: string[]; rejected: string[] }> {
  const { needsLook } = memory.projects.confirmed(project);
  const result = { approved: [] as string[], rejected: [] as string[] };
  let approve = request?.approve;
  if (!request) {
    const items = [
      ...needsLook.map(({ fact, state }) => ({ label: factLabel(fact), description: `needs a look: its cited lines ${state}`, detail: fact.citation?.path, id: fact.id })),
      ...memory.projects.proposed(project).map((fact) => ({ label: factLabel(fact), description: `proposed (${fact.origin})`, detail: truncate(fact.sourceWords, 120), id: fact.id })),
    ];
    if (items.length === 0) {
      void vscode.window.showInformationMessage(`Nothing about ${project.label} waits for your review.`);
      return result;
    }
    approve = (await vscode.window.showQuickPick(items, { canPickMany: true, title: `Review facts about ${project.label}`, placeHolder: 'Pick what is true; the rest stays for later' }))?.map((item) => item.id);
  }
  for (const id of approve ?? []) {
    if (needsLook.some((n) => n.fact.id === id)) memory.projects.confirmAfterLook(project, id);
    else memory.facts.approve(id, 'approved by the owner in Review Project Facts');
    result.approved.push(id);
  }
  for (const id of request?.reject ?? []) {
    memory.facts.reject(id, 'rejected by the owner in Review Project Facts');
    result.rejected.push(id);
  }
  return result;
}
