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
 * A place's or a company's name in its base form: the last word's first base form that `isPlace` knows, else the first
 * the endings give ("Wrocławiu" is Wrocław, "Trendyol'da" Trendyol), else the name as written.
 */
export function baseName(value: string, inflections: readonly Inflection[], isPlace: (name: string) => boolean): string {
  const words = value.split(' ');
  const forms = baseForms(words[words.length - 1], inflections);
  if (forms.length === 0) return value;
  const head = words.slice(0, -1);
  const named = forms.map((form) => [...head, form].join(' '));
  return named.find(isPlace) ?? named[0];
}
