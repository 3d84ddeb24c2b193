import * as vscode from 'vscode';
import { fillWebviewPage, openWebviewPage, type PageParts } from './webviewPage';
import { consoleLog, describeUntrusted, pageHtml, WebviewPanelBase, type PanelLog } from './webviewPanelBase';
import type { ContextReport } from '../core/context/contextReport';
import { isMessageToHost, type MessageToHost, type MessageToWebview, type TurnSummary } from '../../webview/protocol';

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

/**
 * The "Engram: Context" webview: what went into the prompt of one turn. One panel at a time; it follows the
 * latest turn until the owner picks an older one. Nothing is posted before the page says it is ready.
 */
export class ContextPanel extends WebviewPanelBase<MessageToHost, MessageToWebview> {
  static readonly viewType = 'engram.context';
  /** The open panel, if any (read by tests and by show()). */
  static current: ContextPanel | undefined;

  /** The turn the owner picked; undefined follows the latest. */
  private selectedTurnId: string | undefined;
  private compacting = false;

  /** Opens (or reveals) the panel; with a turn id, on that turn (the receipt's "Context" link), else on the latest. */
  static show(extensionUri: vscode.Uri, source: ContextSource, log: PanelLog = consoleLog, turnId?: string): ContextPanel {
    if (ContextPanel.current) {
      ContextPanel.current.panel.reveal(vscode.ViewColumn.Beside);
      if (turnId) ContextPanel.current.selectTurn(turnId);
      return ContextPanel.current;
    }
    const panel = openWebviewPage({ ...ContextPanel.page(extensionUri), column: vscode.ViewColumn.Beside });
    ContextPanel.current = new ContextPanel(panel, source, log);
    if (turnId) ContextPanel.current.selectTurn(turnId);
    return ContextPanel.current;
  }

  /** Takes over a panel VS Code brought back after a window reload: its page is built again, on the latest turn. */
  static restore(panel: vscode.WebviewPanel, extensionUri: vscode.Uri, source: ContextSource, log: PanelLog = consoleLog): ContextPanel {
    // One panel at a time: a second restored one (two were open before the reload) takes the place of the first.
    ContextPanel.current?.dispose();
    fillWebviewPage(panel, ContextPanel.page(extensionUri));
    ContextPanel.current = new ContextPanel(panel, source, log);
    return ContextPanel.current;
  }

  private static page(extensionUri: vscode.Uri) {
    return { extensionUri, viewType: ContextPanel.viewType, title: 'Engram: Context', page: 'contextPanel', html: contextPanelHtml };
  }

  private constructor(
    panel: vscode.WebviewPanel,
    private readonly source: ContextSource,
    log: PanelLog,
  ) {
    super(panel, 'context panel', isMessageToHost, source.onDidChange, log);
  }

  /** Posts the selected (or latest) report again; a no-op until the page is ready. */
  refresh(): void {
    if (!this.canPost) return;
    this.post(this.currentMessage());
  }

  protected override onDispose(): void {
    if (ContextPanel.current === this) ContextPanel.current = undefined;
  }

  protected handle(message: MessageToHost): void {
    switch (message.type) {
      case 'selectTurn':
        this.selectTurn(message.turnId);
        return;
      case 'compactNow':
        void this.compactNow();
        return;
    }
  }

  /** The turn shown; undefined follows the latest. */
  get selectedTurn(): string | undefined {
    return this.selectedTurnId;
  }

  private selectTurn(turnId: string): void {
    const turns = this.safely(() => this.source.turns(), []);
    if (!turns.some((turn) => turn.turnId === turnId)) {
      this.log.warn(`context panel: asked for a turn it does not know: ${describeUntrusted(turnId)}`);
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
      if (this.canPost) this.post({ type: 'error', message: `Compacting failed: ${reason}` });
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

  private safely<T>(read: () => T, fallback: T): T {
    try {
      return read();
    } catch (error) {
      this.log.error(`context panel: ${error instanceof Error ? error.message : String(error)}`);
      return fallback;
    }
  }
}

/** The context panel's page (the toolkit's style probe needs the nonce). */
export function contextPanelHtml(parts: PageParts): string {
  return pageHtml({ ...parts, title: 'Engram: Context', styleNonce: true });
}

function latestTurn(turns: readonly TurnSummary[]): TurnSummary | undefined {
  const time = (turn: TurnSummary): number => Date.parse(turn.at) || 0;
  return turns.reduce<TurnSummary | undefined>((latest, turn) => (!latest || time(turn) > time(latest) ? turn : latest), undefined);
}
