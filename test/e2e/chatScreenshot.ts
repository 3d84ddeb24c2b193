// End to end through the real UI: Engram installed in code-server (as npm start installs it), the Ollama stand-in
// behind it, chromium typing `@engram hello` into the chat view, then a plain self-statement that Engram learns
// and announces, then the Memory view, then a coding question about a selected file in the workspace: the answer
// with its memory receipt, a Wrong click on the receipt, and the context panel on that turn with the code block.
// Saves docs/screenshots/chat.png, chat-learned.png, memory-tree.png, context-panel.png, chat-code-answer.png,
// chat-receipt-wrong.png and context-panel-code.png, or docs/screenshots/chat-failure.png with the reason.
// Usage: node out/test/e2e/chatScreenshot.js   Env: ENGRAM_E2E_TIMEOUT_MS (default 120000), ENGRAM_E2E_HEADED=1.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from '../support/browser';
import { ensureCodeServer, launchCodeServer, linkExtensionInto, REPO_ROOT, sleep } from '../support/codeServer';
import { FakeOllama } from '../support/fakeOllama';

const SCREENSHOTS_DIR = path.join(REPO_ROOT, 'docs', 'screenshots');
const SUCCESS_SCREENSHOT = path.join(SCREENSHOTS_DIR, 'chat.png');
const LEARNED_SCREENSHOT = path.join(SCREENSHOTS_DIR, 'chat-learned.png');
const TREE_SCREENSHOT = path.join(SCREENSHOTS_DIR, 'memory-tree.png');
const PANEL_SCREENSHOT = path.join(SCREENSHOTS_DIR, 'context-panel.png');
const PROJECT_SCREENSHOT = path.join(SCREENSHOTS_DIR, 'memory-tree-project.png');
const PROJECT_STATEMENT = 'we use vitest here';
const SELF_STATEMENT = 'My name is Dana and I work at Fernhill';
const FAILURE_SCREENSHOT = path.join(SCREENSHOTS_DIR, 'chat-failure.png');
const CODE_ANSWER_SCREENSHOT = path.join(SCREENSHOTS_DIR, 'chat-code-answer.png');
const WRONG_SCREENSHOT = path.join(SCREENSHOTS_DIR, 'chat-receipt-wrong.png');
const CODE_PANEL_SCREENSHOT = path.join(SCREENSHOTS_DIR, 'context-panel-code.png');
const CORRECTION_SCREENSHOT = path.join(SCREENSHOTS_DIR, 'chat-correction-after-tools.png');
/** The workspace file the coding question is about: an empty string reaches JSON.parse and throws. */
const CONFIG_FILE = 'src/config.ts';
const CONFIG_SOURCE = [
  "import { readFileSync } from 'node:fs';",
  '',
  'export function parseConfig(path: string): Record<string, unknown> {',
  "  const text = readFileSync(path, 'utf8');",
  '  return JSON.parse(text);',
  '}',
  '',
].join('\n');
const CODE_QUESTION = 'why does parseConfig throw on an empty file?';
const CODE_ANSWER =
  '`JSON.parse("")` throws *Unexpected end of JSON input*: `parseConfig` hands it the file as read, empty or not. ' +
  'Return a default for blank text before parsing:\n\n```ts\nconst text = readFileSync(path, \'utf8\');\nif (text.trim() === \'\') return {};\nreturn JSON.parse(text);\n```';
const MESSAGE = 'hello';
const EXPECTED_REPLY = `Stand-in reply to: ${MESSAGE}`;

// Selectors internal to VS Code 1.139 (see /work/shared/notes/vscode-host.md); they may change between versions.
const WORKBENCH = '.monaco-workbench';
const CHAT_INPUT_PART = '.interactive-input-part';
const CHAT_INPUT = `${CHAT_INPUT_PART} .monaco-editor`;
const CHAT_REPLY = '.interactive-response .value';
const OPEN_CHAT_IN_ASK_MODE = 'Chat: Open Chat (Ask)';
const KNOWN_CHAT_ERRORS = ['Language model unavailable'];
const COPILOT_SIGN_IN_DIALOG = 'Sign in to use GitHub Copilot';
/** The decoration the input puts on a participant mention it recognises. */
const RECOGNISED_MENTION = '[class*="ced-chat-session-text"]';

const cleanups: (() => Promise<void>)[] = [];
async function cleanupAll(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch((error) => console.error('cleanup:', error));
}

