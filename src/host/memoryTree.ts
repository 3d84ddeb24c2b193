import * as vscode from 'vscode';
import type { BehaviorBook } from '../core/memory/behaviorBook';
import type { BehaviorRecord } from '../core/memory/behaviors';
import type { Facts } from '../core/memory/facts';
import type { StatementRecord } from '../core/memory/statementRepository';
import { memoryOverview, waitingText, type MemoryOverview, type ProjectsInView } from '../core/project/memoryOverview';
import { projectChildren, projectItem, projectFactItem, type ProjectNode } from './projectTreeRows';
import { confirmedDescription, describeOrigin, factLabel, groupConfirmedByKey, lastReason } from './memoryTreeModel';

export { groupConfirmedByKey } from './memoryTreeModel';

export type MemoryGroup = 'confirmed' | 'behaviours' | 'proposed' | 'retired';

/**
 * One row of the Memory view. Group and key rows carry the statements read when the root was built, so
 * one refresh shows one consistent snapshot; commands re-read a fact by id before changing it.
 */
export type MemoryNode =
  | { readonly kind: 'group'; readonly group: MemoryGroup; readonly statements: readonly StatementRecord[] }
  | { readonly kind: 'key'; readonly key: string; readonly statements: readonly StatementRecord[] }
  | { readonly kind: 'fact'; readonly statement: StatementRecord; readonly lastReason?: string }
  | { readonly kind: 'notice'; readonly id: string; readonly text: string; readonly icon: string }
  | { readonly kind: 'behavior'; readonly behavior: BehaviorRecord }
  /** "You": the owner's memory, beside one "This project" row per workspace folder. */
  | { readonly kind: 'owner'; readonly children: readonly MemoryNode[] }
  | ProjectNode;

const groupTitles: Record<MemoryGroup, string> = {
  confirmed: 'Confirmed',
  behaviours: 'Behaviours',
  proposed: 'Proposed',
  retired: 'Retired',
};

const groupIcons: Record<MemoryGroup, string> = {
  confirmed: 'pass',
  behaviours: 'lightbulb',
  proposed: 'inbox',
  retired: 'archive',
};

const factIcons: Record<StatementRecord['status'], string> = {
  confirmed: 'pass',
  proposed: 'question',
  retired: 'circle-slash',
  rejected: 'circle-slash',
};

/** Grey, for rows that are there to be read rather than used. */
const muted = new vscode.ThemeColor('disabledForeground');

