import { readFileSync } from 'node:fs';
import { cl100kTokenCounter } from '../core/shared/tokenCounter';
import { isReplayLine, runReplay, type ReplayPolicy, type ReplayResult } from '../core/eval/replay';
import { UsageError } from './args';

const policies: readonly ReplayPolicy[] = ['defer', 'consolidate', 'corrections', 'both'];

export async function replayFile(file: string, policy: string, broadCorrections: boolean, wasmPath: string, markStale = true): Promise<ReplayResult> {
  if (!policies.includes(policy as ReplayPolicy)) throw new UsageError(`--policy must be one of ${policies.join(', ')}`);
  const lines = readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .map((text, index) => ({ text, index }))
    .filter(({ text }) => text.trim() !== '')
    .map(({ text, index }) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        throw new UsageError(`${file} line ${index + 1}: not valid JSON (${(error as Error).message})`);
      }
      if (!isReplayLine(parsed)) throw new UsageError(`${file} line ${index + 1}: needs "session", "role", "text" (and optionally "falsifies": ["key=value"])`);
      return parsed;
    });
  return runReplay(lines, { policy: policy as ReplayPolicy, broadCorrections, wasmPath, tokens: cl100kTokenCounter, markStale });
}
