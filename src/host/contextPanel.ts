import * as vscode from 'vscode';
import { openWebviewPage, PageReadiness } from './webviewPage';
import type { ContextReport } from '../core/context/contextReport';
import { escapeHtml, isMessageToHost, type MessageToHost, type MessageToWebview, type TurnSummary } from '../../webview/protocol';

/** Where the panel gets its reports: the host adapts the memory store to this. */
export interface ContextSource {
  /** The report of the most recent answered turn, if any. */
  latest(): ContextReport | undefined;
  report(turnId: string): ContextReport | undefined;
  /** The turns that have a report, in any order (the panel shows the latest first). */
  turns(): TurnSummary[];
  /** Fires when a turn was answered or memory changed: the panel and the status item refresh on it. */
  readonly onDidChange: vscode.Event<void>;
  /** Compacts the current conversation; onDidChange is expected to fire when it is done. */
  compactNow(): Promise<void>;
}

type Log = Pick<vscode.LogOutputChannel, 'warn' | 'error'>;

const consoleLog: Log = { warn: (message: string) => console.warn(message), error: (message: string | Error) => console.error(message) };

/**
 * The "Engram: Context" webview: what went into the prompt of one turn. One panel at a time; it follows the
 * latest turn until the owner picks an older one. Nothing is posted before the page says it is ready.
 */
export class ContextPanel implements vscode.Disposable {
  static readonly viewType = 'engram.context';
  /** The open panel, if any (read by tests and by show()). */
  static current: ContextPanel | undefined;

  readonly panel: vscode.WebviewPanel;
  /** The last message posted to the page, for tests. */
  lastPosted: MessageToWebview | undefined;

  /** The turn the owner picked; undefined follows the latest. */
  private selectedTurnId: string | undefined;
  private compacting = false;
  private readonly readiness = new PageReadiness('the context panel');
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;

  static show(extensionUri: vscode.Uri, source: ContextSource, log: Log = consoleLog): ContextPanel {
    if (ContextPanel.current) {
      ContextPanel.current.panel.reveal(vscode.ViewColumn.Beside);
      return ContextPanel.current;
    }
    const panel = openWebviewPage({
      extensionUri,
      viewType: ContextPanel.viewType,
      title: 'Engram: Context',
      column: vscode.ViewColumn.Beside,
      page: 'contextPanel',
      html: contextPanelHtml,
    });
    ContextPanel.current = new ContextPanel(panel, source, log);
    return ContextPanel.current;
  }

  private constructor(
    panel: vscode.WebviewPanel,
    private readonly source: ContextSource,
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

  /** Posts the selected (or latest) report again; a no-op until the page is ready. */
  refresh(): void {
    if (!this.readiness.isReady || this.disposed) return;
    this.post(this.currentMessage());
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (ContextPanel.current === this) ContextPanel.current = undefined;
    this.readiness.close();
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
    this.panel.dispose();
  }

  private receive(message: unknown): void {
    // The page is a trust boundary: anything not in the protocol is dropped, and noted.
    if (!isMessageToHost(message)) {
      this.log.warn(`context panel: ignored an unexpected message: ${describe(message)}`);
      return;
    }
    this.handle(message);
  }

  private handle(message: MessageToHost): void {
    switch (message.type) {
      case 'ready':
        this.readiness.markReady();
        this.refresh();
        return;
      case 'selectTurn':
        this.selectTurn(message.turnId);
        return;
      case 'compactNow':
        void this.compactNow();
        return;
    }
  }

  private selectTurn(turnId: string): void {
    const turns = this.safely(() => this.source.turns(), []);
    if (!turns.some((turn) => turn.turnId === turnId)) {
      this.log.warn(`context panel: asked for a turn it does not know: ${describe(turnId)}`);
      return;
    }
    // Picking the latest turn goes back to following new turns as they come.
    this.selectedTurnId = turnId === latestTurn(turns)?.turnId ? undefined : turnId;
    this.refresh();
  }

  private async compactNow(): Promise<void> {
    if (this.compacting) return;
    this.compacting = true;
    try {
      await this.source.compactNow();
      this.refresh();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.log.error(`context panel: compacting failed: ${reason}`);
      if (this.readiness.isReady && !this.disposed) this.post({ type: 'error', message: `Compacting failed: ${reason}` });
    } finally {
      this.compacting = false;
    }
  }

  private currentMessage(): MessageToWebview {
    try {
      const turns = this.source.turns();
      let report = this.selectedTurnId ? this.source.report(this.selectedTurnId) : this.source.latest();
      if (this.selectedTurnId && !report) {
        // The picked turn is gone (forgotten, or cooled by retention): fall back to the latest.
        this.selectedTurnId = undefined;
        report = this.source.latest();
      }
      return { type: 'report', report, turns, selectedTurnId: report?.turnId };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.log.error(`context panel: reading the context report failed: ${reason}`);
      return { type: 'error', message: `Engram could not read the context report: ${reason}. See Engram: Show Log.` };
    }
  }

  private post(message: MessageToWebview): void {
    this.lastPosted = message;
    void this.panel.webview.postMessage(message).then(undefined, (error: unknown) => {
      this.log.warn(`context panel: posting failed: ${String(error)}`);
    });
  }

  private safely<T>(read: () => T, fallback: T): T {
    try {
      return read();
    } catch (error) {
      this.log.error(`context panel: ${error instanceof Error ? error.message : String(error)}`);
      return fallback;
    }
  }
}

/** The page: a strict CSP (no inline script or style, nothing from the network), one nonce'd script and its stylesheet. */
export function contextPanelHtml(options: { cspSource: string; scriptUri: string; styleUri: string; nonce: string }): string {
  const csp = [
    "default-src 'none'",
    // The nonce lets the toolkit's one <style> probe (FAST's :focus-visible check, which reads the csp-nonce meta)
    // run; its component styles are constructable stylesheets, which the CSP does not govern. No 'unsafe-inline'.
    `style-src ${options.cspSource} 'nonce-${options.nonce}'`,
    `script-src 'nonce-${options.nonce}'`,
    `font-src ${options.cspSource}`,
  ].join('; ');
  // cspSource comes from VS Code and the nonce is base64: neither can hold a quote, so the policy reads as written.
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${csp}">
  <meta property="csp-nonce" content="${escapeHtml(options.nonce)}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <link rel="stylesheet" href="${escapeHtml(options.styleUri)}">
  <title>Engram: Context</title>
</head>
<body>
  <main id="root" aria-busy="true"><p>Loading…</p></main>
  <script nonce="${escapeHtml(options.nonce)}" src="${escapeHtml(options.scriptUri)}"></script>
</body>
</html>`;
}

function latestTurn(turns: readonly TurnSummary[]): TurnSummary | undefined {
  const time = (turn: TurnSummary): number => Date.parse(turn.at) || 0;
  return turns.reduce<TurnSummary | undefined>((latest, turn) => (!latest || time(turn) > time(latest) ? turn : latest), undefined);
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
