import assert from 'node:assert/strict';
import { evalRecallCommand } from '../../src/cli/evalRecall';
import { generateRecallCorpus } from '../../src/core/eval/recallCorpus';
import { containsSecret } from '../../src/core/shared/secrets';

const stopwords = new Set(
  ('a an the to of in on for and or is was were be been it its that this these those we i you did do does what why how ' +
    'which when where who with our my your at by from as are so but not after about there they me us can could should ' +
    'would have had has into than then just if once any all').split(' '),
);

function contentWords(text: string): Set<string> {
  return new Set(text.toLowerCase().split(/[^a-z0-9]+/).filter((word) => word.length > 0 && !stopwords.has(word)));
}

describe('recall eval corpus', () => {
  const corpus = generateRecallCorpus();

  it('is deterministic', () => {
    assert.deepEqual(generateRecallCorpus(), corpus);
    assert.deepEqual(generateRecallCorpus(7), corpus);
    assert.notDeepEqual(generateRecallCorpus(8).questions, corpus.questions, 'another seed gives another corpus');
  });

  it('has at least 2,000 turns over many sessions and at least 200 questions', () => {
    assert.ok(corpus.turns.length >= 2000, `${corpus.turns.length} turns`);
    assert.ok(corpus.questions.length >= 200, `${corpus.questions.length} questions`);
    const sessions = new Set(corpus.turns.map((turn) => turn.session));
    assert.ok(sessions.size >= 100, `${sessions.size} sessions`);
  });

  it('writes turns as import lines: unique refs, user and assistant alternating, times in order over a year', () => {
    assert.equal(new Set(corpus.turns.map((turn) => turn.ref)).size, corpus.turns.length, 'refs are unique');
    let previous: (typeof corpus.turns)[number] | undefined;
    for (const turn of corpus.turns) {
      assert.ok(!Number.isNaN(Date.parse(turn.at)) && new Date(turn.at).toISOString() === turn.at, `ISO time ${turn.at}`);
      if (previous?.session === turn.session) {
        assert.notEqual(turn.role, previous.role, `${turn.ref} alternates`);
        assert.ok(turn.at > previous.at, `${turn.ref} comes after ${previous.ref}`);
      } else {
        assert.equal(turn.role, 'user', `${turn.ref} opens its session`);
      }
      assert.ok(turn.text.trim().length > 0);
      assert.ok(!containsSecret(turn.text), `${turn.ref} would be redacted: ${turn.text}`);
      previous = turn;
    }
    const span = Date.parse(corpus.turns[corpus.turns.length - 1].at) - Date.parse(corpus.turns[0].at);
    assert.ok(span > 300 * 86_400_000, 'turns are spread over most of a year');
  });

  it('labels every question with evidence refs that exist, and some need the assistant turn', () => {
    const byRef = new Map(corpus.turns.map((turn) => [turn.ref, turn]));
    assert.equal(new Set(corpus.questions.map((question) => question.id)).size, corpus.questions.length, 'ids are unique');
    assert.equal(new Set(corpus.questions.map((question) => question.query)).size, corpus.questions.length, 'no question is asked twice');
    for (const question of corpus.questions) {
      assert.ok(question.evidence.length > 0, `${question.id} has evidence`);
      for (const ref of question.evidence) assert.ok(byRef.has(ref), `${question.id}: ${ref} exists`);
    }
    const roles = (role: string): number =>
      corpus.questions.filter((question) => question.evidence.every((ref) => byRef.get(ref)?.role === role)).length;
    assert.ok(roles('assistant') >= 50, `${roles('assistant')} questions are answered only by assistant turns`);
    assert.ok(roles('user') >= 20, `${roles('user')} questions are answered only by user turns`);
  });

  it('phrases every question differently from its evidence: at most half its content words appear in any evidence turn', () => {
    const byRef = new Map(corpus.turns.map((turn) => [turn.ref, turn]));
    const offenders: string[] = [];
    for (const question of corpus.questions) {
      const words = contentWords(question.query);
      for (const ref of question.evidence) {
        const turnWords = contentWords(byRef.get(ref)?.text ?? '');
        const shared = [...words].filter((word) => turnWords.has(word));
        if (shared.length > words.size / 2) offenders.push(`${question.id} "${question.query}" shares ${shared.join(', ')} with ${ref}`);
      }
    }
    assert.deepEqual(offenders, []);
  });
});

describe('recall eval', () => {
  it('runs both engines over the corpus and reports recall@5, recall@10 and MRR in [0, 1]', async () => {
    const result = await evalRecallCommand(require.resolve('sql.js/dist/sql-wasm.wasm'));
    const corpus = generateRecallCorpus();
    assert.equal(result.turns, corpus.turns.length);
    assert.equal(result.questions, corpus.questions.length);
    assert.equal(result.sessions, new Set(corpus.turns.map((turn) => turn.session)).size);
    assert.deepEqual(Object.keys(result.results).sort(), ['bm25', 'engram']);
    for (const [engine, scores] of Object.entries(result.results)) {
      for (const [metric, value] of Object.entries(scores)) {
        assert.ok(Number.isFinite(value) && value >= 0 && value <= 1, `${engine} ${metric} = ${value}`);
      }
      assert.ok(scores.recallAt5 <= scores.recallAt10, `${engine}: recall@5 ≤ recall@10`);
      assert.ok(scores.mrr <= scores.recallAt10, `${engine}: MRR ≤ recall@10`);
    }
    assert.match(result.table, /bm25/);
    assert.match(result.table, /engram/);
  });
});