function step(message: string, started: number): void {
  console.log(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${message}`);
}

async function main(): Promise<number> {
  const started = Date.now();
  const timeoutMs = Number(process.env.ENGRAM_E2E_TIMEOUT_MS ?? 120_000);
  if (!fs.existsSync(path.join(REPO_ROOT, 'dist', 'extension.js'))) throw new Error('dist/extension.js is missing: npm run build');
  await ensureCodeServer();

  const standIn = new FakeOllama();
  const standInUrl = await standIn.start(0);
  cleanups.push(() => standIn.stop());
  step(`Ollama stand-in on ${standInUrl}`, started);

  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-e2e-'));
  const workspace = path.join(scratch, 'workspace');
  const extensionsDir = path.join(scratch, 'extensions');
  fs.mkdirSync(path.join(workspace, 'src'), { recursive: true });
  fs.writeFileSync(path.join(workspace, CONFIG_FILE), CONFIG_SOURCE);
  // A workspace that says something about itself: Engram proposes what it reads there, with citations.
  const manifest = { name: 'workspace', scripts: { build: 'tsc -p .' }, devDependencies: { prettier: '^3.3.0', typescript: '^5.6.0' } };
  fs.writeFileSync(path.join(workspace, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  cleanups.push(async () => fs.rmSync(scratch, { recursive: true, force: true }));
  linkExtensionInto(extensionsDir, REPO_ROOT);

  const server = await launchCodeServer({ workspace, extensionsDir, userSettings: { 'engram.ollama.host': standInUrl } });
  let failed = true;
  cleanups.push(() => server.stop({ keepDataDir: failed }));
  step(`code-server on port ${server.port}`, started);

  const chromium = await launchChromium({ headless: process.env.ENGRAM_E2E_HEADED !== '1' });
  cleanups.push(chromium.cleanup);
  const page = await chromium.browser.newPage({ viewport: { width: 1440, height: 900 } });
  const deadline = Date.now() + timeoutMs;
  const remaining = () => Math.max(1000, deadline - Date.now());

  try {
    await page.goto(server.url);
    await page.locator(WORKBENCH).waitFor({ state: 'visible', timeout: remaining() });
    step('workbench loaded', started);
    await openChatView(page, remaining);
    step('chat view open', started);
    // Until Engram's model provider has registered, a request fails with "Language model unavailable".
    const modelName = standIn.modelNames[0];
    await page.locator(CHAT_INPUT_PART).first().getByText(modelName).first().waitFor({ timeout: remaining() });
    step(`model ${modelName} selected in the chat input`, started);
    await sendChatMessage(page, '@engram', MESSAGE, remaining);
    step(`sent "@engram ${MESSAGE}"`, started);
    const replyText = await waitForReply(page, remaining);
    step(`reply: "${replyText}"`, started);
    await sleep(500); // let the streaming cursor and progress indicator settle before the picture
    fs.mkdirSync(SCREENSHOTS_DIR, { recursive: true });
    await page.screenshot({ path: SUCCESS_SCREENSHOT });
    console.log(`e2e: chat replied; screenshot ${path.relative(REPO_ROOT, SUCCESS_SCREENSHOT)}`);

    await sendChatMessage(page, '@engram', SELF_STATEMENT, remaining);
    await waitForText(page, 'Learned:', remaining);
    step('the fact was learned and announced', started);
    await sleep(500);
    await page.screenshot({ path: LEARNED_SCREENSHOT });
    await runCommand(page, 'Engram: Focus on Memory View');
    await page.locator('.monaco-list-row', { hasText: 'Fernhill' }).first().waitFor({ timeout: remaining() });
    step('the Memory view shows the fact', started);
    await sleep(500);
    await page.screenshot({ path: TREE_SCREENSHOT });
    await runCommand(page, 'Chat: Open Chat (Ask)');
    await sendChatMessage(page, '@engram', PROJECT_STATEMENT, remaining);
    await waitForText(page, 'Learned:', remaining);
    await runCommand(page, 'Engram: Focus on Memory View');
    await page.locator('.monaco-list-row', { hasText: 'vitest' }).first().waitFor({ timeout: remaining() });
    step('the Memory view shows This project beside You', started);
    await sleep(500);
    await page.screenshot({ path: PROJECT_SCREENSHOT });
    await runCommand(page, 'Engram: Show Context');
    const rows = await waitForPanelRows(page, remaining);
    step(`the context panel shows ${rows.length} blocks: ${rows.map((row) => `${row.id}=${row.tokens}`).join(', ')}`, started);
    if (!rows.some((row) => row.id === 'identity' && row.tokens > 0)) throw new Error('the context panel shows no identity block with a token count');
    await sleep(800);
    await page.screenshot({ path: PANEL_SCREENSHOT });
    console.log(`e2e: screenshots ${[LEARNED_SCREENSHOT, TREE_SCREENSHOT, PROJECT_SCREENSHOT, PANEL_SCREENSHOT].map((file) => path.relative(REPO_ROOT, file)).join(', ')}`);

    await askAboutCode(page, standIn, remaining, started);
    console.log(`e2e: screenshots ${[CODE_ANSWER_SCREENSHOT, WRONG_SCREENSHOT, CODE_PANEL_SCREENSHOT, CORRECTION_SCREENSHOT].map((file) => path.relative(REPO_ROOT, file)).join(', ')}`);
    fs.rmSync(FAILURE_SCREENSHOT, { force: true }); // a stale failure picture would contradict this run
    failed = false;
    return 0;
  } catch (error) {
    fs.mkdirSync(SCREENSHOTS_DIR, { recursive: true });
    await page.screenshot({ path: FAILURE_SCREENSHOT }).catch(() => undefined);
    console.error(`e2e: FAILED: ${(error as Error).message.split('\n')[0]}`);
    console.error(`e2e: failure screenshot ${path.relative(REPO_ROOT, FAILURE_SCREENSHOT)}`);
    console.error(`e2e: what the chat shows:\n${await describeChat(page)}`);
    console.error(`e2e: the stand-in got ${standIn.chatRequests.length} chat requests and ${standIn.requests.length} requests in all`);
    console.error(`--- tail of ${server.logFile} ---\n${server.logTail(30)}`);
    return 1;
  }
}

/**
 * Opens the chat view in Ask mode from the command palette. Not Ctrl+Alt+I: that opens Agent mode (the only mode
 * offered to a signed-out user), where `@engram` does not reach the participant: the request goes to Copilot's
 * setup agent, which shows a "Sign in to use GitHub Copilot" dialog and never answers.
 */
async function openChatView(page: Page, remaining: () => number): Promise<void> {
  await page.locator(WORKBENCH).click({ position: { x: 5, y: 300 } }).catch(() => undefined); // keyboard focus
  await page.keyboard.press('F1');
  const quickInput = page.locator('.quick-input-widget input');
  await quickInput.waitFor({ state: 'visible', timeout: 15_000 });
  await quickInput.fill(`>${OPEN_CHAT_IN_ASK_MODE}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: OPEN_CHAT_IN_ASK_MODE }).first().waitFor({ timeout: 15_000 });
  await page.keyboard.press('Enter');
  await page.locator(CHAT_INPUT).first().waitFor({ state: 'visible', timeout: remaining() });
}

