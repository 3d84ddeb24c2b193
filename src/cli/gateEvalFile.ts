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

/** The command's two outputs: every case with a miss or a wrong proposal and the summary, or the JSON report. */
export function gateEvalOutput(report: GateEvalReport): { json: unknown; human: string } {
  const s = report.summary;
  const human = [
    ...report.cases
      .filter((c) => c.missed.length > 0 || c.proposals.some((p) => !p.expected))
      .map((c) => `${c.id}: wrong ${c.proposals.filter((p) => !p.expected).map((p) => `${p.key}=${p.value} (${p.tier})`).join(', ') || '-'}; missed ${c.missed.map((m) => `${m.key}=${m.value}`).join(', ') || '-'}`),
    `${s.cases} cases: capture precision ${s.capturePrecision}, recall ${s.recall}, tier-A precision ${s.tierAPrecision} ` +
      `(${s.correct} of ${s.proposals} proposals right, ${s.expected} expected; tiers A ${s.byTier.A}, B ${s.byTier.B}, C ${s.byTier.C})`,
  ].join('\n');
  const json = { cases: report.cases.map(({ id, proposals }) => ({ id, proposals: proposals.map(({ key, value, tier, status }) => ({ key, value, tier, status })) })), summary: report.summary, details: report.cases };
  return { json, human };
}
