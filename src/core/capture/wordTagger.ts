/**
 * English sentence splitting and part-of-speech tagging, from the `compromise` library (its tagger build,
 * `compromise/two`): contractions expanded ("im" → i am, "dont" → do not), each word tagged (Pronoun,
 * Copula, PastTense, Modal, Negative, Person, Place, Organization…), with a lexicon of about 25,000 words.
 *
 * Loaded on first use: the library takes about 150 ms to load, and a process that never captures (the CLI's
 * other commands, a test) should not pay for it.
 */
import type nlpType from 'compromise/two';

/** One word as the tagger read it. */
export interface Word {
  /** As written; empty for the second half of a contraction ("I'm" is "I'm" + ""). */
  readonly text: string;
  /** What it stands for: a contraction's expansion ("am"), else the written word. */
  readonly form: string;
  /** Punctuation and spaces before and after it. */
  readonly pre: string;
  readonly post: string;
  readonly tags: ReadonlySet<string>;
}

let library: typeof nlpType | undefined;

function nlp(): typeof nlpType {
  // A plain require keeps the load lazy and lets esbuild bundle the library into dist/.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  library ??= require('compromise/two') as typeof nlpType;
  return library;
}

/** Loads the tagger now (at a quiet moment), so the first captured message does not wait for it. */
export function warmUpTagger(): void {
  void nlp()('I am here').docs;
}

/** Sentences of one line of prose, as the library splits them (it knows "e.g.", "Inc." and "v1.2.3"). */
export function splitSentences(text: string): string[] {
  // Most lines are one sentence: with no sentence mark before its end, the library would not split it, and tokenizing
  // it twice (here and again to tag it) was a quarter of capture's cost.
  const trimmed = text.trim();
  if (!/[.?!…。？！]/u.test(trimmed.replace(/[.?!…。？！"'”’)\]\s]+$/u, ''))) return trimmed ? [trimmed] : [];
  return nlp()
    .tokenize(text)
    .out('array')
    .map((sentence: string) => sentence.trim())
    .filter(Boolean);
}

/**
 * The tagger's first passes only: the lexicon, its pre-tagger (suffixes, neighbours) and the contractions
 * that need tags ("I'd" → would or had). Its post-tagger (hundreds of match rules) costs three times as
 * much and changes little that capture reads; a capitalised word it would have called a proper noun is
 * marked here instead.
 */
const tagPasses = ['lexicon', 'preTagger', 'contractionTwo'];

/** The words of a sentence (or clause), tagged in context. */
export function tagWords(text: string): Word[] {
  const words: Word[] = [];
  const doc = nlp().tokenize(text);
  doc.compute(tagPasses);
  for (const sentence of doc.docs) {
    sentence.forEach((term, i) => {
      const implicit = (term as { implicit?: string }).implicit;
      let tags = term.tags ?? new Set<string>();
      if (i > 0 && /^\p{Lu}/u.test(term.text) && !lexiconTag(term.text) && !tags.has('Pronoun')) tags = new Set(['Noun', 'ProperNoun', 'Singular']);
      words.push({ text: term.text, form: implicit ?? term.text, pre: term.pre, post: term.post, tags });
    });
  }
  return words;
}

/** The tag the lexicon gives a lower-case word on its own ("fear" → Infinitive, "lisbon" → City), if it knows it. */
let lexicon: Record<string, string | undefined> | undefined;

export function lexiconTag(word: string): string | undefined {
  lexicon ??= (nlp().model() as { one: { lexicon: Record<string, string | undefined> } }).one.lexicon;
  // The lexicon spells names without their marks ("cordoba", "izmir"): "Córdoba" and "İzmir" are looked up both ways.
  const tag = lexicon[word.toLowerCase()] ?? lexicon[withoutMarks(word)];
  return typeof tag === 'string' ? tag : undefined;
}

function withoutMarks(word: string): string {
  return word.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();
}

/** Whether the lexicon knows a name as a region's or a country's ("Texas", "South Dakota", "Argentina"). */
export function isRegionName(name: string): boolean {
  lexicon ??= (nlp().model() as { one: { lexicon: Record<string, string | undefined> } }).one.lexicon;
  const tag: unknown = lexicon[name.toLowerCase()];
  const tags = Array.isArray(tag) ? (tag as unknown[]) : [tag];
  return tags.some((one) => one === 'Region' || one === 'Country' || one === 'Province');
}

/** The words written back as text with contractions expanded: "im a dev" → "i am a dev". */
export function plainText(words: readonly Word[]): string {
  return words
    .map((word, i) => {
      const glue = word.text === '' || i === 0 ? ' ' : word.pre;
      return `${glue}${word.form}${word.post}`;
    })
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}
