// `npm start`: runs Engram in a real VS Code (code-server) in your browser, offline.
//   node scripts/start.mjs [--port 8080] [--workspace DIR] [--stand-in]
// --stand-in also starts the Ollama stand-in (canned replies, no model) and points engram.ollama.host at it;
// without it Engram talks to a real Ollama at its default host.
// Everything lives under .engram-run/ (gitignored), so Engram's memory survives restarts. Ctrl-C stops it all.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as net from 'node:net';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const runDir = path.join(root, '.engram-run');
const require = createRequire(import.meta.url);
// The default workspace: a scratch project of its own, so VS Code and Engram's project memory see it, not this clone.
const scratchWorkspace = path.join(runDir, 'scratch-project');

function parseArgs(argv) {
  const options = { port: 8080, workspace: scratchWorkspace, standIn: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--stand-in') options.standIn = true;
    else if (flag === '--port' && argv[i + 1]) options.port = Number(argv[++i]);
    else if (flag === '--workspace' && argv[i + 1]) options.workspace = path.resolve(argv[++i]);
    else {
      console.error(`unexpected argument "${flag}"\nusage: npm start -- [--port 8080] [--workspace DIR] [--stand-in]`);
      process.exit(2);
    }
  }
  if (!Number.isInteger(options.port) || options.port <= 0 || options.port > 65535) {
    console.error('--port needs a number from 1 to 65535');
    process.exit(2);
  }
  return options;
}

function npmRun(script, { mayFail = false } = {}) {
  console.log(`> npm run ${script}`);
  const result = spawnSync('npm', ['run', '--silent', script], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0 && !mayFail) {
    console.error(`npm run ${script} failed`);
    process.exit(1);
  }
  return result.status === 0;
}

function portIsFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

async function waitForTcp(port, child, timeoutMs) {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
    if (child.exitCode !== null) throw new Error(`the Ollama stand-in exited (${child.exitCode})`);
    const open = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.end(() => resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the Ollama stand-in did not listen on port ${port} within ${timeoutMs} ms`);
}

const options = parseArgs(process.argv.slice(2));
if (!(await portIsFree(options.port))) {
  console.error(`port ${options.port} is in use (another npm start?). Pick another: npm start -- --port 8081`);
  process.exit(1);
}

npmRun('build');
// tsc still writes out/ when someone's test file has a type error; only the helpers below matter here.
if (!npmRun('compile-tests', { mayFail: true })) console.warn('compile-tests reported errors; carrying on');
const { ensureCodeServer, launchCodeServer, linkExtensionInto, findFreePort, killProcessGroup } = require(
  path.join(root, 'out/test/support/codeServer.js'),
);

/**
 * The scratch project sits inside this clone, so without a repository of its own VS Code offers to open the clone's
 * repository and Engram takes the project to be Engram itself. It gets one, with a first commit: a root commit is
 * what names a project in Engram's memory, and it stays the same across restarts.
 */
function makeScratchProject(folder) {
  if (fs.existsSync(path.join(folder, '.git'))) return;
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(
    path.join(folder, 'README.md'),
    '# Scratch project\n\nA project of its own for trying Engram: `npm start` made it. Add files, ask `@engram` about them.\n',
  );
  const git = (...args) => spawnSync('git', ['-c', 'user.name=Engram scratch', '-c', 'user.email=scratch@localhost', ...args], { cwd: folder, stdio: 'ignore' });
  if (git('init', '-q').status !== 0 || git('add', 'README.md').status !== 0 || git('commit', '-q', '-m', 'Scratch project').status !== 0) {
    console.warn(`could not make ${folder} a git repository (is git installed?): VS Code may offer the clone's repository instead`);
  }
}

await ensureCodeServer();
if (options.workspace === scratchWorkspace) makeScratchProject(scratchWorkspace);
else fs.mkdirSync(options.workspace, { recursive: true });
const dataDir = path.join(runDir, 'code-server');
const extensionsDir = path.join(dataDir, 'extensions');
const extensionId = linkExtensionInto(extensionsDir, root);

const stopActions = [];
let stopping = false;
async function stopAll(exitCode) {
  if (stopping) return;
  stopping = true;
  console.log('\nstopping Engram (code-server and the stand-in)...');
  for (const stop of stopActions.reverse()) await stop().catch((error) => console.error(error));
  process.exit(exitCode);
}
process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

// The stand-in's port changes every run, so a host it left in settings.json is removed when running without it.
const standInRecord = path.join(runDir, 'stand-in-host');
const userSettings = {};
if (options.standIn) {
  const standInPort = await findFreePort();
  const standIn = spawn(process.execPath, [path.join(root, 'out/test/support/fakeOllamaMain.js'), '--port', String(standInPort)], {
    cwd: root,
    detached: true, // its own process group, so Ctrl-C in this terminal reaches it only through stopAll
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const standInExited = new Promise((resolve) => standIn.once('exit', resolve));
  stopActions.push(() => killProcessGroup(standIn, standInExited));
  await waitForTcp(standInPort, standIn, 15_000);
  userSettings['engram.ollama.host'] = `http://127.0.0.1:${standInPort}`;
  fs.writeFileSync(standInRecord, userSettings['engram.ollama.host']);
} else if (fs.existsSync(standInRecord)) {
  const settingsFile = path.join(dataDir, 'user-data', 'User', 'settings.json');
  try {
    const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
    // undefined drops the key when launchCodeServer rewrites settings.json; a host the user chose stays.
    if (settings['engram.ollama.host'] === fs.readFileSync(standInRecord, 'utf8')) userSettings['engram.ollama.host'] = undefined;
  } catch {
    // No settings yet: nothing to undo.
  }
  fs.rmSync(standInRecord, { force: true });
}

let server;
try {
  server = await launchCodeServer({ workspace: options.workspace, port: options.port, dataDir, extensionsDir, userSettings });
} catch (error) {
  console.error(error.message);
  await stopAll(1);
}
stopActions.push(() => server.stop());

console.log(
  [
    '',
    `  Engram (${extensionId}) is running in code-server.`,
    `  Open        ${server.url}`,
    `  Workspace   ${options.workspace}`,
    `  Ollama      ${options.standIn ? `${userSettings['engram.ollama.host']} (STAND-IN: canned replies)` : 'the engram.ollama.host setting (default http://127.0.0.1:11434)'}`,
    `  Data        ${dataDir} (memory is kept between runs)`,
    `  Log         ${server.logFile}`,
    '',
    '  After npm run build, reload the browser window to load the new build. Ctrl-C stops everything.',
    '',
  ].join('\n'),
);

// If code-server dies on its own, say so and stop the rest instead of leaving a dead URL up.
const checkAlive = setInterval(() => {
  fetch(`http://127.0.0.1:${server.port}/healthz`).catch(() => {
    clearInterval(checkAlive);
    console.error(`code-server stopped answering; see ${server.logFile}`);
    void stopAll(1);
  });
}, 5000);