/**
 * Types `@engram hello` and sends it, once the input recognises `@engram`. Until the extension has activated and
 * registered its participant, `@engram` stays plain text and the request goes to Copilot's setup agent instead
 * (a sign-in dialog, no answer), so the mention is retyped until the input decorates it.
 */
async function sendChatMessage(page: Page, participant: string, message: string, remaining: () => number): Promise<void> {
  const input = page.locator(CHAT_INPUT).first();
  const recognisedMention = input.locator(RECOGNISED_MENTION, { hasText: participant });
  await input.click();
  // The participant is sticky: after the first message the input starts with it already.
  const alreadyThere = await recognisedMention.isVisible().catch(() => false);
  for (; !alreadyThere; ) {
    await page.keyboard.type(`${participant} `, { delay: 20 });
    if (await recognisedMention.waitFor({ state: 'visible', timeout: 3000 }).then(() => true, () => false)) break;
    if (remaining() <= 1000) throw new Error(`the chat input never recognised ${participant}: is the participant registered?`);
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await sleep(2000);
  }
  await page.keyboard.type(message, { delay: 20 });
  await sleep(300);
  await page.keyboard.press('Escape'); // closes the suggest widget, which would otherwise eat Enter
  await page.keyboard.press('Enter');
}

/**
 * A real coding question: the file opened and lines 3-5 selected (VS Code attaches the selection to the message), the
 * model reads the whole file with a tool and answers; the receipt under the answer names the facts its prompt carried.
 * Then Wrong on one of them, and the receipt's Context link, which opens the panel on this turn.
 */
