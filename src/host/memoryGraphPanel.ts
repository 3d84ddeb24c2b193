import * as vscode from 'vscode';
import { fillWebviewPage, openWebviewPage, type PageParts } from './webviewPage';
import { consoleLog, describeUntrusted, pageHtml, WebviewPanelBase, type PanelLog } from './webviewPanelBase';
import { buildMemoryGraph, parseNodeId, type MemoryGraph } from '../core/memory/memoryGraph';
import { provenanceOf, type GraphAction } from '../core/memory/memoryGraphProvenance';
import type { StatementEvent } from '../core/memory/statementRepository';
import { actionCommands, isGraphMessageToHost, type GraphMessageToHost, type GraphMessageToWebview } from '../../webview/graphProtocol';

/**
 * Where the graph is read from: the host adapts the memory store to this. Every read is fresh: the graph is a
 * view computed from it, never kept.
 */
export interface GraphSource {
  read(): Parameters<typeof buildMemoryGraph>[0];
  /** A statement's audit trail, oldest first (Facts.history). */
  history(statementId: string): readonly StatementEvent[];
  /** Fires after anything in memory changed: the graph is read again. */
  readonly onDidChange: vscode.Event<void>;
}

/** What the page reported about its last drawing. */
export interface GraphRender {
  readonly nodes: number;
  readonly ms: number;
}

/**
 * "Engram: Show Memory Graph": what Engram believes about the owner, opening on "You" and expanded by click.
 * One panel at a time. The panel keeps only which nodes are open and which is selected; the graph itself is
 * rebuilt from the store on every request (ready, expand, collapse, a memory change). Nothing is posted before
 * the page says it is ready.
 */
export class MemoryGraphPanel extends WebviewPanelBase<GraphMessageToHost, GraphMessageToWebview> {
  static readonly viewType = 'engram.memoryGraph';
  /** The open panel, if any (read by tests and by show()). */
  static current: MemoryGraphPanel | undefined;

  /** The last graph posted to the page, for tests. */
  lastGraph: MemoryGraph | undefined;
  /** What the page said about its last drawing: node count and milliseconds of layout and render. */
  lastRender: GraphRender | undefined;

  /** Open nodes (keys, the retired group); "You" is always open. */
  private readonly expanded = new Set<string>();
  private selectedId: string | undefined;
  private renderWaiters: { resolve: (render: GraphRender) => void; reject: (error: Error) => void }[] = [];

  static show(extensionUri: vscode.Uri, source: GraphSource, log: PanelLog = consoleLog): MemoryGraphPanel {
    if (MemoryGraphPanel.current) {
      MemoryGraphPanel.current.panel.reveal();
      MemoryGraphPanel.current.refresh();
      return MemoryGraphPanel.current;
    }
    const panel = openWebviewPage({ ...MemoryGraphPanel.page(extensionUri), column: vscode.ViewColumn.Active });
    MemoryGraphPanel.current = new MemoryGraphPanel(panel, source, log);
    return MemoryGraphPanel.current;
  }

  /** Takes over a panel VS Code brought back after a window reload: the graph is read again, opening on You. */
  static restore(panel: vscode.WebviewPanel, extensionUri: vscode.Uri, source: GraphSource, log: PanelLog = consoleLog): MemoryGraphPanel {
    MemoryGraphPanel.current?.dispose();
    fillWebviewPage(panel, MemoryGraphPanel.page(extensionUri));
    MemoryGraphPanel.current = new MemoryGraphPanel(panel, source, log);
    return MemoryGraphPanel.current;
  }

  private static page(extensionUri: vscode.Uri) {
    return { extensionUri, viewType: MemoryGraphPanel.viewType, title: 'Engram: Memory Graph', page: 'memoryGraph', html: memoryGraphHtml };
  }

  private constructor(
    panel: vscode.WebviewPanel,
    private readonly source: GraphSource,
    log: PanelLog,
  ) {
    super(panel, 'memory graph', isGraphMessageToHost, source.onDidChange, log);
  }

  /** Resolves with the page's next "rendered" report. */
  whenRendered(): Promise<GraphRender> {
    if (this.disposed) return Promise.reject(new Error('the memory graph is closed'));
    return new Promise((resolve, reject) => this.renderWaiters.push({ resolve, reject }));
  }

