import { compiled } from './compiledPatterns';
import standing from './frames/standing.json';

/**
 * What makes a sentence of the owner's something other than a standing statement, in each language capture reads: a
 * question, a denial, the past, a plan, a supposition, a wish, a trial, a passing moment, someone else, a request. The
 * words are data (frames/standing.json); a sentence is read with its own language's and with English's, which owners
 * mix into every language.
 */
export interface LanguageMarkers {
  readonly cues: readonly string[];
  readonly notStanding: readonly string[];
  readonly notChosen: readonly string[];
  readonly we: readonly string[];
  readonly me: readonly string[];
}

const languages = Object.entries((standing as { languages: Record<string, LanguageMarkers> }).languages);

const patterns = new WeakMap<readonly string[], RegExp>();

/** One pattern for a list of markers, built once per list. */
export function markerPattern(words: readonly string[]): RegExp {
  let pattern = patterns.get(words);
  if (!pattern) {
    // Whole words, where a word may hold "." or "-" ("Next.js" holds no "next"; "e.g" is one marker); a marker that
    // starts inside a word ("n't", "'ll") needs no boundary before it.
    const inside = words.filter((word) => /^(?:n'|')/.test(word)).map((word) => word.replace(/'/g, "['’]"));
    const whole = words.filter((word) => !/^(?:n'|')/.test(word)).map((word) => word.replace(/'/g, "['’]"));
    const starts = [...(whole.length > 0 ? [String.raw`(?<![\p{L}\p{N}.+#'’-])(?:${whole.join('|')})`] : []), ...inside];
    pattern = compiled(String.raw`(?:${starts.join('|')})(?![\p{L}\p{N}+#'’-]|\.\p{L})`, 'iu');
    patterns.set(words, pattern);
  }
  return pattern;
}

/**
 * A list of markers read the fast way: its plain words by looking each word of the sentence up in a set, the few with
 * spaces, apostrophes or patterns by one regular expression (a pattern of hundreds of words, tried at every position
 * of every sentence, cost capture ten times its time).
 */
class MarkerList {
  private readonly plainWords = new Set<string>();
  private readonly others?: RegExp;

  constructor(words: readonly string[]) {
    const others: string[] = [];
    for (const word of words) {
      if (/^[\p{L}\p{N}]+$/u.test(word)) this.plainWords.add(word.toLowerCase());
      else others.push(word);
    }
    if (others.length > 0) this.others = new RegExp(markerPattern(others).source, 'giu');
  }

  /** How many of the sentence's words are plain words of the list (enough to tell a language by). */
  countPlain(words: readonly string[]): number {
    let found = 0;
    for (const word of words) if (this.plainWords.has(word)) found++;
    return found;
  }

  some(sentence: string, words: readonly string[]): boolean {
    if (words.some((word) => this.plainWords.has(word))) return true;
    if (!this.others) return false;
    this.others.lastIndex = 0;
    return this.others.test(sentence);
  }
}

const lists = new WeakMap<readonly string[], MarkerList>();
function listOf(words: readonly string[]): MarkerList {
  let list = lists.get(words);
  if (!list) lists.set(words, (list = new MarkerList(words)));
  return list;
}

/** The words of a sentence as the markers are matched: lower case, a word's own ".", "+", "#" and "-" kept. */
function wordsIn(sentence: string): string[] {
  return (sentence.toLowerCase().match(/[\p{L}\p{N}.+#'’-]+/gu) ?? []).map((word) => word.replace(/^['’.]+|[.'’-]+$/gu, ''));
}

/** Whether a sentence holds any of the markers. */
export function holdsMarker(words: readonly string[], sentence: string): boolean {
  return listOf(words).some(sentence, wordsIn(sentence));
}

const ownWords = new Map<LanguageMarkers, { own: readonly string[]; weakening: readonly string[] }>();
function wordsOf(markers: LanguageMarkers): { own: readonly string[]; weakening: readonly string[] } {
  let words = ownWords.get(markers);
  if (!words) ownWords.set(markers, (words = { own: [...new Set([...markers.cues, ...markers.me, ...markers.we])], weakening: [...new Set([...markers.notStanding, ...markers.notChosen])] }));
  return words;
}

/**
 * The language whose words a sentence holds most of: its little words and its words for the owner count twice, its
 * weakening words once ("Mein Kollege nutzt Vim": mein, Kollege, nutzt). English unless another language scores two
 * and more than English does: one shared little word ("no", "i", "de") says nothing.
 */
export function languageOf(sentence: string): string {
  let best = 'en';
  let most = 0;
  let englishScore = 0;
  const words = wordsIn(sentence);
  for (const [language, markers] of languages) {
    const { own, weakening } = wordsOf(markers);
    const score = 2 * listOf(own).countPlain(words) + listOf(weakening).countPlain(words);
    if (language === 'en') englishScore = score;
    if (score > most) [best, most] = [language, score];
  }
  return best !== 'en' && most >= 2 && most > englishScore ? best : 'en';
}

/**
 * The markers a sentence is read with: its language's and English's, which owners mix into every language (not into
 * Japanese in romaji, whose particles "no" and "to" are English words).
 */
export function markersOf(language: string): LanguageMarkers[] {
  const own = languages.find(([code]) => code === language)![1];
  return language === 'en' || language === 'ja' ? [own] : [own, english];
}
const english = languages.find(([code]) => code === 'en')![1];

/** Sentences and the parts a contrast divides ("En la empresa usamos Jest, pero yo uso Vitest"). */
export function sentencesOf(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?;。])\s+|\s*[—–]\s+|\s*,?\s+(?:but|pero|mais|ma|aber|maar|ale|ama|lekin|pero|mas|però|jedoch|doch|tapos)\s+|,?\s+and\s+(?=(?:we|our|i|my|they|he|she|his|her)\b)/iu)
    .map((part) => part.trim())
    .filter(Boolean);
}

/** Whether a sentence says something other than a standing truth of the owner's, in its language or in English. */
export function notStanding(sentence: string): boolean {
  // "I'm Noor, she/her": the owner's pronouns are no one else.
  const plain = sentence.replace(/['’]s\b/gu, '').replace(/(?<![\p{L}])\p{L}{2,5}\/\p{L}{2,6}(?:\/\p{L}{2,6})?(?![\p{L}])/gu, ' ');
  return /[?？]/.test(plain) || markersOf(languageOf(plain)).some((marker) => holdsMarker(marker.notStanding, plain));
}

/**
 * Whether a sentence in a language other than English says something other than a standing truth, in that language's
 * own words (English has its own, finer list for tier A in capture.ts).
 */
export function notStandingInItsLanguage(sentence: string): boolean {
  const language = languageOf(sentence);
  if (language === 'en') return false;
  return holdsMarker(markersOf(language)[0].notStanding, sentence.replace(/['’]s\b/gu, ''));
}
