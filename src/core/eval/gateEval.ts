import type { Allowlist } from '../memory/allowlist';
import { captureFacts } from '../capture/capture';
import type { Tier } from '../capture/candidate';
import { englishRole } from '../capture/roleTerms';

/** One labelled message: the facts a correct capture proposes from it (none, for the junk). */
export interface GateEvalCase {
  readonly id: string;
  readonly role: 'user' | 'assistant';
  readonly text: string;
  readonly expect: readonly { readonly key: string; readonly value: string }[];
}

export interface GateEvalProposal {
  readonly key: string;
  readonly value: string;
  readonly tier: Tier;
  /** What confirmation would do with it: tier A is confirmed in the turn, the rest waits for the owner. */
  readonly status: 'confirmed' | 'proposed';
  readonly expected: boolean;
}

export interface GateEvalReport {
  readonly cases: { readonly id: string; readonly blocked?: string; readonly proposals: GateEvalProposal[]; readonly missed: { key: string; value: string }[] }[];
  readonly summary: {
    readonly cases: number;
    readonly expected: number;
    readonly proposals: number;
    readonly correct: number;
    readonly capturePrecision: number;
    readonly recall: number;
    readonly tierA: number;
    readonly tierACorrect: number;
    readonly tierAPrecision: number;
    /** Tier-A proposals the label does not expect: beliefs confirmed without the owner that are wrong. */
    readonly tierAErrors: number;
    readonly byTier: Record<Tier, number>;
  };
}

export function isGateEvalCase(value: unknown): value is GateEvalCase {
  const c = value as Partial<GateEvalCase> | null;
  return (
    !!c &&
    typeof c.id === 'string' &&
    (c.role === 'user' || c.role === 'assistant') &&
    typeof c.text === 'string' &&
    Array.isArray(c.expect) &&
    c.expect.every((e) => e && typeof e.key === 'string' && typeof e.value === 'string')
  );
}

const sameText = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();
/** A company's legal form ("Ltd", "GmbH", "AG", "Inc."), which names the same employer with it or without it. */
const legalForm = /,?\s+(?:ltd|limited|inc|incorporated|llc|plc|gmbh|ag|sa|s\.a|sarl|srl|s\.r\.l|bv|b\.v|nv|ab|as|oy|pty|co|corp|kk)\.?$/i;
/**
 * A role in the owner's language matches its English term either way ("développeuse backend", "backend developer"),
 * and an employer matches with or without its legal form ("Rails Bank Ltd", "Rails Bank").
 */
function sameValue(key: string, a: string, b: string): boolean {
  if (sameText(a, b)) return true;
  if (key === 'employer') return sameText(a.replace(legalForm, ''), b.replace(legalForm, ''));
  if (key !== 'role') return false;
  const [englishA, englishB] = [englishRole(a), englishRole(b)];
  return (!!englishA && (sameText(englishA, b) || (!!englishB && sameText(englishA, englishB)))) || (!!englishB && sameText(a, englishB));
}
const ratio = (part: number, whole: number): number => (whole === 0 ? 1 : Math.round((part / whole) * 1000) / 1000);

/** Runs capture over labelled messages and scores it: precision of what it proposes, recall of what it should. */
export function runGateEval(cases: readonly GateEvalCase[], allowlist: Allowlist): GateEvalReport {
  const byTier: Record<Tier, number> = { A: 0, B: 0, C: 0 };
  let expected = 0;
  let proposals = 0;
  let correct = 0;
  let tierA = 0;
  let tierACorrect = 0;
  const results = cases.map((labelled) => {
    const captured = captureFacts(labelled.role, labelled.text, allowlist);
    const found = captured.candidates.map((candidate) => {
      const hit = labelled.expect.some((e) => sameText(e.key, candidate.key) && sameValue(candidate.key, e.value, candidate.value));
      byTier[candidate.tier]++;
      proposals++;
      if (hit) correct++;
      if (candidate.tier === 'A') {
        tierA++;
        if (hit) tierACorrect++;
      }
      return { ...candidate, status: candidate.tier === 'A' ? ('confirmed' as const) : ('proposed' as const), expected: hit };
    });
    expected += labelled.expect.length;
    const missed = labelled.expect.filter((e) => !captured.candidates.some((c) => sameText(c.key, e.key) && sameValue(c.key, e.value, c.value)));
    return { id: labelled.id, blocked: captured.blocked, proposals: found, missed: missed.map((e) => ({ key: e.key, value: e.value })) };
  });
  return {
    cases: results,
    summary: {
      cases: cases.length,
      expected,
      proposals,
      correct,
      capturePrecision: ratio(correct, proposals),
      recall: ratio(expected - results.reduce((n, r) => n + r.missed.length, 0), expected),
      tierA,
      tierACorrect,
      tierAPrecision: ratio(tierACorrect, tierA),
      tierAErrors: tierA - tierACorrect,
      byTier,
    },
  };
}
