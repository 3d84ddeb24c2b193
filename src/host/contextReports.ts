import * as vscode from 'vscode';
import { isAgentCall } from '../core/context/agentCalls';
import type { ContextReport } from '../core/context/contextReport';
import type { MemoryHost } from './memoryHost';

/** How many recent reports keep their block texts in this window (the store keeps reports without them). */
const keptWithText = 30;

/**
 * The context reports of @engram's turns, for the panel and the status bar: the latest kept whole (texts
 * included) in this window, the rest read from the store. A forgotten conversation's reports leave the cache
 * at once, so no text of it stays on screen.
 */
export class ContextReports implements vscode.Disposable {
  private readonly whole = new Map<string, ContextReport>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private latestReport: ContextReport | undefined;

  constructor(
    private readonly memory: MemoryHost,
    private readonly compact: () => Promise<unknown> = async () => undefined,
  ) {
    const access = memory.access;
    if (access.state !== 'open') return;
    access.store.onDidForget((removed) => this.dropSessions(removed.sessionIds));
    // Another window's writes, a forget, an import: the stored list may have changed under us.
    access.onDidChange(() => this.changed.fire());
  }

  /** The panel's "Compact now": folds the latest conversation into its summary. */
  async compactNow(): Promise<void> {
    await this.compact();
  }

  /** Keeps a finished turn's report whole in this window (the turn engine has already stored it). */
  record(report: ContextReport): void {
    this.whole.set(report.turnId, report);
    this.latestReport = report;
    for (const turnId of [...this.whole.keys()].slice(0, Math.max(0, this.whole.size - keptWithText))) this.whole.delete(turnId);
    this.changed.fire();
  }

  /** The latest turn answered in this window, if any (the status bar's figure is about this window's chat). */
  latestInWindow(): ContextReport | undefined {
    return this.latestReport;
  }

  /** The latest prompt of @engram; other agents' calls over MCP are in turns(), never the status bar's figure. */
  latest(): ContextReport | undefined {
    return this.latestReport ?? this.stored().find((report) => !isAgentCall(report));
  }

  report(turnId: string): ContextReport | undefined {
    return this.whole.get(turnId) ?? this.stored().find((report) => report.turnId === turnId);
  }

  turns(): { turnId: string; at: string; sessionId: string; label: string }[] {
    return this.stored().map((report) => ({
      turnId: report.turnId,
      at: report.at,
      sessionId: report.sessionId,
      label: `${new Date(report.at).toLocaleString()} · ${report.totalTokens} tokens · ${report.model.name}`,
    }));
  }

  private dropSessions(sessionIds: readonly string[]): void {
    const gone = new Set(sessionIds);
    for (const [turnId, report] of this.whole) if (gone.has(report.sessionId)) this.whole.delete(turnId);
    if (this.latestReport && gone.has(this.latestReport.sessionId)) this.latestReport = undefined;
    this.changed.fire();
  }

  private stored(): ContextReport[] {
    return this.memory.access.state === 'open' ? this.memory.access.recentReports(50) : [];
  }

  dispose(): void {
    this.changed.dispose();
  }
}
