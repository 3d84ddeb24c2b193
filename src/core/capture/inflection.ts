import { compiled } from './compiledPatterns';

/**
 * Languages that inflect a name itself: Polish "w Javie" is Java and "we Wrocławiu" Wrocław, Turkish "Python'u" is
 * Python. A frame file lists its endings and their base (`{ "ending": "vie", "base": "va" }`), most specific first; the
 * value kept is the base form, as the owner would write the name on its own.
 */
export interface Inflection {
  /** A pattern for the end of the word (`$` is added). */
  readonly ending: string;
  /** What replaces the ending in the base form. */
  readonly base: string;
  /** `tools`: an ending only a tool's or a language's name takes here ("Pythona"), never a place's. */
  readonly of?: string;
}

/** Every base form the endings give for one word, in the order of the list. */
export function baseForms(word: string, inflections: readonly Inflection[]): string[] {
  const forms: string[] = [];
  for (const { ending, base } of inflections) {
    const pattern = compiled(`(?:${ending})$`, 'u');
    if (pattern.test(word)) {
      const form = word.replace(pattern, base);
      if (form.length >= 1 && !forms.includes(form)) forms.push(form);
    }
  }
  return forms;
}

/** The words with each inflected name back in its base form, where the base is a name `isName` knows ("Javie i Kotlinie"). */
export function uninflected(words: string, inflections: readonly Inflection[], isName: (word: string) => boolean): string {
  if (inflections.length === 0) return words;
  return words.replace(/\p{L}[\p{L}'’]*/gu, (word) => (isName(word) ? word : (baseForms(word, inflections).find(isName) ?? word)));
}

/**
 * A place's or a company's name in its base form: the last word's first base form the endings give ("Wrocławiu" is
 * Wrocław, "Krakowie" Kraków, "Trendyol'da" Trendyol), else the name as written. The endings are listed most specific
 * first, so the first that fits is the one meant.
 */
export function baseName(value: string, inflections: readonly Inflection[]): string {
  const words = value.split(' ');
  const form = baseForms(words[words.length - 1], inflections.filter((inflection) => inflection.of !== 'tools'))[0];
  return form ? [...words.slice(0, -1), form].join(' ') : value;
}
