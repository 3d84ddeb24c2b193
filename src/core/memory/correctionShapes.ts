/**
 * Corrections: a user turn that rejects the assistant turn just before it ("I left Northwind last month,
 * remember?"). Matched narrowly on purpose: a false correction retires a true belief and cites the user's own
 * words as the reason, so four narrow shapes beat any broad notion of disagreement.
 */

export interface CorrectionMatch {
  /** Which shape matched, for the audit trail. */
  readonly shape: string;
  /** What the user named as no longer true ("Northwind" in "I left Northwind"), when they named it. */
  readonly named?: string;
}

const narrowShapes: readonly { shape: string; pattern: RegExp }[] = [
  { shape: '"…, remember?"', pattern: /,?\s*remember\s*\?/i },
  // "If I left Stripe…", "when I quit Globex": a condition or a time, not a statement that the belief is false.
  { shape: '"I left X"', pattern: /(?<!\b(?:[Ii]f|[Ww]hen|[Oo]nce|[Bb]efore|[Aa]fter|[Uu]nless|[Uu]ntil|[Ww]hether|[Ss]hould)\s+)\bI(?:'ve| have)? (?:left|quit)\s+([\p{Lu}][\p{L}\d&.'-]*(?:\s+[\p{Lu}][\p{L}\d&.'-]*)*)/u },
  { shape: '"I\'m not at X any more"', pattern: /\bI(?:'m| am) (?:not|no longer) (?:at|with|in|on|using)\s+([\p{L}][\p{L}\d&.'-]*(?:\s+[\p{Lu}][\p{L}\d&.'-]*)*)\s+any ?more\b/iu },
  { shape: '"not anymore"', pattern: /\bnot any ?more\b/i },
];

/** A restatement that keeps the belief ("Still no meat, but pescatarian now") refines; it never corrects. */
const refinement = /\bstill\b/i;

/** The seed's stretch, kept to show why it is wrong: any "no" or "not" reads as a correction. */
const broadShape = /\b(?:no|not)\b/i;

/**
 * Whether `userText` corrects the assistant turn before it. No preceding assistant turn, no correction:
 * a user changing their mind unprompted is an ordinary statement, handled by capture.
 */
export function detectCorrection(userText: string, previousAssistantText: string | undefined, options: { broad?: boolean } = {}): CorrectionMatch | undefined {
  if (!previousAssistantText) return undefined;
  // The stretch widens the narrow shapes (anything narrow still counts, and so does any "no" or "not"), and it
  // knows nothing of refinements: "Still no meat, but pescatarian now" reads as a correction there.
  const broad = options.broad === true && broadShape.test(userText);
  if (refinement.test(userText)) return broad ? { shape: 'any "no" or "not" (broad)' } : undefined;
  let match: CorrectionMatch | undefined;
  for (const { shape, pattern } of narrowShapes) {
    const found = pattern.exec(userText);
    if (!found) continue;
    if (!match) match = { shape };
    if (found[1] && !match.named) match = { shape: match.shape, named: found[1].trim() };
  }
  if (!match && broad) return { shape: 'any "no" or "not" (broad)' };
  return match;
}

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Whether the assistant's words voice a value: all its words (ignoring "labs", "inc" and the like) appear in order-free form. */
export function voices(assistantText: string, value: string): boolean {
  const said = new Set(words(assistantText));
  const needed = words(value).filter((word) => !['labs', 'inc', 'ltd', 'llc', 'the', 'a', 'an', 'co'].includes(word));
  return needed.length > 0 && needed.every((word) => said.has(word));
}

export interface AttributionCandidate {
  readonly id: string;
  readonly key: string;
  readonly value: string;
  /** In the retrieval log of the assistant turn (injected into its prompt or returned by a tool). */
  readonly retrieved: boolean;
}

/**
 * Which live belief the correction is about. The target must be voiced in the assistant's turn; among those,
 * the ones its prompt carried (retrieval log) first, then one matching what the user named. Ambiguous or
 * none: no target, and the user is asked instead of anything being retired.
 */
export function attributeCorrection(match: CorrectionMatch, assistantText: string, live: readonly AttributionCandidate[]): AttributionCandidate | undefined {
  const voiced = live.filter((candidate) => voices(assistantText, candidate.value));
  const named = match.named;
  const pool = named ? voiced.filter((candidate) => voices(named, candidate.value) || voices(candidate.value, named)) : voiced;
  const choices = pool.length > 0 ? pool : named ? [] : voiced;
  const retrieved = choices.filter((candidate) => candidate.retrieved);
  const finalists = retrieved.length > 0 ? retrieved : choices;
  return finalists.length === 1 ? finalists[0] : undefined;
}
