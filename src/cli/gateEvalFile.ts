import { readFileSync } from 'node:fs';
import { isGateEvalCase, runGateEval, type GateEvalReport } from '../core/eval/gateEval';
import { defaultAllowlist } from '../core/memory/allowlist';
import { UsageError } from './args';

/** Reads a gate-eval corpus (JSON lines) and scores the capture gates over it with the default allowlist. */
export function runGateEvalFile(file: string): GateEvalReport {
  const cases = readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .map((line, index) => ({ line, index }))
    .filter(({ line }) => line.trim() !== '')
    .map(({ line, index }) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch (error) {
        throw new UsageError(`${file} line ${index + 1}: not valid JSON (${(error as Error).message})`);
      }
      if (!isGateEvalCase(parsed)) throw new UsageError(`${file} line ${index + 1}: needs "id", "role", "text" and "expect": [{"key","value"}]`);
      return parsed;
    });
  return runGateEval(cases, defaultAllowlist);
}
