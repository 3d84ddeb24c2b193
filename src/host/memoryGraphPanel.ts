import * as vscode from 'vscode';
import { openWebviewPage, PageReadiness } from './webviewPage';
import { buildMemoryGraph, parseNodeId, type MemoryGraph } from '../core/memory/memoryGraph';
import { provenanceOf, type GraphAction } from '../core/memory/memoryGraphProvenance';
import type { StatementEvent } from '../core/memory/statementRepository';
import { actionCommands, isGraphMessageToHost, type GraphMessageToHost, type GraphMessageToWebview } from '../../webview/graphProtocol';
import { escapeHtml } from '../../webview/protocol';

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

type Log = Pick<vscode.LogOutputChannel, 'warn' | 'error'>;

const consoleLog: Log = { warn: (message: string) => console.warn(message), error: (message: string | Error) => console.error(message) };

/**
 * "Engram: Show Memory Graph": what Engram believes about the owner, opening on "You" and expanded by click.
 * One panel at a time. The panel keeps only which nodes are open and which is selected; the graph itself is
 * rebuilt from the store on every request (ready, expand, collapse, a memory change). Nothing is posted before
 * the page says it is ready.
 */
export class MemoryGraphPanel implements vscode.Disposable {
  static readonly viewType = 'engram.memoryGraph';
  /** The open panel, if any (read by tests and by show()). */
  static current: MemoryGraphPanel | undefined;

  readonly panel: vscode.WebviewPanel;
  /** The last message posted to the page, for tests. */
  lastPosted: GraphMessageToWebview | undefined;
  /** The last graph posted to the page, for tests. */
  lastGraph: MemoryGraph | undefined;
  /** What the page said about its last drawing: node count and milliseconds of layout and render. */
  lastRender: GraphRender | undefined;

  /** Open nodes (keys, the retired group); "You" is always open. */
  private readonly expanded = new Set<string>();
  private selectedId: string | undefined;
  private readonly readiness = new PageReadiness('the memory graph');
  private renderWaiters: { resolve: (render: GraphRender) => void; reject: (error: Error) => void }[] = [];
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;

  static show(extensionUri: vscode.Uri, source: GraphSource, log: Log = consoleLog): MemoryGraphPanel {
    if (MemoryGraphPanel.current) {
      MemoryGraphPanel.current.panel.reveal();
      MemoryGraphPanel.current.refresh();
      return MemoryGraphPanel.current;
    }
    const panel = openWebviewPage({
      extensionUri,
      viewType: MemoryGraphPanel.viewType,
      title: 'Engram: Memory Graph',
      column: vscode.ViewColumn.Active,
      page: 'memoryGraph',
      html: memoryGraphHtml,
    });
    MemoryGraphPanel.current = new MemoryGraphPanel(panel, source, log);
    return MemoryGraphPanel.current;
  }

  private constructor(
    panel: vscode.WebviewPanel,
    private readonly source: GraphSource,
    private readonly log: Log,
  ) {
    this.panel = panel;
    const webview = panel.webview;
    this.disposables.push(
      webview.onDidReceiveMessage((message: unknown) => this.receive(message)),
      // A hidden page is torn down (retainContextWhenHidden is off); it says ready again when shown.
      panel.onDidChangeViewState(() => {
        if (!panel.visible) this.readiness.markHidden();
      }),
      source.onDidChange(() => this.refresh()),
      panel.onDidDispose(() => this.dispose()),
    );
  }

  /** Resolves once the page is loaded and listening (at once if it already is); rejects if the panel closes first. */
  whenReady(): Promise<void> {
    return this.readiness.whenReady();
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
    if (!this.readiness.isReady || this.disposed) return;
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
    if (kind !== 'key' && kind !== 'retiredGroup') return;
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

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (MemoryGraphPanel.current === this) MemoryGraphPanel.current = undefined;
    this.readiness.close();
    for (const waiter of this.renderWaiters.splice(0)) waiter.reject(new Error('the memory graph was closed'));
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
    this.panel.dispose();
  }

  private receive(message: unknown): void {
    // The page is a trust boundary: anything not in the protocol is dropped, and noted.
    if (!isGraphMessageToHost(message)) {
      this.log.warn(`memory graph: ignored an unexpected message: ${describe(message)}`);
      return;
    }
    this.handle(message);
  }

  private handle(message: GraphMessageToHost): void {
    switch (message.type) {
      case 'ready':
        this.readiness.markReady();
        this.refresh();
        return;
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
        this.log.warn(`memory graph: ${action} asked for a statement it cannot apply to: ${describe(statementId)}`);
        this.refresh();
        return;
      }
      await vscode.commands.executeCommand(actionCommands[action], statementId);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.log.error(`memory graph: ${action} failed: ${reason}`);
      if (this.readiness.isReady && !this.disposed) this.post({ type: 'error', message: `Engram could not ${action === 'showSource' ? 'show the source' : action}: ${reason}` });
      return;
    }
    // The command fires the memory-changed event too; reading again here also covers a source that does not.
    this.refresh();
  }

  private postProvenance(nodeId: string): void {
    if (!this.readiness.isReady || this.disposed) return;
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

  private post(message: GraphMessageToWebview): void {
    this.lastPosted = message;
    void this.panel.webview.postMessage(message).then(undefined, (error: unknown) => {
      this.log.warn(`memory graph: posting failed: ${String(error)}`);
    });
  }
}

/** The page: a strict CSP (no inline script or style, nothing from the network), one nonce'd script and its stylesheet. */
export function memoryGraphHtml(options: { cspSource: string; scriptUri: string; styleUri: string; nonce: string }): string {
  const csp = [
    "default-src 'none'",
    `style-src ${options.cspSource}`,
    `script-src 'nonce-${options.nonce}'`,
    `font-src ${options.cspSource}`,
  ].join('; ');
  // cspSource comes from VS Code and the nonce is base64: neither can hold a quote, so the policy reads as written.
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${csp}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <link rel="stylesheet" href="${escapeHtml(options.styleUri)}">
  <title>Engram: Memory Graph</title>
</head>
<body>
  <main id="root" aria-busy="true"><p>Loading…</p></main>
  <script nonce="${escapeHtml(options.nonce)}" src="${escapeHtml(options.scriptUri)}"></script>
</body>
</html>`;
}

/** A short, single-line description of something untrusted, for the log. */
function describe(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
