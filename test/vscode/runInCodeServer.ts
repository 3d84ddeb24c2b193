// The runner CI uses: the test/vscode suite inside a real VS Code (code-server) driven by chromium, offline.
// Usage: node out/test/vscode/runInCodeServer.js [--grep PATTERN]
// Env: ENGRAM_VSCODE_TIMEOUT_MS (default 600000); to try the harness on another extension or suite:
// ENGRAM_VSCODE_EXTENSION_PATH (default: the repository), ENGRAM_VSCODE_TESTS_PATH (default: index.js beside this file).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as util from 'node:util';
import { launchChromium } from '../support/browser';
import { ensureCodeServer, launchCodeServer, REPO_ROOT, workbenchUrl } from '../support/codeServer';
import { RESULT_LINE_PREFIX, type SuiteResult } from './index';

const cleanups: (() => Promise<void>)[] = [];
let cleaningUp: Promise<void> | undefined;

/** Runs every registered teardown once, newest first, whatever failed before. */
function cleanupAll(): Promise<void> {
  cleaningUp ??= (async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error) => console.error('cleanup:', error));
  })();
  return cleaningUp;
}

/** Workbench log lines that say nothing about the extension under test. */
const OFFLINE_NOISE: readonly RegExp[] = [
  /^\[(ChatModelSelection|AgentHost[^\]]*|AccountPolicyGate|Service Worker|reconnection-grace-time)\]/,
  /^(Creating a socket|Resolving connection token|Resolved connection token|Creation of workbench contribution)/,
  /^Updating additional builtin extensions cache/,
  /authentication provider 'github'/,
];

function parseGrep(argv: string[]): string | undefined {
  const index = argv.indexOf('--grep');
  if (index === -1) return undefined;
  const pattern = argv[index + 1];
  if (!pattern) throw new Error('--grep needs a pattern');
  return pattern;
}

async function main(): Promise<number> {
  const started = Date.now();
  const grep = parseGrep(process.argv.slice(2));
  const timeoutMs = Number(process.env.ENGRAM_VSCODE_TIMEOUT_MS ?? 10 * 60_000);
  const extensionPath = path.resolve(process.env.ENGRAM_VSCODE_EXTENSION_PATH ?? REPO_ROOT);
  const testsPath = path.resolve(process.env.ENGRAM_VSCODE_TESTS_PATH ?? path.join(__dirname, 'index.js'));
  const manifest = JSON.parse(fs.readFileSync(path.join(extensionPath, 'package.json'), 'utf8')) as { main?: string };
  if (manifest.main && !fs.existsSync(path.join(extensionPath, manifest.main))) {
    console.error(`${manifest.main} is missing in ${extensionPath}: run npm run build first`);
    return 1;
  }

  await ensureCodeServer();
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-vscode-workspace-'));
  cleanups.push(async () => fs.rmSync(workspace, { recursive: true, force: true }));
  let failed = true;
  const serverStarted = launchCodeServer({ workspace, smokeTestDriver: true });
  cleanups.push(async () => {
    // Keep the data folder of a failed run: its log is what explains the failure.
    await (await serverStarted.catch(() => undefined))?.stop({ keepDataDir: failed });
  });
  const server = await serverStarted;
  console.log(`code-server on port ${server.port} (${Date.now() - started} ms), log ${server.logFile}`);

  const chromium = await launchChromium();
  cleanups.push(chromium.cleanup);
  const page = await chromium.browser.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));

  // The workbench's smoke-test driver calls these two: the host's console, then the suite's exit code.
  let result: SuiteResult | undefined;
  // It carries the whole workbench log, not only the host's console: all of it goes to a file, and the terminal
  // gets everything but the chatter that is harmless offline (ENGRAM_VSCODE_VERBOSE=1 shows that too).
  const workbenchLog = path.join(server.dataDir, 'workbench.log');
  await page.exposeFunction('codeAutomationLog', (type: string, args: unknown) => {
    const line = util.format(...(Array.isArray(args) ? args : [args]));
    fs.appendFileSync(workbenchLog, `[${type}] ${line}\n`);
    if (line.startsWith(RESULT_LINE_PREFIX)) result = JSON.parse(line.slice(RESULT_LINE_PREFIX.length)) as SuiteResult;
    if (process.env.ENGRAM_VSCODE_VERBOSE !== '1' && OFFLINE_NOISE.some((pattern) => pattern.test(line))) return;
    (type === 'error' ? console.error : console.log)(line);
  });
  const suiteExited = new Promise<number>((resolve) => {
    void page.exposeFunction('codeAutomationExit', (code: number) => resolve(code));
  });

  const extensionEnvironment: Record<string, string> = { ENGRAM_TEST: '1' };
  if (grep) extensionEnvironment.ENGRAM_TEST_GREP = grep;
  const url = workbenchUrl({
    port: server.port,
    workspace,
    extensionDevelopmentPath: extensionPath,
    extensionTestsPath: testsPath,
    extensionEnvironment,
  });
  await page.goto(url);

  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
  const exitCode = await Promise.race([suiteExited, timedOut]);
  clearTimeout(timer);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);

  let problem: string | undefined;
  if (exitCode === 'timeout') problem = `timed out after ${timeoutMs} ms (ENGRAM_VSCODE_TIMEOUT_MS)`;
  else if (!result) problem = `the suite exited with code ${exitCode} but printed no ${RESULT_LINE_PREFIX.trim()} line`;

  if (result) console.log(`vscode: ${result.passed} passed, ${result.failed} failed`);
  failed = problem !== undefined || exitCode !== 0 || !result || result.failed > 0;
  if (problem) console.error(`vscode: ${problem}`);
  if (failed) {
    for (const failure of result?.failures ?? []) console.error(`  failed: ${failure.title}: ${failure.error}`);
    if (pageErrors.length > 0) console.error(`workbench page errors (last 10):\n${pageErrors.slice(-10).join('\n')}`);
    console.error(`--- tail of ${server.logFile} ---\n${server.logTail(40)}`);
    console.error(`--- full workbench log: ${workbenchLog}`);
  }
  console.log(`vscode: finished in ${seconds} s`);
  return failed ? 1 : 0;
}

process.on('SIGINT', () => {
  console.error('interrupted: stopping code-server and chromium');
  void cleanupAll().then(() => process.exit(130));
});
process.on('SIGTERM', () => void cleanupAll().then(() => process.exit(143)));

main()
  .catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    return 1;
  })
  .then(async (code) => {
    await cleanupAll();
    process.exit(code);
  });
