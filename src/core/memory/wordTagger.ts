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
  return nlp()
    .tokenize(text)
    .out('array')
    .map((sentence: string) => sentence.trim())
    .filter(Boolean);
}

/** The words of a sentence (or clause), tagged in context. */
export function tagWords(text: string): Word[] {
  const words: Word[] = [];
  for (const sentence of nlp()(text).docs) {
    for (const term of sentence) {
      const implicit = (term as { implicit?: string }).implicit;
      words.push({ text: term.text, form: implicit ?? term.text, pre: term.pre, post: term.post, tags: term.tags ?? new Set() });
    }
  }
  return words;
}

/** The tag the lexicon gives a lower-case word on its own ("fear" → Infinitive, "lisbon" → City), if it knows it. */
export function lexiconTag(word: string): string | undefined {
  const lexicon = (nlp().model() as { one: { lexicon: Record<string, string | undefined> } }).one.lexicon;
  const tag = lexicon[word.toLowerCase()];
  return typeof tag === 'string' ? tag : undefined;
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
