import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { ContextReport } from '../core/context/contextReport';
import { recentReports } from '../core/context/reportRepository';
import type { MemoryHost } from './memoryHost';

/** How many recent reports keep their block texts in this window (the store keeps reports without them). */
const keptWithText = 30;

/**
 * The context reports of @engram's turns: written to the store (without memory text), kept whole in
 * memory for the latest turns, and announced so the panel and the status bar update live.
 */
export class ContextReports implements vscode.Disposable {
  private readonly whole = new Map<string, ContextReport>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private latestReport: ContextReport | undefined;

  constructor(
    private readonly memory: MemoryHost,
    private readonly compact: () => Promise<unknown> = async () => undefined,
  ) {}

  /** The panel's "Compact now": folds the latest conversation into its summary. */
  async compactNow(): Promise<void> {
    await this.compact();
  }

  record(report: ContextReport): void {
    this.whole.set(report.turnId, report);
    this.latestReport = report;
    for (const turnId of [...this.whole.keys()].slice(0, Math.max(0, this.whole.size - keptWithText))) this.whole.delete(turnId);
    try {
      this.memory.store?.applyOperation({ kind: 'contextReport', id: randomUUID(), at: report.at, report });
    } catch {
      // The report is still shown; the store reports its own write failures.
    }
    this.changed.fire();
  }

  latest(): ContextReport | undefined {
    return this.latestReport ?? this.stored()[0];
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

  private stored(): ContextReport[] {
    return this.memory.store?.read((db) => recentReports(db, 50)) ?? [];
  }

  dispose(): void {
    this.changed.dispose();
  }
}
