import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { runGateEval } from '../../src/core/eval/gateEval';
import { defaultAllowlist } from '../../src/core/memory/allowlist';

const root = join(__dirname, '..', '..', '..');
const cli = join(root, 'dist', 'cli.js');

function gateEval(corpus: string): { cases: { id: string; proposals: { key: string; value: string; tier: string; status: string }[] }[]; summary: Record<string, number> } {
  const run = spawnSync(process.execPath, [cli, 'gate-eval', join(root, 'test', 'fixtures', corpus), '--json'], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

describe('gate-eval (the CLI over the labelled corpora)', () => {
  it('counts an employer with or without its legal form as the same, and nothing more', () => {
    const scored = (text: string, value: string): number =>
      runGateEval([{ id: 'one', role: 'user', text, expect: [{ key: 'employer', value }] }], defaultAllowlist).summary.correct;
    assert.equal(scored('I work at Rails Bank Ltd.', 'Rails Bank'), 1);
    assert.equal(scored('I work at Kleeblatt.', 'Kleeblatt AG'), 1);
    assert.equal(scored('I work at Rails Banking.', 'Rails Bank'), 0);
  });

  it('meets the bar on the development corpus: no tier-A error, capture precision ≥ 0.95, recall ≥ 0.8, at least 400 cases', () => {
    const { summary, cases } = gateEval('gate-eval.jsonl');
    assert.ok(summary.cases >= 400, `${summary.cases} cases`);
    assert.equal(summary.tierAPrecision, 1, 'nothing wrong is ever confirmed without the owner');
    assert.equal(summary.tierAErrors, 0, 'no tier-A error');
    assert.ok(summary.capturePrecision >= 0.95, `capture precision ${summary.capturePrecision}`);
    assert.ok(summary.recall >= 0.8, `recall ${summary.recall}`);
    const ollama = cases.find((c) => c.id === 'junk-ollama-running');
    assert.ok(ollama, 'the ADR junk case is in the corpus');
    assert.ok(!ollama.proposals.some((p) => p.key === 'name' && p.status === 'confirmed'), 'name=ollama is never confirmed');
  });

  it('confirms nothing wrong on the held-out corpus, written without seeing the gates', () => {
    const { summary } = gateEval('gate-eval-holdout.jsonl');
    assert.equal(summary.tierAPrecision, 1);
    assert.ok(summary.capturePrecision >= 0.9, `capture precision ${summary.capturePrecision}`);
  });

  it('confirms nothing wrong on the hard-case corpus (a third author: look-alikes, pastes without markers, corrections)', () => {
    const { summary } = gateEval('gate-eval-hard.jsonl');
    console.log(`      hard gate-eval: ${summary.cases} cases, capture precision ${summary.capturePrecision}, recall ${summary.recall}, tier A ${summary.tierA} (${summary.tierAErrors} wrong)`);
    assert.equal(summary.tierAErrors, 0, 'no tier-A error');
  });

  it('reads English where it missed before (lists, fragments, informal text, a secret beside facts, moves) and confirms nothing wrong', () => {
    const { summary } = gateEval('capture-dev-english.jsonl');
    console.log(`      English dev gate-eval: ${summary.cases} cases, capture precision ${summary.capturePrecision}, recall ${summary.recall}, tier A ${summary.tierA} (${summary.tierAErrors} wrong)`);
    assert.equal(summary.tierAErrors, 0, 'no tier-A error');
    assert.ok(summary.capturePrecision >= 0.95, `capture precision ${summary.capturePrecision}`);
    assert.ok(summary.recall >= 0.85, `recall ${summary.recall}`);
  });

  it('confirms nothing wrong where a plain-looking statement is a scenario, a test, a story, a moment or a cut name', () => {
    const { summary } = gateEval('capture-dev-tier-a.jsonl');
    console.log(`      tier-A probes: ${summary.cases} cases, capture precision ${summary.capturePrecision}, recall ${summary.recall}, tier A ${summary.tierA} (${summary.tierAErrors} wrong)`);
    assert.equal(summary.tierAErrors, 0, 'no tier-A error');
    assert.ok(summary.tierA >= 5, `the plain statements among them are still confirmed (tier A ${summary.tierA})`);
  });

  for (const corpus of ['gate-eval-blind.jsonl', 'gate-eval-blind2.jsonl', 'gate-eval-blind3.jsonl', 'gate-eval-blind4.jsonl', 'gate-eval-blind5.jsonl', 'gate-eval-blind6.jsonl', 'gate-eval-blind7.jsonl', 'gate-eval-blind8.jsonl', 'gate-eval-blind9.jsonl', 'gate-eval-blind10.jsonl', 'gate-eval-blind11.jsonl']) {
    it(`reports the blind corpus ${corpus} (written by an author who never saw the gates): scored, never gated`, function () {
      const { summary } = gateEval(corpus);
      const line = `blind gate-eval ${corpus}: ${summary.cases} cases, capture precision ${summary.capturePrecision}, recall ${summary.recall}, tier A ${summary.tierA} (${summary.tierAErrors} wrong)`;
      console.log(`      ${line}`);
      assert.ok(summary.cases > 0, line);
    });
  }
});
