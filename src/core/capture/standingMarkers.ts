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

export function markerPattern(words: readonly string[]): RegExp {
  // Whole words, where a word may hold "." or "-" ("Next.js" holds no "next"; "e.g" is one marker); a marker that
  // starts inside a word ("n't", "'ll") needs no boundary before it.
  const alternatives = words.map((word) => {
    const source = word.replace(/'/g, "['’]");
    return /^(?:n'|')/.test(word) ? source : String.raw`(?<![\p{L}\p{N}.+#'’-])${source}`;
  });
  return compiled(String.raw`(?:${alternatives.join('|')})(?![\p{L}\p{N}+#'’-]|\.\p{L})`, 'iu');
}

const wordLists = new Map<LanguageMarkers, { own: string[]; weakening: string[] }>();
function wordsOf(markers: LanguageMarkers): { own: string[]; weakening: string[] } {
  let words = wordLists.get(markers);
  if (!words) wordLists.set(markers, (words = { own: [...new Set([...markers.cues, ...markers.me, ...markers.we])], weakening: [...new Set([...markers.notStanding, ...markers.notChosen])] }));
  return words;
}

function countCues(sentence: string, cues: readonly string[]): number {
  const pattern = compiled(String.raw`(?<![\p{L}\p{N}'’-])(?:${cues.map((word) => word.replace(/'/g, "['’]")).join('|')})(?![\p{L}\p{N}'’-])`, 'giu');
  return sentence.match(pattern)?.length ?? 0;
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
  for (const [language, markers] of languages) {
    const { own, weakening } = wordsOf(markers);
    const score = 2 * countCues(sentence, own) + countCues(sentence, weakening);
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
  return /[?？]/.test(plain) || markersOf(languageOf(plain)).some((marker) => markerPattern(marker.notStanding).test(plain));
}

/**
 * Whether a sentence in a language other than English says something other than a standing truth, in that language's
 * own words (English has its own, finer list for tier A in capture.ts).
 */
export function notStandingInItsLanguage(sentence: string): boolean {
  const language = languageOf(sentence);
  if (language === 'en') return false;
  return markerPattern(markersOf(language)[0].notStanding).test(sentence.replace(/['’]s\b/gu, ''));
}
