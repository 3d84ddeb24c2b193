import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { mulberry32 as seededRandom } from '../core/eval/recallCorpus';
import { storeLayout } from '../core/store/storeLayout';
import { corpusSentence } from './benchCorpus';

export type ScalePart = 'import' | 'open' | 'mcp';
export const scaleParts: readonly ScalePart[] = ['import', 'open', 'mcp'];

export interface ScaleOptions {
  readonly turns: number;
  /** Where the generated history file and the imported store are kept between runs (the 1M case takes minutes). */
  readonly cacheFolder: string;
  readonly only: ReadonlySet<ScalePart>;
  readonly runs: number;
  readonly cliPath: string;
  readonly log: (line: string) => void;
}

/** What one fresh process measured around `MemoryStore.open` (see measureOpen in bench.ts). */
export interface OpenMeasure {
  readonly openMs: number;
  /** RSS of the process with the CLI loaded, before the open. */
  readonly rssBeforeMb: number;
  readonly rssAfterMb: number;
  /** After a full GC (the process runs with --expose-gc): what the open keeps, not what it left for the collector. */
  readonly rssAfterGcMb: number;
}

const mb = (bytes: number): number => Math.round((bytes / 1048576) * 10) / 10;
const round1 = (value: number): number => Math.round(value * 10) / 10;

/**
 * `bench-scale`: the store at a given size, measured by the product in fresh processes, as a user meets it: `engram import`
 * of a generated history file (wall time, three runs into fresh folders), cold open (ms, RSS beside the file's size and
 * a bare Node's RSS), and the MCP server (spawn to its `tools/list` answer, and how long its close keeps the client).
 */
export async function runBenchScale(options: ScaleOptions): Promise<Record<string, unknown>> {
  mkdirSync(options.cacheFolder, { recursive: true });
  const historyFile = join(options.cacheFolder, `turns-${options.turns}.jsonl`);
  const store = join(options.cacheFolder, `store-${options.turns}`);
  if (!existsSync(historyFile)) {
    const started = performance.now();
    writeHistoryFile(historyFile, options.turns);
    options.log(`history file of ${options.turns} turns written in ${Math.round(performance.now() - started)} ms: ${historyFile}`);
  }
  const result: Record<string, unknown> = { turns: options.turns, historyFile, historyBytes: statSync(historyFile).size, store };
  if (options.only.has('import') || !existsSync(storeLayout(store).snapshot)) {
    const runs = options.only.has('import') ? options.runs : 1;
    const imports = [];
    for (let run = 1; run <= runs; run++) {
      const folder = `${store}.importing`;
      rmSync(folder, { recursive: true, force: true });
      const measured = timeImport(options.cliPath, historyFile, folder, options.turns);
      options.log(`import run ${run}: ${measured.wallMs} ms, ${measured.turnsPerSecond} turns/s`);
      imports.push(measured);
      rmSync(store, { recursive: true, force: true });
      renameSync(folder, store);
    }
    result.import = imports;
  }
  result.storeBytes = statSync(storeLayout(store).snapshot).size;
  result.storeMb = mb(Number(result.storeBytes));
  if (options.only.has('open')) {
    const bareNodeMb = bareNodeRss();
    const opens = Array.from({ length: options.runs }, (_, run) => {
      const measured = measureOpenInFreshProcess(options.cliPath, store);
      options.log(`open run ${run + 1}: ${measured.openMs} ms, RSS ${measured.rssAfterGcMb} MB after GC (file ${result.storeMb} MB)`);
      return {
        ...measured,
        // Both readings of "RSS <= 2x the file": the whole process, and what it holds beyond a bare Node.
        rssToFile: Math.round((measured.rssAfterGcMb / Number(result.storeMb)) * 100) / 100,
        rssAboveBareNodeToFile: Math.round(((measured.rssAfterGcMb - bareNodeMb) / Number(result.storeMb)) * 100) / 100,
      };
    });
    result.open = { bareNodeMb, runs: opens };
  }
  if (options.only.has('mcp')) {
    const mcp = [];
    for (let run = 1; run <= options.runs; run++) {
      const measured = await measureMcpStart(options.cliPath, store);
      options.log(`mcp run ${run}: tools/list ${measured.toolsListMs} ms after spawn; closed ${measured.exitAfterCloseMs} ms after stdin ended`);
      mcp.push(measured);
    }
    result.mcp = mcp;
  }
  return result;
}