  /** The nodes that are open now (for tests). */
  expandedNodes(): string[] {
    return [...this.expanded];
  }

  /** Reads the store, posts the graph and the selected node's provenance; a no-op until the page is ready. */
  refresh(): void {
    if (!this.canPost) return;
    let graph: MemoryGraph;
    try {
      graph = buildMemoryGraph(this.source.read(), this.expanded);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.log.error(`memory graph: reading memory failed: ${reason}`);
      this.post({ type: 'error', message: `Engram could not read its memory: ${reason}. See Engram: Show Log.` });
      return;
    }
    // A key whose facts were all forgotten is gone; so is its being open.
    const shown = new Set(graph.nodes.map((node) => node.id));
    for (const id of this.expanded) if (!shown.has(id)) this.expanded.delete(id);
    this.lastGraph = graph;
    this.post({ type: 'graph', graph });
    if (this.selectedId !== undefined) this.postProvenance(this.selectedId);
  }

  /** Opens a node (a key, the retired group): its children are read and shown. */
  expand(nodeId: string): void {
    const kind = parseNodeId(nodeId)?.kind;
    // Only these have children; anything else would only grow the set.
    if (kind !== 'key' && kind !== 'retiredGroup' && kind !== 'project') return;
    this.expanded.add(nodeId);
    this.refresh();
  }

  collapse(nodeId: string): void {
    if (this.expanded.delete(nodeId)) this.refresh();
  }

  /** Shows a node's provenance beside the graph. */
  select(nodeId: string): void {
    this.selectedId = nodeId;
    this.postProvenance(nodeId);
  }

  protected override onDispose(): void {
    if (MemoryGraphPanel.current === this) MemoryGraphPanel.current = undefined;
    for (const waiter of this.renderWaiters.splice(0)) waiter.reject(new Error('the memory graph was closed'));
  }

  protected handle(message: GraphMessageToHost): void {
    switch (message.type) {
      case 'expand':
        this.expand(message.nodeId);
        return;
      case 'collapse':
        this.collapse(message.nodeId);
        return;
      case 'select':
        this.select(message.nodeId);
        return;
      case 'action':
        void this.act(message.action, message.statementId);
        return;
      case 'rendered': {
        const render = { nodes: message.nodes, ms: message.ms };
        this.lastRender = render;
        for (const waiter of this.renderWaiters.splice(0)) waiter.resolve(render);
        return;
      }
    }
  }

  /** Runs the Memory view's own command on a statement the store still has in a state the action fits. */
  private async act(action: GraphAction, statementId: string): Promise<void> {
    try {
      const read = this.source.read();
      const live = read.confirmed.some((statement) => statement.id === statementId && statement.status === 'confirmed');
      const known = live || read.retired.some((statement) => statement.id === statementId);
      if (action === 'showSource' ? !known : !live) {
        this.log.warn(`memory graph: ${action} asked for a statement it cannot apply to: ${describeUntrusted(statementId)}`);
        this.refresh();
        return;
      }
      await vscode.commands.executeCommand(actionCommands[action], statementId);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.log.error(`memory graph: ${action} failed: ${reason}`);
      if (this.canPost) this.post({ type: 'error', message: `Engram could not ${action === 'showSource' ? 'show the source' : action}: ${reason}` });
      return;
    }
    // The command fires the memory-changed event too; reading again here also covers a source that does not.
    this.refresh();
  }

  private postProvenance(nodeId: string): void {
    if (!this.canPost) return;
    try {
      const provenance = provenanceOf(this.source.read(), (id) => this.source.history(id), nodeId);
      // The node is gone (forgotten, say): nothing stays selected.
      if (!provenance) this.selectedId = undefined;
      this.post({ type: 'provenance', nodeId, provenance });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.log.error(`memory graph: reading where a node came from failed: ${reason}`);
      this.post({ type: 'error', message: `Engram could not read where that came from: ${reason}` });
    }
  }
}

/** The memory graph's page. */
export function memoryGraphHtml(parts: PageParts): string {
  return pageHtml({ ...parts, title: 'Engram: Memory Graph' });
}
