import type * as vscode from 'vscode';
import { escapeHtml } from '../../webview/protocol';
import { PageReadiness } from './webviewPage';

export type PanelLog = Pick<vscode.LogOutputChannel, 'warn' | 'error'>;

export const consoleLog: PanelLog = { warn: (message: string) => console.warn(message), error: (message: string | Error) => console.error(message) };

/**
 * What both Engram panels share: the page is a trust boundary (a guard drops anything outside the protocol), nothing
 * is posted before its ready handshake, a hidden page is torn down and says ready again, and every change of memory
 * refreshes it. A panel adds what its page asks for (`handle`) and what it shows (`refresh`).
 */
export abstract class WebviewPanelBase<ToHost extends { readonly type: string }, ToWebview> implements vscode.Disposable {
  /** The last message posted to the page, for tests. */
  lastPosted: ToWebview | undefined;
  protected readonly readiness: PageReadiness;
  protected readonly disposables: vscode.Disposable[] = [];
  protected disposed = false;

  protected constructor(
    readonly panel: vscode.WebviewPanel,
    /** "context panel", "memory graph": how the log names this panel. */
    protected readonly what: string,
    private readonly isMessageToHost: (message: unknown) => message is ToHost,
    onDidChange: vscode.Event<void>,
    protected readonly log: PanelLog,
  ) {
    this.readiness = new PageReadiness(`the ${what}`);
    this.disposables.push(
      panel.webview.onDidReceiveMessage((message: unknown) => this.receive(message)),
      // A hidden page is torn down (retainContextWhenHidden is off); it says ready again when shown.
      panel.onDidChangeViewState(() => {
        if (!panel.visible) this.readiness.markHidden();
      }),
      onDidChange(() => this.refresh()),
      panel.onDidDispose(() => this.dispose()),
    );
  }

  /** Resolves once the page is loaded and listening (at once if it already is); rejects if the panel closes first. */
  whenReady(): Promise<void> {
    return this.readiness.whenReady();
  }

  /** Posts what the page should show now; a no-op until the page is ready. */
  abstract refresh(): void;

  /** A message the guard let through; `ready` is answered here already. */
  protected abstract handle(message: ToHost): void;

  /** Told when the panel closes, before its disposables go. */
  protected onDispose(): void {}

  protected get canPost(): boolean {
    return this.readiness.isReady && !this.disposed;
  }

  protected post(message: ToWebview): void {
    this.lastPosted = message;
    void this.panel.webview.postMessage(message).then(undefined, (error: unknown) => {
      this.log.warn(`${this.what}: posting failed: ${String(error)}`);
    });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.onDispose();
    this.readiness.close();
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
    this.panel.dispose();
  }

  private receive(message: unknown): void {
    // The page is a trust boundary: anything not in the protocol is dropped, and noted.
    if (!this.isMessageToHost(message)) {
      this.log.warn(`${this.what}: ignored an unexpected message: ${describeUntrusted(message)}`);
      return;
    }
    if (message.type === 'ready') {
      this.readiness.markReady();
      this.refresh();
      return;
    }
    this.handle(message);
  }
}

/** A short, single-line description of something untrusted, for the log. */
export function describeUntrusted(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/**
 * A page with a strict CSP (no inline script or style, nothing from the network): one nonce'd script and its
 * stylesheet. `styleNonce` lets the webview toolkit's one <style> probe run (FAST's :focus-visible check, which reads
 * the csp-nonce meta); its component styles are constructable stylesheets, which the CSP does not govern.
 */
export function pageHtml(options: { cspSource: string; scriptUri: string; styleUri: string; nonce: string; title: string; styleNonce?: boolean }): string {
  const csp = [
    "default-src 'none'",
    `style-src ${options.cspSource}${options.styleNonce ? ` 'nonce-${options.nonce}'` : ''}`,
    `script-src 'nonce-${options.nonce}'`,
    `font-src ${options.cspSource}`,
  ].join('; ');
  // cspSource comes from VS Code and the nonce is base64: neither can hold a quote, so the policy reads as written.
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${csp}">${options.styleNonce ? `\n  <meta property="csp-nonce" content="${escapeHtml(options.nonce)}">` : ''}
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <link rel="stylesheet" href="${escapeHtml(options.styleUri)}">
  <title>${escapeHtml(options.title)}</title>
</head>
<body>
  <main id="root" aria-busy="true"><p>Loading…</p></main>
  <script nonce="${escapeHtml(options.nonce)}" src="${escapeHtml(options.scriptUri)}"></script>
</body>
</html>`;
}
