// The runner CI uses: the test/vscode suite inside a real VS Code (code-server) driven by chromium, offline.
// Usage: node out/test/vscode/runInCodeServer.js [--grep PATTERN]
// Env: ENGRAM_VSCODE_TIMEOUT_MS (default 600000); to try the harness on another extension or suite:
// ENGRAM_VSCODE_EXTENSION_PATH (default: the repository), ENGRAM_VSCODE_TESTS_PATH (default: index.js beside this file).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as util from 'node:util';
import { launchChromium } from '../support/browser';
import { ensureCodeServer, launchCodeServer, REPO_ROOT, workbenchUrl, type RunningCodeServer } from '../support/codeServer';
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
  /ENOTFOUND open-vsx\.org/,
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
  // The timeout covers everything after the install: starting the server, loading the workbench and the suite.
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
  const run: RunState = { pageErrors: [] };
  const extensionEnvironment: Record<string, string> = { ENGRAM_TEST: '1' };
  if (grep) extensionEnvironment.ENGRAM_TEST_GREP = grep;
  const exitCode = await Promise.race([runSuite(run, extensionPath, testsPath, extensionEnvironment), timedOut]);
  clearTimeout(timer);
  const { result, server } = run;

  let problem: string | undefined;
  if (exitCode === 'timeout') problem = `timed out after ${timeoutMs} ms (ENGRAM_VSCODE_TIMEOUT_MS)`;
  else if (!result) problem = `the suite exited with code ${exitCode} but printed no ${RESULT_LINE_PREFIX.trim()} line`;
  if (result) console.log(`vscode: ${result.passed} passed, ${result.failed} failed`);
  run.failed = problem !== undefined || exitCode !== 0 || !result || result.failed > 0;
  if (problem) console.error(`vscode: ${problem}`);
  if (run.failed) {
    for (const failure of result?.failures ?? []) console.error(`  failed: ${failure.title}: ${failure.error}`);
    if (run.pageErrors.length > 0) console.error(`workbench page errors (last 10):\n${run.pageErrors.slice(-10).join('\n')}`);
    if (server) {
      console.error(`--- tail of ${server.logFile} ---\n${server.logTail(40)}`);
      console.error(`--- full workbench log: ${path.join(server.dataDir, WORKBENCH_LOG)}`);
    }
  }
  console.log(`vscode: finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return run.failed ? 1 : 0;
}

interface RunState {
  server?: RunningCodeServer;
  result?: SuiteResult;
  pageErrors: string[];
  failed?: boolean;
}

const WORKBENCH_LOG = 'workbench.log';

/** Starts code-server and chromium, opens the workbench with the test payload; resolves with the suite's exit code. */
async function runSuite(
  run: RunState,
  extensionPath: string,
  testsPath: string,
  extensionEnvironment: Record<string, string>,
): Promise<number> {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-vscode-workspace-'));
  cleanups.push(async () => fs.rmSync(workspace, { recursive: true, force: true }));
  const serverStarted = launchCodeServer({ workspace, smokeTestDriver: true });
  // Keep the data folder of a failed run: its logs are what explain the failure.
  cleanups.push(async () => (await serverStarted.catch(() => undefined))?.stop({ keepDataDir: run.failed !== false }));
  const server = (run.server = await serverStarted);
  console.log(`code-server on port ${server.port}, log ${server.logFile}`);

  // Cleanups wait for launches still under way, so a timeout or Ctrl-C mid-launch leaves no process behind.
  const chromiumStarted = launchChromium();
  cleanups.push(async () => (await chromiumStarted.catch(() => undefined))?.cleanup());
  const chromium = await chromiumStarted;
  const page = await chromium.browser.newPage();
  page.on('pageerror', (error) => run.pageErrors.push(error.message));

  // The workbench's smoke-test driver calls these two: its log (the host's console included), then the suite's exit
  // code. The log is the whole workbench's: all of it goes to a file, and the terminal gets everything but the
  // chatter that is harmless offline (ENGRAM_VSCODE_VERBOSE=1 shows that too).
  const workbenchLog = path.join(server.dataDir, WORKBENCH_LOG);
  await page.exposeFunction('codeAutomationLog', (type: string, args: unknown) => {
    const line = util.format(...(Array.isArray(args) ? args : [args]));
    fs.appendFileSync(workbenchLog, `[${type}] ${line}\n`);
    if (line.startsWith(RESULT_LINE_PREFIX)) run.result = JSON.parse(line.slice(RESULT_LINE_PREFIX.length)) as SuiteResult;
    if (process.env.ENGRAM_VSCODE_VERBOSE !== '1' && OFFLINE_NOISE.some((pattern) => pattern.test(line))) return;
    (type === 'error' ? console.error : console.log)(line);
  });
  let reportExit: (code: number) => void = () => undefined;
  const suiteExited = new Promise<number>((resolve) => (reportExit = resolve));
  await page.exposeFunction('codeAutomationExit', (code: number) => reportExit(code));

  const url = workbenchUrl({
    port: server.port,
    workspace,
    extensionDevelopmentPath: extensionPath,
    extensionTestsPath: testsPath,
    extensionEnvironment,
  });
  await page.goto(url);
  return suiteExited;
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
