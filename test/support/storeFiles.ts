import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Helpers for fault tests: the CLI as shipped in a child process, fixture files, and the store's files. */
export const cli = join(__dirname, '..', '..', '..', 'dist', 'cli.js');

export function engram(args: string[], env: NodeJS.ProcessEnv = {}): { code: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

export function engramAsync(args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  return spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
}

export function finished(child: ChildProcess): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += chunk));
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** The CLI with `stdin` on its input, asynchronously (so a stand-in Ollama in this process can answer it). */
export function engramWithInput(args: string[], stdin: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: process.env });
  const done = finished(child);
  child.stdin?.end(stdin);
  return done;
}

/** A JSONL file of `count` turns of one session, each line about 200 bytes, with refs `${session}-${i}`. */
export function turnsFile(folder: string, name: string, session: string, count: number, words = 12): string {
  const path = join(folder, name);
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const text = `${session} turn ${i}: ` + Array.from({ length: words }, (_, w) => `word${(i * 31 + w) % 997}`).join(' ');
    lines.push(JSON.stringify({ session, role: i % 2 ? 'assistant' : 'user', text, ref: `${session}-${i}` }));
  }
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

/** Every file under the folder, recursively, with its bytes. */
export function allFiles(folder: string): { path: string; bytes: Buffer }[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? allFiles(path) : [{ path, bytes: readFileSync(path) }];
  });
}

export function journalBytes(store: string): number {
  try {
    return readdirSync(join(store, 'journals')).reduce((sum, name) => sum + statSync(join(store, 'journals', name)).size, 0);
  } catch {
    return 0;
  }
}

/**
 * A small tmpfs, to fill for real: a full disk cannot be faked by a mock. Mounting needs root (CI runs as root);
 * elsewhere it returns the reason, and the test skips saying so.
 */
export function mountTmpfs(sizeKb: number): { folder: string; unmount(): void } | string {
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root (CI runs as root)';
  const folder = mkdtempSync(join(tmpdir(), 'engram-tmpfs-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k`, 'tmpfs', folder], { encoding: 'utf8' });
  if (mounted.status !== 0) {
    rmSync(folder, { recursive: true, force: true });
    return `mount -t tmpfs failed: ${mounted.stderr.trim() || mounted.error?.message}`;
  }
  return {
    folder,
    unmount: () => {
      spawnSync('umount', ['-l', folder]);
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** Fills the file system of `folder` until fewer than `leaveBytes` are free; returns the filler's path. */
export function fillDisk(folder: string, leaveBytes: number): string {
  const filler = join(folder, 'filler');
  mkdirSync(folder, { recursive: true });
  const free = Number(spawnSync('df', ['--output=avail', '-B1', folder], { encoding: 'utf8' }).stdout.trim().split('\n').pop());
  const size = Math.max(0, free - leaveBytes);
  writeFileSync(filler, Buffer.alloc(size));
  return filler;
}
