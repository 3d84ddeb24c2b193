/**
 * Retired beliefs in a prompt. Retiring a belief (a correction, a newer value, Forget, undo) takes it out of the
 * profile, but the recent conversation, the summary and recalled turns still say it: "You work at Northwind Labs".
 * A model reads those as true unless the prompt says otherwise, so every block that voices a retired belief is
 * marked: one L0 line per belief, and a note on each turn that voices it.
 */

export interface RetiredBelief {
  readonly key: string;
  readonly value: string;
  /** When it was retired (ISO-8601). */
  readonly retiredAt: string;
  /** The reason in the audit trail ("corrected by the owner: …", "replaced by a newer value", "undone …"). */
  readonly reason: string;
  /** The live value of its key now, when there is one. */
  readonly now?: string;
}

/** Values this short ("C", "Go") would match inside other words; they are matched as whole words only (always). */
const patterns = new Map<string, RegExp>();

function voicePattern(value: string): RegExp {
  const known = patterns.get(value);
  if (known) return known;
  const escaped = value.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'iu');
  if (patterns.size > 2000) patterns.clear();
  patterns.set(value, pattern);
  return pattern;
}

/** Does this text say the retired value? (A whole-word, case-insensitive match.) */
export function voices(text: string, belief: RetiredBelief): boolean {
  return belief.value.trim().length > 0 && voicePattern(belief.value).test(text);
}

/** The retired beliefs any of these texts voice, each once, in the order given. */
export function voicedBeliefs(texts: readonly string[], retired: readonly RetiredBelief[]): RetiredBelief[] {
  return retired.filter((belief) => texts.some((text) => voices(text, belief)));
}

/** The L0 line: what is no longer true, since when, what is true now, and that earlier words are out of date. */
export function staleLine(belief: RetiredBelief): string {
  const why = /correct/i.test(belief.reason) ? 'the user corrected this' : /undo|forgot|forget/i.test(belief.reason) ? 'the user took this back' : 'it was replaced';
  const now = belief.now ? `; now: ${belief.key} = ${belief.now}` : '';
  return `- No longer true: ${belief.key} = ${belief.value} (${why} on ${belief.retiredAt.slice(0, 10)}${now}). Earlier turns saying otherwise are out of date.`;
}

/** The block's text: a heading the model cannot mistake for conversation, then one line per belief. */
export function staleBlockText(beliefs: readonly RetiredBelief[]): string {
  return `Out of date (do not repeat these as true):\n${beliefs.map(staleLine).join('\n')}`;
}

/** The note added to a turn (or a recalled one) that voices retired beliefs. */
export function staleNote(beliefs: readonly RetiredBelief[]): string {
  return `\n[Out of date: ${beliefs.map((belief) => `${belief.key} = ${belief.value} is no longer true`).join('; ')}.]`;
}

/** A text with the note for the retired beliefs it voices, or the text itself when it voices none. */
export function markStale(text: string, retired: readonly RetiredBelief[]): { text: string; marked: RetiredBelief[] } {
  const marked = retired.filter((belief) => voices(text, belief));
  return marked.length ? { text: text + staleNote(marked), marked } : { text, marked };
}
