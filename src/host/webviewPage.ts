import * as crypto from 'node:crypto';
import * as vscode from 'vscode';

/** What a page's HTML is built from: its script and stylesheet as webview URIs, the CSP source and a nonce. */
export interface PageParts {
  readonly cspSource: string;
  readonly scriptUri: string;
  readonly styleUri: string;
  readonly nonce: string;
}

/** What an Engram page is: its view type, title, column, the bundle's base name in dist/webview, and its HTML. */
export interface PageOptions {
  readonly extensionUri: vscode.Uri;
  readonly viewType: string;
  readonly title: string;
  readonly column: vscode.ViewColumn;
  /** The bundle's base name in dist/webview: `<page>.js` and `<page>.css`. */
  readonly page: string;
  readonly html: (parts: PageParts) => string;
}

/**
 * Opens an Engram webview panel whose page is one bundled script and one stylesheet in dist/webview (so the
 * page may load nothing else), with a fresh nonce for its Content Security Policy.
 */
export function openWebviewPage(options: PageOptions): vscode.WebviewPanel {
  const panel = vscode.window.createWebviewPanel(options.viewType, options.title, options.column, pageWebviewOptions(options.extensionUri));
  fillWebviewPage(panel, options);
  return panel;
}

/** The options every Engram page runs with; VS Code restores a panel after a reload with these too. */
export function pageWebviewOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return {
    enableScripts: true,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview')],
    // Cheap to rebuild: a hidden page is torn down, says ready again when shown, and gets the current state.
    retainContextWhenHidden: false,
  };
}

/**
 * Gives a panel its page: a new one, or one VS Code brought back after a window reload (its serializer hands the
 * panel over with no page in it; the options are set again, so the restored page is exactly as confined as a new one).
 */
export function fillWebviewPage(panel: vscode.WebviewPanel, options: Omit<PageOptions, 'column'>): void {
  const webviewRoot = vscode.Uri.joinPath(options.extensionUri, 'dist', 'webview');
  panel.iconPath = vscode.Uri.joinPath(options.extensionUri, 'media', 'engram.svg');
  const webview = panel.webview;
  webview.options = pageWebviewOptions(options.extensionUri);
  webview.html = options.html({
    cspSource: webview.cspSource,
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(webviewRoot, `${options.page}.js`)).toString(),
    styleUri: webview.asWebviewUri(vscode.Uri.joinPath(webviewRoot, `${options.page}.css`)).toString(),
    nonce: crypto.randomBytes(16).toString('base64'),
  });
}

/**
 * The page's ready handshake: nothing is posted until the page says it listens; a hidden page (torn down)
 * must say so again; waiters learn when the panel closes instead.
 */
export class PageReadiness {
  private ready = false;
  private closed = false;
  private waiters: { resolve: () => void; reject: (error: Error) => void }[] = [];

  constructor(private readonly what: string) {}

  get isReady(): boolean {
    return this.ready && !this.closed;
  }

  markReady(): void {
    this.ready = true;
    for (const waiter of this.waiters.splice(0)) waiter.resolve();
  }

  markHidden(): void {
    this.ready = false;
  }

  whenReady(): Promise<void> {
    if (this.isReady) return Promise.resolve();
    if (this.closed) return Promise.reject(new Error(`${this.what} is closed`));
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  close(): void {
    this.closed = true;
    for (const waiter of this.waiters.splice(0)) waiter.reject(new Error(`${this.what} was closed`));
  }
}