/** The Memory view: what Engram believes about its owner, what waits for review, and what it stopped believing. */
export class MemoryTreeProvider implements vscode.TreeDataProvider<MemoryNode>, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<MemoryNode | undefined | void>();
  readonly onDidChangeTreeData = this.changeEmitter.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly facts: () => Facts | undefined,
    onDidChangeMemory: vscode.Event<void>,
    /** Why there is no store (shown in place of the tree); optional so a caller without one still works. */
    private readonly unavailableReason: () => string | undefined = () => undefined,
    private readonly behaviors: () => BehaviorBook | undefined = () => undefined,
    /** The projects of the window's folders and their memory; none: the view shows the owner's memory alone. */
    private readonly projects: () => ProjectsInView | undefined = () => undefined,
  ) {
    this.subscription = onDidChangeMemory(() => this.refresh());
  }

  refresh(): void {
    this.changeEmitter.fire();
  }

  /** What the tree, its badge and every other view show, read once (memoryOverview, the one source of the counts). */
  overview(): MemoryOverview | undefined {
    const facts = this.facts();
    return facts ? memoryOverview(facts, this.projects()) : undefined;
  }

  /** How many facts wait for the owner's review: the view's badge. */
  proposedCount(): number {
    try {
      return this.overview()?.counts.waiting ?? 0;
    } catch {
      return 0;
    }
  }

  getChildren(node?: MemoryNode): MemoryNode[] {
    if (!node) return this.roots();
    switch (node.kind) {
      case 'group':
        return this.groupChildren(node.group, node.statements);
      case 'key':
        return node.statements.map((statement) => ({ kind: 'fact', statement }));
      case 'owner':
        return [...node.children];
      case 'project':
      case 'projectKey':
        return projectChildren(node);
      default:
        return [];
    }
  }

  getTreeItem(node: MemoryNode): vscode.TreeItem {
    switch (node.kind) {
      case 'group':
        return groupItem(node.group, node.statements);
      case 'key': {
        const item = new vscode.TreeItem(node.key, vscode.TreeItemCollapsibleState.Expanded);
        item.id = `engram.key.${node.key}`;
        item.description = String(node.statements.length);
        item.iconPath = new vscode.ThemeIcon('symbol-key');
        item.contextValue = 'engram.key';
        return item;
      }
      case 'fact':
        return this.factItem(node.statement, node.lastReason);
      case 'owner': {
        const item = new vscode.TreeItem('You', vscode.TreeItemCollapsibleState.Expanded);
        item.id = 'engram.owner';
        item.description = 'every workspace';
        item.iconPath = new vscode.ThemeIcon('account');
        item.contextValue = 'engram.owner';
        return item;
      }
      case 'project':
      case 'projectKey':
        return projectItem(node);
      case 'projectFact':
        return projectFactItem(node, this.factItem(node.statement, undefined));
      case 'behavior': {
        const item = new vscode.TreeItem(node.behavior.text, vscode.TreeItemCollapsibleState.None);
        item.id = node.behavior.id;
        item.description = node.behavior.status === 'proposed' ? 'proposed lesson' : 'approved';
        item.contextValue = `engram.behavior.${node.behavior.status}`;
        item.iconPath = new vscode.ThemeIcon(node.behavior.status === 'approved' ? 'lightbulb' : 'question');
        const tooltip = new vscode.MarkdownString();
        tooltip.appendText(`${node.behavior.text}\n\nEvidence: ${node.behavior.evidence}`);
        item.tooltip = tooltip;
        return item;
      }
      case 'notice': {
        const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
        item.id = node.id;
        item.iconPath = new vscode.ThemeIcon(node.icon, muted);
        item.contextValue = 'engram.notice';
        return item;
      }
    }
  }

  /** Every label in the tree, fully expanded: for the extension's own tests and for debugging. */
  describe(): { labels: string[]; proposed: number; counts?: MemoryOverview['counts']; groups: Record<string, string> } {
    const labels: string[] = [];
    const groups: Record<string, string> = {};
    const walk = (nodes: MemoryNode[]): void => {
      for (const node of nodes) {
        const item = this.getTreeItem(node);
        const label = typeof item.label === 'string' ? item.label : item.label?.label ?? '';
        labels.push(label);
        // What each group and project row says of itself ("Confirmed 2", "This project: app 1 confirmed · 1 proposed").
        if (node.kind === 'group' || node.kind === 'project') groups[label] = String(item.description ?? '');
        walk(this.getChildren(node));
      }
    };
    walk(this.getChildren());
    return { labels, proposed: this.proposedCount(), counts: this.overview()?.counts, groups };
  }

  dispose(): void {
    this.subscription.dispose();
    this.changeEmitter.dispose();
  }

  private roots(): MemoryNode[] {
    const facts = this.facts();
    if (!facts) {
      const reason = this.unavailableReason() ?? 'Engram has no memory store open, so it remembers nothing about you.';
      return [{ kind: 'notice', id: 'engram.notice.unavailable', text: reason, icon: 'warning' }];
    }
    try {
      const { owner: mine, projects } = memoryOverview(facts, this.projects());
      const owner: MemoryNode[] = [
        { kind: 'group', group: 'confirmed', statements: mine.confirmed },
        { kind: 'group', group: 'behaviours', statements: [] },
        { kind: 'group', group: 'proposed', statements: mine.proposed },
        { kind: 'group', group: 'retired', statements: mine.retired },
      ];
      if (projects.length === 0) return owner;
      return [{ kind: 'owner', children: owner }, ...projects.map(({ scope, now, proposed }): MemoryNode => ({ kind: 'project', scope, now, proposed }))];
    } catch (error) {
      // A tree that silently goes empty would read as "Engram knows nothing"; say what failed instead.
      const message = error instanceof Error ? error.message : String(error);
      return [{ kind: 'notice', id: 'engram.notice.error', text: `Engram could not read its memory: ${message}`, icon: 'error' }];
    }
  }

  private groupChildren(group: MemoryGroup, statements: readonly StatementRecord[]): MemoryNode[] {
    switch (group) {
      case 'confirmed':
        return groupConfirmedByKey(statements).map(({ key, statements: ofKey }) => ({ kind: 'key', key, statements: ofKey }));
      case 'behaviours': {
        const book = this.behaviors();
        const shown = book ? [...book.list('proposed'), ...book.list('approved')] : [];
        if (shown.length === 0) return [{ kind: 'notice', id: 'engram.notice.behaviours', text: 'Behaviours come from your corrections; none yet', icon: 'info' }];
        return shown.map((behavior) => ({ kind: 'behavior', behavior }));
      }
      case 'proposed':
        return statements.map((statement) => ({ kind: 'fact', statement }));
      case 'retired':
        // The reason is the point of the Retired list ("superseded by…", "forgotten by the owner"), so read it up front.
        return statements.map((statement) => ({ kind: 'fact', statement, lastReason: this.reasonFor(statement.id) }));
    }
  }

  private reasonFor(statementId: string): string | undefined {
    try {
      return lastReason(this.facts()?.history(statementId) ?? []);
    } catch {
      return undefined;
    }
  }

  private factItem(statement: StatementRecord, knownReason: string | undefined): vscode.TreeItem {
    const confirmed = statement.status === 'confirmed';
    // Under a key row the key is already shown, so a confirmed fact is just its value.
    const item = new vscode.TreeItem(confirmed ? statement.value : factLabel(statement), vscode.TreeItemCollapsibleState.None);
    // The statement id: VS Code keeps selection and focus on it across refreshes, even when it changes group.
    item.id = statement.id;
    item.contextValue = `engram.fact.${statement.status}`;
    const reason = knownReason ?? this.reasonFor(statement.id);
    item.description = confirmed ? confirmedDescription(statement) : statement.status === 'proposed' ? `tier ${statement.tier}` : reason;
    item.iconPath = new vscode.ThemeIcon(factIcons[statement.status], confirmed || statement.status === 'proposed' ? undefined : muted);
    item.tooltip = factTooltip(statement, reason);
    item.accessibilityInformation = { label: `${factLabel(statement)}, ${statement.status}` };
    return item;
  }
}

