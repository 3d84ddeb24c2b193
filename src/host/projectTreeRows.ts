import * as vscode from 'vscode';
import type { StatementRecord } from '../core/memory/statementRepository';
import type { ProjectFactsNow } from '../core/project/projectMemory';
import type { ProjectScope } from '../core/project/projectScope';
import { groupConfirmedByKey } from './memoryTreeModel';

/**
 * The "This project" rows of the Memory view: the project's confirmed facts by key, the ones that need a look (their
 * cited lines changed or vanished: one click confirms, edits or retires them), and its proposals.
 */
export type ProjectNode =
  | { readonly kind: 'project'; readonly scope: ProjectScope; readonly now: ProjectFactsNow; readonly proposed: readonly StatementRecord[] }
  | { readonly kind: 'projectKey'; readonly scope: ProjectScope; readonly key: string; readonly facts: readonly ProjectFactRow[] }
  | ProjectFactRow;

export type ProjectFactRow = { readonly kind: 'projectFact'; readonly statement: StatementRecord; readonly look?: 'changed' | 'vanished' };

export function projectChildren(node: ProjectNode): ProjectNode[] {
  if (node.kind === 'projectKey') return [...node.facts];
  if (node.kind !== 'project') return [];
  const looks = new Map(node.now.needsLook.map((n) => [n.fact.id, n.state]));
  const confirmed = [...node.now.current, ...node.now.needsLook.map((n) => n.fact)];
  const keys = groupConfirmedByKey(confirmed).map(({ key, statements }): ProjectNode => ({
    kind: 'projectKey', scope: node.scope, key, facts: statements.map((statement) => ({ kind: 'projectFact', statement, look: looks.get(statement.id) })),
  }));
  return [...keys, ...node.proposed.map((statement): ProjectNode => ({ kind: 'projectFact', statement }))];
}

export function projectItem(node: Exclude<ProjectNode, ProjectFactRow>): vscode.TreeItem {
  if (node.kind === 'projectKey') {
    const item = new vscode.TreeItem(node.key, vscode.TreeItemCollapsibleState.Expanded);
    item.id = `engram.project.${node.scope.scope}.key.${node.key}`;
    item.description = String(node.facts.length);
    item.iconPath = new vscode.ThemeIcon('symbol-key');
    return item;
  }
  const item = new vscode.TreeItem(`This project: ${node.scope.label}`, vscode.TreeItemCollapsibleState.Expanded);
  item.id = `engram.project.${node.scope.scope}`;
  const looks = node.now.needsLook.length;
  item.description = [`${node.now.current.length} confirmed`, looks ? `${looks} need a look` : '', node.proposed.length ? `${node.proposed.length} proposed` : ''].filter(Boolean).join(' · ');
  item.tooltip = `${node.scope.scope} (identified by its ${node.scope.identifiedBy})`;
  item.iconPath = new vscode.ThemeIcon('repo');
  item.contextValue = 'engram.project';
  return item;
}

/** A project fact: the owner's fact row, re-labelled for what only a project fact can be (cited, needing a look). */
export function projectFactItem(node: ProjectFactRow, item: vscode.TreeItem): vscode.TreeItem {
  const statement = node.statement;
  if (node.look) {
    item.description = `needs a look: ${statement.citation?.path ?? 'its file'} ${node.look === 'changed' ? 'changed' : 'is gone'}`;
    item.iconPath = new vscode.ThemeIcon('warning');
    item.contextValue = 'engram.projectFact.needsLook';
    item.accessibilityInformation = { label: `${statement.key} = ${statement.value}, needs a look` };
  } else if (statement.status === 'confirmed') {
    item.contextValue = 'engram.projectFact.confirmed';
    if (statement.citation) item.description = `${item.description ?? ''} · cites ${statement.citation.path}:${statement.citation.lines[0]}`;
  } else if (statement.status === 'proposed') {
    item.description = `proposed · ${statement.origin}${statement.citation ? ` · cites ${statement.citation.path}:${statement.citation.lines[0]}` : ''}`;
  }
  return item;
}
