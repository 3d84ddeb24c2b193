import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { projectScopeOf } from '../core/project/projectScope';
import { teamFilePath } from '../core/project/teamFile';
import type { TokenCounter } from '../core/shared/tokenCounter';
import { MemoryStore } from '../core/store/memoryStore';
import { EngramMemory } from '../core/turn/engramMemory';

/**
 * A hostile team file of `lines` lines, committed to a fresh repository by an author whose name hides text behind bidi
 * characters. Its fact lines cycle through ten shapes (see `expectedOfHostileTeamFile`): values with bidi overrides
 * and isolates, zero-width spaces, Markdown `command:` links and HTML, citations that climb out of the repository
 * (`../../../../etc/passwd`, `/etc/shadow`, `..\`), a key no project may have, and one value repeated on every tenth
 * line. Measured by `engram bench` (teamFileMs); the unit tests read it too.
 */
export function writeHostileTeamFile(root: string, lines = 20_000): void {
  mkdirSync(join(root, '.engram'), { recursive: true });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Mallory\u202E yrrem');
  git('config', 'user.email', 'm@example.com');
  const header = ['# Project facts', '', 'Written by Engram from what its owner confirmed about this repository.', 'Review it like code.', ''];
  const facts = Array.from({ length: lines - header.length }, (_, i) => hostileLine(i));
  writeFileSync(join(root, teamFilePath), [...header, ...facts].join('\n') + '\n');
  git('add', teamFilePath);
  git('commit', '-q', '-m', 'team facts');
}

function hostileLine(i: number): string {
  const hash = '0123456789abcdef';
  switch (i % 10) {
    case 0: return `- decisions = keep module ${i} small\u202E gnirts nedd`;
    case 1: return `- decisions = zero\u200B width\u200D ${i}\uFEFF`;
    case 2: return `- decisions = [run this](command:engram.forgetEverything) ${i}`;
    case 3: return `- decisions = <img src=x onerror=alert(${i})>`;
    case 4: return `- decisions = cite out ${i}  (cites ../../../../etc/passwd:1 #${hash})`;
    case 5: return `- decisions = cite absolute ${i}  (cites /etc/shadow:1 #${hash})`;
    case 6: return `- decisions = cite windows ${i}  (cites ..\\..\\secrets.txt:1 #${hash})`;
    case 7: return `- root_password_hint = ${i}`;
    case 8: return '- decisions = the same value every time';
    default: return `- decisions = isolate \u2066hidden ${i}\u2069 text`;
  }
}

/** What reading the first `linesRead` lines of such a file must give: proposals, refusals, lines already known. */
export function expectedOfHostileTeamFile(linesRead: number): { factLines: number; proposed: number; refused: number; alreadyKnown: number } {
  const factLines = linesRead - 5;
  const count = (shape: number) => Math.floor((factLines - 1 - shape) / 10) + 1;
  const repeated = count(8);
  return {
    factLines,
    proposed: count(0) + count(1) + count(2) + count(3) + count(9) + 1,
    refused: count(4) + count(5) + count(6) + count(7),
    alreadyKnown: repeated - 1,
  };
}

export interface TeamFileBench {
  readonly lines: number;
  /** First reading on activation, second with the same file (nothing new), in one store. */
  readonly firstMs: number;
  readonly secondMs: number;
  /** The longest the host thread was held during the first reading (event-loop delay). */
  readonly hostBlockedMaxMs: number;
  /** `engram search --workspace` in a fresh process on a fresh store: open, the team file, the search, exit. */
  readonly searchWorkspaceMs: number;
  readonly proposed: number;
  readonly confirmed: number;
}

/** Reads a 20,000-line hostile team file as activation does, twice, and times `search --workspace` on it. */
export async function benchTeamFile(options: { wasmPath: string; tokens: TokenCounter; cliPath: string }): Promise<TeamFileBench> {
  const folder = mkdtempSync(join(tmpdir(), 'engram-bench-team-'));
  const root = join(folder, 'hostile-repo');
  mkdirSync(root);
  writeHostileTeamFile(root);
  const project = projectScopeOf(root);
  const store = await MemoryStore.open({ folder: join(folder, 'team-store'), wasmPath: options.wasmPath, tokens: options.tokens });
  try {
    const memory = new EngramMemory(store, options.tokens);
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    let started = performance.now();
    const first = await memory.projects.readOnOpen(project);
    const firstMs = performance.now() - started;
    delay.disable();
    started = performance.now();
    await memory.projects.readOnOpen(project);
    const secondMs = performance.now() - started;
    started = performance.now();
    execFileSync(process.execPath, [options.cliPath, 'search', 'module', '--db', join(folder, 'search-store'), '--workspace', root, '--json'], { stdio: 'ignore' });
    const searchWorkspaceMs = performance.now() - started;
    const round = (ms: number) => Math.round(ms * 10) / 10;
    return {
      lines: 20_000, firstMs: round(firstMs), secondMs: round(secondMs), hostBlockedMaxMs: round(delay.max / 1e6), searchWorkspaceMs: round(searchWorkspaceMs),
      proposed: first.teamFile.proposed.length, confirmed: memory.facts.list('confirmed', project.scope).length,
    };
  } finally {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  }
}
