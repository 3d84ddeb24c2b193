// The memory graph at scale, through the real UI: a store seeded with 500 confirmed facts and 200 conversations,
// code-server with Engram, chromium opening "Engram: Show Memory Graph". Prints the render time the page measured
// and saves docs/screenshots/memory-graph.png (or memory-graph-failure.png).
// Usage: node out/test/e2e/graphScreenshot.js
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { parseAllowlist } from '../../src/core/memory/allowlist';
import { Facts } from '../../src/core/memory/facts';
import { launchChromium } from '../support/browser';
import { ensureCodeServer, launchCodeServer, linkExtensionInto, REPO_ROOT, sleep } from '../support/codeServer';
import { openTestStore, wordCounter } from '../support/tempStore';

const SCREENSHOTS_DIR = path.join(REPO_ROOT, 'docs', 'screenshots');
const SCREENSHOT = path.join(SCREENSHOTS_DIR, 'memory-graph.png');
const FAILURE = path.join(SCREENSHOTS_DIR, 'memory-graph-failure.png');
const FACTS = 500;
const SESSIONS = 200;
const LONG_VALUE = 'is a deliberately long label that names the monorepo-wide-configuration-package-with-a-very-long-unbroken-name and more words after it';

/** Writes the store where the extension will find it: <user-data>/User/globalStorage/engram-dev.engram. */
async function seedStore(folder: string): Promise<void> {
  // A scale test: 50 keys of 10 values each, beyond the default allowlist on purpose.
  const keys = Array.from({ length: 50 }, (_, i) => `topic_${String(i).padStart(2, '0')}`);
  const allowlist = parseAllowlist(`keys:\n${keys.map((key) => `  ${key}: { cardinality: multi, description: scale test }`).join('\n')}\n`);
  const store = await openTestStore(folder);
  const facts = new Facts(store, () => allowlist, wordCounter);
  // One long value: the details pane must show it whole, however long.
  for (let i = 0; i < FACTS; i++) facts.remember(keys[i % keys.length], i === 0 ? `value 0 ${LONG_VALUE}` : `value ${i}`);
  for (let s = 0; s < SESSIONS; s++) {
    store.recordTurn({ sessionId: `session-${s}`, role: 'user', text: `question ${s} about the build`, source: 'import' });
    store.recordTurn({ sessionId: `session-${s}`, role: 'assistant', text: `answer ${s}`, source: 'import' });
    if (s % 4 === 0) store.setSummary(`session-${s}`, `## Goal\nFix build ${s}.\n## Decisions\nPin the version.`);
  }
  await store.close({ snapshot: true });
}

async function graphFrame(page: Page, deadline: number): Promise<{ frame: Frame; renderMs: number; nodes: number }> {
  for (;;) {
    for (const frame of page.frames()) {
      const measured = await frame.evaluate(() => ({ ms: document.body?.dataset.renderMs, nodes: document.body?.dataset.nodes })).catch(() => undefined);
      if (measured?.ms && measured.nodes) return { frame, renderMs: Number(measured.ms), nodes: Number(measured.nodes) };
    }
    if (Date.now() > deadline) throw new Error('the memory graph never reported a render');
    await sleep(500);
  }
}

/** Whether the first element matching `selector` has its box inside the graph's scrolled view. */
async function visibleInScroller(frame: Frame, selector: string): Promise<boolean> {
  if (process.env.ENGRAM_E2E_DEBUG) console.log(selector, await frame.evaluate((query) => JSON.stringify(document.querySelector(query)?.querySelector(':scope > .box')?.getBoundingClientRect()), selector));
  return frame.evaluate((query) => {
    const view = document.getElementById('canvas-scroll')?.getBoundingClientRect();
    const box = document.querySelector(query)?.querySelector(':scope > .box')?.getBoundingClientRect();
    return !!view && !!box && box.top >= view.top && box.bottom <= view.bottom && box.left >= view.left && box.right <= view.right;
  }, selector);
}

