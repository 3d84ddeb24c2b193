import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const cli = join(root, 'dist', 'cli.js');

function gateEval(corpus: string): { cases: { id: string; proposals: { key: string; value: string; tier: string; status: string }[] }[]; summary: Record<string, number> } {
  const run = spawnSync(process.execPath, [cli, 'gate-eval', join(root, 'test', 'fixtures', corpus), '--json'], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

describe('gate-eval (the CLI over the labelled corpora)', () => {
  it('meets the bar on the development corpus: tier-A precision 1.0, capture precision ≥ 0.9, recall ≥ 0.7', () => {
    const { summary, cases } = gateEval('gate-eval.jsonl');
    assert.ok(summary.cases >= 60, `${summary.cases} cases`);
    assert.equal(summary.tierAPrecision, 1, 'nothing wrong is ever confirmed without the owner');
    assert.ok(summary.capturePrecision >= 0.9, `capture precision ${summary.capturePrecision}`);
    assert.ok(summary.recall >= 0.7, `recall ${summary.recall}`);
    const ollama = cases.find((c) => c.id === 'junk-ollama-running');
    assert.ok(ollama, 'the ADR junk case is in the corpus');
    assert.ok(!ollama.proposals.some((p) => p.key === 'name' && p.status === 'confirmed'), 'name=ollama is never confirmed');
  });

  it('confirms nothing wrong on the held-out corpus, written without seeing the gates', () => {
    const { summary } = gateEval('gate-eval-holdout.jsonl');
    assert.equal(summary.tierAPrecision, 1);
    assert.ok(summary.capturePrecision >= 0.9, `capture precision ${summary.capturePrecision}`);
  });
});