/** A history file in `engram import`'s format: sessions of 20 turns, a minute apart, words drawn as the bench corpus draws them. */
function writeHistoryFile(path: string, turns: number): void {
  const random = seededRandom(42);
  const start = Date.parse('2025-01-01T00:00:00Z');
  const temp = `${path}.partial`;
  const fd = openSync(temp, 'w');
  try {
    let lines: string[] = [];
    for (let i = 0; i < turns; i++) {
      const text = corpusSentence(random, 8 + Math.floor(random() * 40));
      lines.push(JSON.stringify({ session: `history-${Math.floor(i / 20)}`, role: i % 2 === 0 ? 'user' : 'assistant', text, at: new Date(start + i * 60_000).toISOString() }));
      if (lines.length === 10_000 || i === turns - 1) {
        writeSync(fd, `${lines.join('\n')}\n`);
        lines = [];
      }
    }
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
}

function timeImport(cliPath: string, file: string, folder: string, turns: number): { wallMs: number; turnsPerSecond: number; cpuMs?: number } {
  const started = performance.now();
  // A POSIX shell's `times` gives the child's CPU time; elsewhere only the wall time is measured.
  const posix = process.platform !== 'win32';
  const args = [cliPath, 'import', file, '--db', folder];
  const run = posix
    ? spawnSync('/bin/sh', ['-c', '"$0" "$@"; code=$?; times; exit $code', process.execPath, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    : spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const wallMs = Math.round(performance.now() - started);
  if (run.status !== 0) throw new Error(`engram import failed (${run.status}): ${run.stderr.slice(-2000)}`);
  return { wallMs, turnsPerSecond: Math.round((turns / wallMs) * 1000), cpuMs: posix ? childCpuMs(run.stdout) : undefined };
}

/** The child's user + system CPU, from the shell's `times` (its second line: children's times, e.g. "0m12.34s 0m0.56s"). */
function childCpuMs(output: string): number {
  const line = output.trim().split('\n').at(-1) ?? '';
  const seconds = [...line.matchAll(/(\d+)m([\d.]+)s/g)].map((match) => Number(match[1]) * 60 + Number(match[2]));
  return Math.round(seconds.reduce((sum, value) => sum + value, 0) * 1000);
}

function measureOpenInFreshProcess(cliPath: string, folder: string): OpenMeasure {
  const run = spawnSync(process.execPath, ['--expose-gc', cliPath, 'bench-open', '--db', folder], { encoding: 'utf8' });
  const found = /open=(\{.*\})/.exec(run.stdout)?.[1];
  if (run.status !== 0 || !found) throw new Error(`bench-open failed (${run.status}): ${run.stderr.slice(-2000)}`);
  return JSON.parse(found) as OpenMeasure;
}

/** RSS of a fresh Node that loaded nothing, after a GC: what every process pays before Engram's first byte. */
function bareNodeRss(): number {
  const run = spawnSync(process.execPath, ['--expose-gc', '-e', 'global.gc(); process.stdout.write(String(process.memoryUsage().rss))'], { encoding: 'utf8' });
  return mb(Number(run.stdout));
}

/**
 * Spawns `engram mcp`, sends initialize and tools/list as a client does, and times the answer from spawn; then a
 * read-only call (search), and the close: stdin ends and the time until the process is gone is what the client waits.
 */
function measureMcpStart(cliPath: string, folder: string): Promise<{ toolsListMs: number; firstCallMs: number; exitAfterCloseMs: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [cliPath, 'mcp', '--db', folder], { stdio: ['pipe', 'pipe', 'pipe'] });
    const send = (message: object): boolean => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    let buffered = '';
    let toolsListMs = 0;
    let firstCallMs = 0;
    let closedAt = 0;
    let callSentAt = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      for (let newline = buffered.indexOf('\n'); newline >= 0; newline = buffered.indexOf('\n')) {
        const message = JSON.parse(buffered.slice(0, newline)) as { id?: number; error?: unknown };
        buffered = buffered.slice(newline + 1);
        if (message.error) reject(new Error(`the MCP server answered an error: ${JSON.stringify(message.error)}`));
        if (message.id === 2) {
          toolsListMs = round1(performance.now() - started);
          callSentAt = performance.now();
          send({ id: 3, method: 'tools/call', params: { name: 'memory_search', arguments: { query: 'database migration' } } });
        }
        if (message.id === 3) {
          firstCallMs = round1(performance.now() - callSentAt);
          closedAt = performance.now();
          child.stdin.end();
        }
      }
    });
    child.stderr.resume();
    child.on('error', reject);
    child.on('exit', (code) => {
      if (!closedAt) return reject(new Error(`engram mcp exited (${code}) before it answered`));
      resolve({ toolsListMs, firstCallMs, exitAfterCloseMs: round1(performance.now() - closedAt) });
    });
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench-scale', version: '0' } } });
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/list' });
  });
}