function groupItem(group: MemoryGroup, statements: readonly StatementRecord[]): vscode.TreeItem {
  // Retired facts are history, not memory: out of the way until asked for.
  const state = group === 'retired' ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.Expanded;
  const item = new vscode.TreeItem(groupTitles[group], state);
  item.id = `engram.group.${group}`;
  item.contextValue = `engram.group.${group}`;
  item.iconPath = new vscode.ThemeIcon(groupIcons[group]);
  if (group !== 'behaviours') item.description = String(statements.length);
  return item;
}

/**
 * Key, value, source words and reasons all come from what was typed in a chat, so they are appended as
 * text (escaped), never as Markdown, in an untrusted string without HTML or icon syntax.
 */
function factTooltip(statement: StatementRecord, reason: string | undefined): vscode.MarkdownString {
  const tooltip = new vscode.MarkdownString(undefined, false);
  tooltip.isTrusted = false;
  tooltip.supportHtml = false;
  tooltip.appendMarkdown('**');
  tooltip.appendText(factLabel(statement));
  tooltip.appendMarkdown('**\n\n');
  tooltip.appendText(`Status: ${statement.status} · tier ${statement.tier} · ${describeOrigin(statement)}`);
  tooltip.appendMarkdown('\n\n');
  if (reason) {
    tooltip.appendText(`Last change: ${reason}`);
    tooltip.appendMarkdown('\n\n');
  }
  tooltip.appendMarkdown('*The exact words:*\n\n');
  tooltip.appendText(statement.sourceWords);
  return tooltip;
}

/** The Memory view and what it owns, disposed together. */
export interface MemoryTreeView extends vscode.Disposable {
  readonly view: vscode.TreeView<MemoryNode>;
}

/**
 * Creates the `engram.memory` view, keeps its badge at the number of facts waiting for review, and registers
 * `engram.describeMemoryTree` (a test hook, not contributed to the palette) that returns every label.
 */
export function createMemoryTreeView(provider: MemoryTreeProvider): MemoryTreeView {
  const view = vscode.window.createTreeView('engram.memory', { treeDataProvider: provider, showCollapseAll: true });
  const updateBadge = (): void => {
    const waiting = provider.proposedCount();
    const tooltip = waitingText(waiting);
    view.badge = waiting > 0 ? { value: waiting, tooltip } : undefined;
  };
  updateBadge();
  const badgeSubscription = provider.onDidChangeTreeData(updateBadge);
  const describeCommand = vscode.commands.registerCommand('engram.describeMemoryTree', () => provider.describe());
  return {
    view,
    dispose: () => vscode.Disposable.from(describeCommand, badgeSubscription, view).dispose(),
  };
}