async function askAboutCode(page: Page, standIn: FakeOllama, remaining: () => number, started: number): Promise<void> {
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+P');
  const quickInput = page.locator('.quick-input-widget input');
  await quickInput.waitFor({ state: 'visible', timeout: 15_000 });
  await quickInput.fill('config.ts');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'config.ts' }).first().waitFor({ timeout: 15_000 });
  await page.keyboard.press('Enter');
  const editor = page.locator('.editor-instance .monaco-editor').first();
  await editor.waitFor({ state: 'visible', timeout: remaining() });
  await editor.locator('.view-line', { hasText: 'export function parseConfig' }).first().click();
  await page.keyboard.press('Home');
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Shift+End');
  step('opened src/config.ts and selected lines 3-5', started);
  await page.locator('.interactive-input-part').first().locator('text=config.ts').first().waitFor({ timeout: remaining() });
  step('the chat input shows the selection chip', started);
  standIn.enqueue({ toolCalls: [{ name: 'engram_read_file', arguments: { path: CONFIG_FILE } }] });
  standIn.enqueue({ content: CODE_ANSWER });
  await sendChatMessage(page, '@engram', CODE_QUESTION, remaining);
  await waitForText(page, 'Memory used:', remaining);
  const asked = standIn.chatRequests.at(-1);
  const sent = JSON.stringify(asked?.messages ?? []);
  if (!sent.includes('selection src/config.ts:3-5')) throw new Error('the selection did not reach the prompt');
  if (!sent.includes("const text = readFileSync(path, 'utf8');")) throw new Error("the read tool's result did not reach the model");
  step('the answer came, with the selection and the file in its prompt, and the receipt under it', started);
  const response = page.locator('.interactive-response').last();
  const receipt = (await response.innerText()).split('\n').find((line) => line.includes('Memory used:')) ?? '';
  if (!/name = Dana/.test(receipt) || !/employer = Fernhill/.test(receipt)) throw new Error(`the receipt names no learned fact: "${receipt}"`);
  step(`receipt: "${receipt.trim()}"`, started);
  await sleep(800);
  await page.screenshot({ path: CODE_ANSWER_SCREENSHOT });

  const links = response.locator('a');
  const texts = await links.allInnerTexts();
  const wrongIndex = texts.findIndex((text, i) => text.trim() === 'Wrong' && /Dana/.test(texts[i - 1] ?? ''));
  if (wrongIndex < 0) throw new Error(`no Wrong link after name = Dana among ${JSON.stringify(texts)}`);
  await links.nth(wrongIndex).click();
  await page.locator('.notifications-toasts', { hasText: 'no longer believes name = Dana' }).first().waitFor({ timeout: remaining() });
  step('Wrong retired name = Dana', started);
  await sleep(500);
  await page.screenshot({ path: WRONG_SCREENSHOT });

  await links.nth(texts.findIndex((text) => text.trim() === 'Context')).click();
  const rows = await waitForPanelRows(page, remaining, 'attachment.1');
  step(`the context panel on this turn: ${rows.map((row) => `${row.id}=${row.tokens}`).join(', ')}`, started);
  // The notification of the Wrong click would cover the panel; the panel's narrow split is part of the picture.
  await page.locator('.notifications-toasts .codicon-notifications-clear, .notifications-toasts .codicon-close').first().click().catch(() => undefined);
  await expandPanelRow(page, 'attachment.1');
  await sleep(800);
  await page.screenshot({ path: CODE_PANEL_SCREENSHOT });
  await correctAfterTools(page, standIn, remaining, started);
}

/**
 * The seed's correction in a turn that also ran a tool: VS Code folds the tool call into "Completed N steps", and the
 * correction notice with its Undo, and the receipt, must stay visible without expanding it.
 */
async function correctAfterTools(page: Page, standIn: FakeOllama, remaining: () => number, started: number): Promise<void> {
  await page.locator('.interactive-input-part .monaco-editor').first().click();
  standIn.enqueue({ toolCalls: [{ name: 'engram_find_files', arguments: { pattern: '**/*.ts' } }] });
  standIn.enqueue({ content: 'Since you are at Fernhill, follow its config conventions.' });
  await sendChatMessage(page, '@engram', 'how should config files look here?', remaining);
  await waitForText(page, 'Since you are at Fernhill', remaining);
  standIn.enqueue({ toolCalls: [{ name: 'engram_get_errors', arguments: {} }] });
  standIn.enqueue({ content: 'Noted. Here is a neutral layout instead.' });
  await sendChatMessage(page, '@engram', 'I left Fernhill last month, remember?', remaining);
  await waitForText(page, 'Corrected:', remaining);
  const response = page.locator('.interactive-response').last();
  const text = await response.innerText();
  if (!/Completed \d+ step/.test(text)) throw new Error('the turn ran a tool but shows no "Completed N steps"');
  // Visible, not only present: folded steps stay in the DOM, hidden.
  for (const needed of ['Noted. Here is a neutral layout instead.', 'I no longer believe employer = Fernhill', 'Memory used:']) {
    if (!(await response.getByText(needed, { exact: false }).first().isVisible())) throw new Error(`"${needed}" is not visible without expanding the steps`);
  }
  if (!(await response.locator('a', { hasText: 'Undo' }).first().isVisible())) throw new Error("the correction's Undo is not visible");
  step('the correction, its Undo and the receipt show under a reply whose tool call is folded', started);
  await sleep(800);
  await page.screenshot({ path: CORRECTION_SCREENSHOT });
}

