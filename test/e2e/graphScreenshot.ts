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

/** Writes the store where the extension will find it: <user-data>/User/globalStorage/engram-dev.engram. */
async function seedStore(folder: string): Promise<void> {
  // A scale test: 50 keys of 10 values each, beyond the default allowlist on purpose.
  const keys = Array.from({ length: 50 }, (_, i) => `topic_${String(i).padStart(2, '0')}`);
  const allowlist = parseAllowlist(`keys:\n${keys.map((key) => `  ${key}: { cardinality: multi, description: scale test }`).join('\n')}\n`);
  const store = await openTestStore(folder);
  const facts = new Facts(store, () => allowlist, wordCounter);
  for (let i = 0; i < FACTS; i++) facts.remember(keys[i % keys.length], `value ${i}`);
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
