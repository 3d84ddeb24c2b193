/**
 * What both webview pages build their DOM with. Every string they show is memory text or derived from it, so
 * text only ever goes through textContent: nothing here parses a string as HTML.
 */

/** The handle VS Code gives a webview page (once per page) to talk to the extension and keep its state. */
export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** The page's one handle: VS Code throws if a page asks twice. */
export function vsCodeApi(): VsCodeApi {
  return acquireVsCodeApi();
}

/** Shorthand for document.createElement with a class, an id and text. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, options?: ElementOptions): HTMLElementTagNameMap[K];
export function el(tag: string, options?: ElementOptions): HTMLElement;
export function el(tag: string, options: ElementOptions = {}): HTMLElement {
  const element = document.createElement(tag);
  if (options.className) element.className = options.className;
  if (options.id) element.id = options.id;
  if (options.text !== undefined) element.textContent = options.text;
  return element;
}

interface ElementOptions {
  readonly className?: string;
  readonly text?: string;
  readonly id?: string;
}
