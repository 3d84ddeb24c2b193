import { el } from './dom';
import { MARGIN, NODE_HEIGHT } from './graphLayout';

/**
 * Where the memory graph's scroller shows what: keeping a node where it was on screen when the tidy tree re-lays out,
 * showing the start of a wide node, and the "↑ You" button once You has scrolled away. Geometry only: which box
 * belongs to which node, and what going back to You does, come from the page.
 */

export type BoxOf = (id: string) => HTMLElement | undefined;

/** Where a node's box sits inside the scroller's visible area, if it is drawn. */
export function screenOffset(scroller: HTMLElement, boxOf: BoxOf, id: string): { x: number; y: number } | undefined {
  const box = boxOf(id);
  if (!box) return undefined;
  const view = scroller.getBoundingClientRect();
  const rect = box.getBoundingClientRect();
  return { x: rect.left - view.left, y: rect.top - view.top };
}

export function inView(scroller: HTMLElement, offset: { x: number; y: number }): boolean {
  return offset.x >= 0 && offset.y >= 0 && offset.x < scroller.clientWidth && offset.y + NODE_HEIGHT <= scroller.clientHeight;
}

/** Scrolls so the node is where it was (`before`), or, drawn for the first time, into the middle of the view. */
export function keepOnScreen(scroller: HTMLElement, boxOf: BoxOf, id: string, before: { x: number; y: number } | undefined): void {
  const now = screenOffset(scroller, boxOf, id);
  if (!now) return;
  if (before) {
    scroller.scrollLeft += now.x - before.x;
    scroller.scrollTop += now.y - before.y;
    return;
  }
  scroller.scrollTop += now.y - scroller.clientHeight / 2 + NODE_HEIGHT / 2;
  scroller.scrollLeft += Math.min(0, now.x - MARGIN);
}

/** The start of a node's box that must show: enough to read what it is. */
const READABLE_START = 80;

/** Scrolls the least that shows the box's start; a wide node whose start shows stays put, its parents with it. */
export function revealStart(scroller: HTMLElement, box: HTMLElement): void {
  const view = scroller.getBoundingClientRect();
  const rect = box.getBoundingClientRect();
  if (rect.top < view.top) scroller.scrollTop -= view.top - rect.top + MARGIN;
  else if (rect.bottom > view.bottom) scroller.scrollTop += rect.bottom - view.bottom + MARGIN;
  if (rect.left < view.left) scroller.scrollLeft -= view.left - rect.left + MARGIN;
  else if (rect.left + Math.min(READABLE_START, rect.width) > view.right) scroller.scrollLeft += rect.left + Math.min(READABLE_START, rect.width) - view.right + MARGIN;
}

/**
 * You sits at the top of a tree that grows downwards as keys open: once the owner scrolls down to what they opened,
 * You is off screen. A small "You" button then stays in the corner and brings it back.
 */
export function addBackToYou(scroller: HTMLElement, rootOffset: () => { x: number; y: number } | undefined, backToYou: () => void): void {
  const button = el('button', { className: 'secondary back-to-you', id: 'back-to-you', text: '↑ You' });
  button.title = 'Scroll back to You';
  button.hidden = true;
  button.addEventListener('click', backToYou);
  scroller.parentElement?.append(button);
  scroller.addEventListener('scroll', () => updateBackToYou(scroller, button, rootOffset()), { passive: true });
}

export function updateBackToYou(scroller: HTMLElement, button: HTMLElement, rootOffset: { x: number; y: number } | undefined): void {
  button.hidden = !rootOffset || inView(scroller, rootOffset);
}