async function main(): Promise<number> {
  const deadline = Date.now() + Number(process.env.ENGRAM_E2E_TIMEOUT_MS ?? 150_000);
  await ensureCodeServer();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-graph-e2e-'));
  const dataDir = path.join(scratch, 'data');
  const workspace = path.join(scratch, 'workspace');
  fs.mkdirSync(workspace, { recursive: true });
  await seedStore(path.join(dataDir, 'user-data', 'User', 'globalStorage', 'engram-dev.engram'));
  const extensionsDir = path.join(scratch, 'extensions');
  linkExtensionInto(extensionsDir, REPO_ROOT);
  const server = await launchCodeServer({ workspace, extensionsDir, dataDir, userSettings: { 'engram.ollama.host': 'http://127.0.0.1:9' } });
  const chromium = await launchChromium({ headless: true });
  const page = await chromium.browser.newPage({ viewport: { width: 1440, height: 900 } });
  try {
    await page.goto(server.url);
    await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
    // The command exists once the extension has activated: ask again until it is offered.
    for (;;) {
      await page.keyboard.press('F1');
      await page.locator('.quick-input-widget input').fill('>Engram: Show Memory Graph');
      const offered = await page
        .locator('.quick-input-list .monaco-list-row', { hasText: 'Engram: Show Memory Graph' })
        .first()
        .waitFor({ timeout: 10_000 })
        .then(() => true, () => false);
      if (offered) break;
      if (Date.now() > deadline) throw new Error('"Engram: Show Memory Graph" was never offered: did the extension activate?');
      await page.keyboard.press('Escape');
      await sleep(2000);
    }
    await page.keyboard.press('Enter');
    const { frame, renderMs, nodes } = await graphFrame(page, deadline);
    const you = await frame.locator('[role="treeitem"]').first().getAttribute('aria-label');
    if (!you?.startsWith('You')) throw new Error(`the graph does not open on You (first item: ${you})`);
    if (!you.includes(`${FACTS} confirmed facts`)) throw new Error(`You does not count the ${FACTS} facts: ${you}`);
    // Selecting a node fills the details pane from the host's provenance message.
    await frame.locator('[role="treeitem"]').first().click();
    await frame.locator('#details-title').waitFor({ timeout: 15_000 });
    const title = await frame.locator('#details-title').innerText();
    if (!title.includes('You')) throw new Error(`the details pane shows "${title}" for You`);
    // The keyboard: Down to the first key, Right to open it, its facts appear.
    await page.keyboard.press('ArrowDown');
    const focused = await frame.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
    if (!focused.startsWith('topic_00')) throw new Error(`ArrowDown from You focused "${focused}"`);
    await page.keyboard.press('ArrowRight');
    await frame.locator('[role="treeitem"][aria-label^="topic_00: value 0"]').waitFor({ timeout: 15_000 });
    await sleep(500);
    // Opening a key re-lays the tree out: the node just opened must still be on screen, not scrolled away.
    const opened = await visibleInScroller(frame, '[role="treeitem"][aria-label^="topic_00"]');
    if (!opened) throw new Error('after opening topic_00 the node scrolled out of view');
    // Opening a key far from You: You must not slide out of view as the tree grows around it.
    const youBefore = await visibleInScroller(frame, '[role="treeitem"][aria-label^="You"]');
    await frame.locator('[role="treeitem"][aria-label^="topic_12"] > .box').first().click();
    await frame.locator('[role="treeitem"][aria-label^="topic_12: value"]').first().waitFor({ timeout: 15_000 });
    await sleep(500);
    if (youBefore && !(await visibleInScroller(frame, '[role="treeitem"][aria-label^="You"]'))) throw new Error('opening topic_12 scrolled You out of view');
    if (!(await visibleInScroller(frame, '[role="treeitem"][aria-label^="topic_12"]'))) throw new Error('opening topic_12 scrolled it out of view');
    // Scrolled down to what was opened, You is off screen: the corner button brings it back.
    await frame.evaluate(() => document.getElementById('canvas-scroll')?.scrollTo({ top: 1200 }));
    await frame.locator('#back-to-you:not([hidden])').waitFor({ timeout: 5_000 });
    await frame.locator('#back-to-you').click();
    await sleep(300);
    if (!(await visibleInScroller(frame, '[role="treeitem"][aria-label^="You"]'))) throw new Error('"↑ You" did not bring You back into view');
    if (!(await frame.locator('#back-to-you').isHidden())) throw new Error('"↑ You" stays after You is back');
    // The long label: the details pane shows it whole (wrapped), nothing cut at its edge.
    // A mouse click near the node's start, as a person clicks (Playwright's own click would scroll it into view first).
    const wide = await frame.locator(`[role="treeitem"][aria-label*="${LONG_VALUE.slice(0, 30)}"] > .box`).first().boundingBox();
    if (!wide) throw new Error('the long-valued fact is not drawn');
    await page.mouse.click(wide.x + 30, wide.y + wide.height / 2);
    await frame.locator('#details-title', { hasText: 'unbroken-name' }).waitFor({ timeout: 15_000 });
    const clipped = await frame.evaluate(() => {
      const pane = document.getElementById('details')?.getBoundingClientRect();
      const title = document.getElementById('details-title');
      const rect = title?.getBoundingClientRect();
      return !pane || !title || !rect || rect.right > pane.right + 1 || title.scrollWidth > title.clientWidth + 1;
    });
    if (clipped) throw new Error('the details pane cuts the long label');
    // Selecting that wide node must not scroll its key, and You beside it, off the left edge.
    if (!(await visibleInScroller(frame, '[role="treeitem"][aria-label^="topic_00"]'))) throw new Error('selecting a wide node scrolled its key out of view');
    await sleep(800);
    fs.mkdirSync(SCREENSHOTS_DIR, { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
    fs.rmSync(FAILURE, { force: true });
    console.log(`e2e graph: ${FACTS} facts, ${SESSIONS} conversations: opened on "${you}", ${nodes} nodes rendered in ${renderMs} ms`);
    console.log(`e2e graph: screenshot ${path.relative(REPO_ROOT, SCREENSHOT)}`);
    return 0;
  } catch (error) {
    await page.screenshot({ path: FAILURE }).catch(() => undefined);
    console.error(`e2e graph: FAILED: ${(error as Error).message}`);
    console.error(server.logTail(20));
    return 1;
  } finally {
    await chromium.cleanup();
    await server.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