/** Opens a block row of the context panel, to show the text that went into the prompt. */
async function expandPanelRow(page: Page, blockId: string): Promise<void> {
  for (const frame of page.frames()) {
    const row = await frame.$(`[data-block-id="${blockId}"]`).catch(() => null);
    if (row) {
      await row.click();
      // Bring the text that went into the prompt into view, under its row.
      await frame.$eval(`[data-detail-for="${blockId}"]`, (detail) => detail.scrollIntoView({ block: 'center' })).catch(() => undefined);
      return;
    }
  }
  throw new Error(`no ${blockId} row in the context panel`);
}

/** The block rows the context panel's DOM shows (its webview is a nested frame), with their token counts. */
async function waitForPanelRows(page: Page, remaining: () => number, needed?: string): Promise<{ id: string; tokens: number }[]> {
  for (;;) {
    for (const frame of page.frames()) {
      const rows = await frame
        .$$eval('[data-block-id]', (elements) => elements.map((element) => ({ id: element.getAttribute('data-block-id') ?? '', tokens: Number(element.getAttribute('data-tokens')) })))
        .catch(() => [] as { id: string; tokens: number }[]);
      if (rows.length > 0 && (!needed || rows.some((row) => row.id === needed))) return rows;
    }
    if (remaining() <= 1000) throw new Error('the context panel never showed its blocks');
    await sleep(500);
  }
}

/** Runs a command by its title from the command palette. */
async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  const quickInput = page.locator('.quick-input-widget input');
  await quickInput.waitFor({ state: 'visible', timeout: 15_000 });
  await quickInput.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 15_000 });
  await page.keyboard.press('Enter');
}

/** Waits until the last chat response shows `text`. */
async function waitForText(page: Page, text: string, remaining: () => number): Promise<void> {
  const lastResponse = page.locator('.interactive-response').last();
  while (!(await lastResponse.innerText({ timeout: 1000 }).catch(() => '')).includes(text)) {
    if (remaining() <= 1000) throw new Error(`no "${text}" in the last chat response within ENGRAM_E2E_TIMEOUT_MS`);
    await sleep(500);
  }
}

/** Waits for the stand-in's answer in the last response; fails at once on an error the chat shows instead. */
async function waitForReply(page: Page, remaining: () => number): Promise<string> {
  const lastResponse = page.locator('.interactive-response').last();
  for (;;) {
    const replies = await page.locator(CHAT_REPLY).allInnerTexts();
    const reply = replies.find((text) => text.includes(EXPECTED_REPLY));
    if (reply) return reply.trim();
    const responseText = (await lastResponse.innerText({ timeout: 1000 }).catch(() => '')).trim();
    const knownError = KNOWN_CHAT_ERRORS.find((error) => responseText.includes(error));
    if (knownError) throw new Error(`the chat answered "${knownError}" instead of "${EXPECTED_REPLY}"`);
    if (await page.getByText(COPILOT_SIGN_IN_DIALOG).isVisible()) {
      throw new Error(`"${COPILOT_SIGN_IN_DIALOG}" dialog: the request went to Copilot's setup agent, not @engram`);
    }
    if (remaining() <= 1000) throw new Error(`no "${EXPECTED_REPLY}" in the chat within ENGRAM_E2E_TIMEOUT_MS`);
    await sleep(500);
  }
}

/** The chat's visible text (requests, replies, errors), for a failure report. */
async function describeChat(page: Page): Promise<string> {
  const texts = await page
    .locator('.interactive-session .interactive-item-container, .notifications-toasts .notification-list-item')
    .allInnerTexts()
    .catch(() => [] as string[]);
  return texts.length > 0 ? texts.map((text) => `  | ${text.replace(/\n+/g, '\n  | ')}`).join('\n') : '  (no chat items found)';
}

process.on('SIGINT', () => void cleanupAll().then(() => process.exit(130)));
main()
  .catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    return 1;
  })
  .then(async (code) => {
    await cleanupAll();
    process.exit(code);
  });
