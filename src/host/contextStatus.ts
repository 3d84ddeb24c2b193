import * as vscode from 'vscode';
import type { ContextReport } from '../core/context/contextReport';
import type { MemoryCounts } from '../core/project/memoryOverview';
import type { ContextSource } from './contextPanel';
import { countsLine } from './helpText';

/** Fill at which the item turns to the warning colour: the next turns will start dropping context. */
const WARN_FILL = 0.9;

const numberFormat = new Intl.NumberFormat('en-US');
const count = (value: number): string => numberFormat.format(Math.round(value));

/** The status bar item and what it shows, for tests. */
export interface ContextStatusItem extends vscode.Disposable {
  readonly item: vscode.StatusBarItem;
}

/**
 * "$(pulse) 1,234 / 8,192": tokens the latest prompt used, of the model's window. Hidden until a turn has a
 * report; a click opens the context panel (engram.showContext).
 */
export function createContextStatusItem(
  source: ContextSource & { latestInWindow(): ContextReport | undefined },
  /** The memory's counts (memoryOverview), said in the tooltip as the badge and `/help` say them. */
  counts: () => MemoryCounts | undefined = () => undefined,
): ContextStatusItem {
  const item = vscode.window.createStatusBarItem('engram.context', vscode.StatusBarAlignment.Right, 100);
  item.name = 'Engram Context';
  item.command = 'engram.showContext';
  const update = (): void => {
    let report: ContextReport | undefined;
    let earlier: ContextReport | undefined;
    try {
      report = source.latestInWindow();
      earlier = report ? undefined : source.latest();
    } catch {
      report = undefined; // the panel reports read failures; the status item just steps aside
    }
    if (report) showReport(item, report);
    else if (earlier) showEarlier(item, earlier);
    else return item.hide();
    let memory: MemoryCounts | undefined;
    try {
      memory = counts();
    } catch {
      memory = undefined;
    }
    if (memory) item.tooltip = `${String(item.tooltip)}\nMemory: ${countsLine(memory)}.`;
  };
  update();
  const subscription = source.onDidChange(update);
  return {
    item,
    dispose: () => {
      subscription.dispose();
      item.dispose();
    },
  };
}

function showReport(item: vscode.StatusBarItem, report: ContextReport): void {
  const fill = `${Math.round(report.health.fill * 100)} %`;
  const flagged = report.runtime?.flagged === true;
  // Flagged by the runtime's own count: the figure shown is the model's, which is the one that overflowed.
  item.text = flagged ? `$(warning) ${count(report.runtime?.counted ?? report.totalTokens)} / ${count(report.window)}` : `$(pulse) ${count(report.totalTokens)} / ${count(report.window)}`;
  // A plain string tooltip: the model name comes from the Ollama server and is not rendered as markdown.
  item.tooltip = [
    `Engram context (${report.model.name})`,
    `${count(report.totalTokens)} tokens of a ${count(report.budget)}-token budget (${fill} full)`,
    `Model window: ${count(report.window)} tokens`,
    report.runtime ? `${flagged ? 'Over budget by the model’s count: ' : 'Checked by the model’s count: '}${report.runtime.why}` : undefined,
    report.health.nextToGo ? `Dropped next: ${report.health.nextToGo}` : undefined,
    'Click to see what went into the prompt.',
  ]
    .filter((line): line is string => line !== undefined)
    .join('\n');
  item.accessibilityInformation = {
    label: `Engram context: ${count(report.totalTokens)} tokens of a ${count(report.window)}-token window, budget ${fill} full${flagged ? `; flagged: ${report.runtime?.why}` : ''}`,
  };
  item.backgroundColor = flagged
    ? new vscode.ThemeColor('statusBarItem.errorBackground')
    : report.health.fill >= WARN_FILL
      ? new vscode.ThemeColor('statusBarItem.warningBackground')
      : undefined;
  item.show();
}

/**
 * After a reload no turn of this window has a figure yet: showing the last stored one as if it were this chat's was
 * the stale figure people saw. The item names Engram and says, in its tooltip, when that last figure is from.
 */
function showEarlier(item: vscode.StatusBarItem, report: ContextReport): void {
  item.text = '$(pulse) Engram';
  item.tooltip = [
    'Engram context: no turn in this window yet.',
    `The last stored turn (${new Date(report.at).toLocaleString()}, ${report.model.name}) used ${count(report.totalTokens)} of a ${count(report.window)}-token window.`,
    'Click to see what went into its prompt.',
  ].join('\n');
  item.accessibilityInformation = { label: 'Engram context: no turn in this window yet' };
  item.backgroundColor = undefined;
  item.show();
}
