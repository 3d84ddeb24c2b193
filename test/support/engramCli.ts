import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** The CLI as it ships (run `npm run build` first). */
export const engramCli = join(__dirname, '..', '..', '..', 'dist', 'cli.js');

/** Runs the shipped CLI in a child process with `stdin` as its input, so a stand-in can run in the test's own process. */
export async function engram(args: string[], stdin: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [engramCli, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdin.end(stdin);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout, stderr };
}
