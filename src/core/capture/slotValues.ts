/**
 * The value a frame's slot gives for its key: a name with its particles, a place or a company in its base form and with
 * the region the owner attached, a role that names a job, a team, a diet, a time zone, pronouns, or a tool's name as the
 * key list writes it. Read after the frame has named the key (frames.ts), then checked for that key's plausibility.
 */
import { caseSensitiveLanguages, findKnown, knownDiets, knownEditors, knownFrameworks, knownLanguages, knownOperatingSystems, knownPackageManagers, knownShells, knownTestFrameworks, notNames } from './knownNames';
import { roleWords } from './roleTerms';
import { fullName, properNoun, roleNouns } from './slotPatterns';
import { baseForms, baseName, uninflected, type Inflection } from './inflection';
import { timezoneIn } from './timezones';
import { isRegionName, lexiconTag } from './wordTagger';

/** The language features of a slot's frame file (frames.ts `FrameFile`): English has none of them. */
export interface SlotFeatures {
  readonly inflections?: readonly Inflection[];
  readonly diets?: readonly string[];
  readonly predicateInflections?: readonly Inflection[];
}

export const toolLists: Record<string, readonly string[]> = {
  editor: knownEditors,
  shell: knownShells,
  os: knownOperatingSystems,
  package_manager: knownPackageManagers,
  test_framework: knownTestFrameworks,
  languages: knownLanguages,
  frameworks: knownFrameworks,
};
export const allTools = Object.values(toolLists).flat();

/** Whether a value is a tool's or a language's name as the lists write it (named in lower case as often as not). */
export function isKnownToolName(value: string): boolean {
  // "Ima wa Mac desu": a machine's name stands for its system (canonicalTool), so it is a tool's name too.
  return canonicalTool('os', value) !== value || findKnown(value, allTools).some((name) => name.toLowerCase() === value.toLowerCase());
}

/** The pattern a slot matches inside a frame (a slot at the end takes the rest, and its reader keeps what is its). */
export function slotPattern(key: string, last: boolean): string {
  if (last) return '(.+)';
  // "Go ve Python yazıyorum", "Go to TypeScript o tsukatte imasu": a list of names before the verb.
  if (key === 'tools') return '(.+?)';
  if (key === 'name') return String.raw`((?:(?:mr|mrs|ms|miss|mx|dr|prof)\.?\s+)?\p{L}[\p{L}'’-]*(?:(?:\s+(?:de|da|do|dos|das|del|di|du|van|von|der|den|le|la))*\s+\p{Lu}[\p{L}'’-]*){0,3})`;
  if (key === 'role') return String.raw`([\p{L}-]+(?:\s+[\p{L}-]+){0,3}?)`;
  if (key === 'pronouns') return String.raw`(\p{L}+\/\p{L}+(?:\/\p{L}+)?)`;
  // "Asia/Tokyo", "UTC+9", "America/New_York" before the frame's closing words ("… desu").
  if (key === 'timezone') return String.raw`([\p{L}\d][\p{L}\d/_+:-]*(?:\s+[\p{L}\d/_+:-]+){0,2}?)`;
  // "Pop!_OS", "C#": a name may hold the marks tools' names take.
  return String.raw`([\p{L}\d][\p{L}\d&.'’!_+#-]*(?:\s+[\p{L}\d&.'’!_+#-]+){0,3}?)`;
}

// A role ends where a place, an employer or another clause begins ("SRE y en el curro uso macOS"), and a word of time
// after the title is no part of it ("I work as a data analyst now").
export const endsRole = /\s+(?:now|again|nowadays|these days|at|for|on|in|with|since|from|bei|für|en|para|na|no|em|a|à|chez|pour|presso|da|per|bij|voor|w|dla|olarak|y|und|et|e|i|ve)\b.*$|[,.;:!?].*$/iu;
/** A role names a job: it ends in one of the role nouns, in English or in the owner's language. */
export const namesAJob = new RegExp(String.raw`(?:^|\s|-)(?:${roleNouns.slice(3, -1)})$|${roleWords.source}`, 'iu');

const noFeatures: SlotFeatures = {};
const placeTag = /^(?:City|Country|Place|Region|Province|Town)$/;
/** Whether the lexicon knows a name as a place's: "Bogotá" and "Medellín" as it writes them, without their accents. */
export const isPlaceName = (name: string): boolean =>
  placeTag.test(lexiconTag(name) ?? '') || placeTag.test(lexiconTag(name.normalize('NFD').replace(/\p{M}/gu, '')) ?? '');

const streetWord = /\s(?:Lane|Street|St|Road|Rd|Avenue|Ave|Way|Close|Drive|Square|Crescent|Terrace|Gardens|Row|Mews)$/u;

/** The value a slot's words give for its key, or nothing when the words are not one. */
export function slotValue(key: string, words: string, file: SlotFeatures = noFeatures): string | undefined {
  const text = words.trim().replace(/^["'“‘]|["'”’.,;:!?]+$/gu, '');
  if (!text) return undefined;
  const inflections = file.inflections ?? [];
  if (key === 'name') {
    const parts = words.trim().replace(/^["'“‘]/u, '').split(/\s+/);
    // "ich heiße übrigens Tobias": a small word before a capitalised name is an aside, not the name's first part.
    while (parts.length > 1 && /^\p{Ll}/u.test(parts[0]) && /^\p{Lu}/u.test(parts[1]) && !/^(?:de|da|do|dos|das|del|di|du|van|von|der|den|le|la)$/.test(parts[0])) parts.shift();
    const kept = fullName(parts, words === words.toLowerCase());
    if (!kept || notNames.has(kept.toLowerCase()) || notNames.has(parts[0].toLowerCase())) return undefined;
    return kept;
  }
  if (key === 'employer' || key === 'location' || key === 'old' || key === 'new') {
    const tool = key === 'old' || key === 'new' ? findKnown(uninflected(text.split(/\s+/).slice(0, 3).join(' '), inflections, isKnownToolName), allTools)[0] : undefined;
    if (tool && uninflected(text, inflections, isKnownToolName).toLowerCase().startsWith(tool.toLowerCase())) return tool;
    // "Universidad de Chile", "Bank of America", "Fish & Co.": the small words inside a name stay in it; "the
    // University of Oslo" is named without its article.
    const joined = text
      .replace(key === 'employer' ? /^the\s+(?=\p{Lu})/u : /^$/, '')
      .replace(/\s+(de|do|da|del|of)\s+(?=\p{Lu})/gu, '\u0001$1\u0001')
      .replace(/\s+&\s+/g, '&&');
    const name = properNoun(joined, 4)?.replace(/\u0001/g, ' ').replace(/&&/g, ' & ');
    const base = name && baseName(name, inflections);
    // "Java, South Dakota", "portland oregon": a region the owner attached to the place is part of it, and so is the
    // town a street is in ("Flask Lane, Bristol").
    const after = base && key === 'location' ? text.slice(text.toLowerCase().indexOf(name!.toLowerCase()) + name!.length) : '';
    const region = /^(?:,\s*|\s+)(\p{L}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*){0,2})\s*(?:$|[,.;])/u.exec(after)?.[1];
    if (region && isRegionName(region)) return `${base}, ${region[0].toUpperCase()}${region.slice(1)}`;
    const town = /^,\s*(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+)?)\s*(?:$|[,.;])/u.exec(after)?.[1];
    return town && streetWord.test(base!) && isPlaceName(town) ? `${base}, ${town}` : base;
  }
  if (key === 'role') {
    const role = predicateBase(text.replace(endsRole, '').trim(), file, (form) => namesAJob.test(form));
    return role && role.split(/\s+/).length <= 5 && namesAJob.test(role) ? role : undefined;
  }
  if (key === 'team') {
    // "im Team Checkout bei Zalando": the team's name ends where the company's begins; "l'équipe Données maintenant",
    // "nel team Logistica e per i test…": a name written with a capital ends at the first word without one.
    // "c'est l'équipe Data": the word for a team before its name is no part of it.
    const team = text.replace(endsRole, '').trim().replace(/[-\s]+$/, '').replace(/^(?:l['’]équipe|la squadra|il team|das team|el equipo|o time|a equipe|het team|the team)\s+(?=\p{Lu})/iu, '');
    const head = capitalisedHead(team);
    return head && head.split(/\s+/).length <= 3 ? head : undefined;
  }
  if (key === 'diet') {
    // The diet as the owner wrote it ("vegan", "végétarienne", "halal"), from the language's words or the key list's.
    const diets = [...(file.diets ?? []), ...knownDiets].map((diet) => diet.toLowerCase());
    const word = predicateBase(text.split(/\s+/)[0].toLowerCase(), file, (form) => diets.includes(form));
    return diets.includes(word) ? word : undefined;
  }
  if (key === 'timezone') {
    // "Central European Time" is not "Central": a zone's name cut before the capitalised word after it is another zone.
    const [first, next] = text.split(/\s+/);
    // "Central European Time (CET)": the abbreviation after the name written out.
    const glossed = /^(?:\p{Lu}\p{Ll}+\s+){1,3}\(([^)]{2,12})\)/u.exec(text);
    if (glossed && timezoneIn(glossed[1])) return timezoneIn(glossed[1]);
    return timezoneIn(text.split(/\s+/).slice(0, 3).join(' ')) ?? (next && /^\p{Lu}/u.test(next) && !/^(?:Time|Standard)\b/.test(next) && /^\p{L}+$/u.test(first) && !/^\p{Lu}{2,}$/u.test(first) ? undefined : timezoneIn(first));
  }
  if (key === 'pronouns') {
    // Pronouns are short words ("she/her", "elle/iel", "sie/ihr"); "c'est Europe/Paris" names a zone, not them.
    const pronouns = /^(\p{L}{1,5}\/\p{L}{1,5}(?:\/\p{L}{1,5})?)(?![\p{L}/])/u.exec(text)?.[1];
    return pronouns && !timezoneIn(pronouns) ? pronouns.toLowerCase() : undefined;
  }
  const list = toolLists[key];
  if (!list) return undefined;
  const known = findKnown(uninflected(text, inflections, isKnownToolName), list, key === 'languages' ? caseSensitiveLanguages : undefined);
  return known[0] && canonicalTool(key, known[0]);
}

/** A name written with a capital ends at the first word without one ("Données maintenant", "Logistica e per i test"). */
export function capitalisedHead(words: string): string {
  return words.replace(/^(\p{Lu}[\p{L}\d&'’-]*(?:\s+\p{Lu}[\p{L}\d&'’-]*)*)\s+\p{Ll}.*$/u, '$1');
}

/** "uso un Mac", "on my Mac": the machine's name stands for its system, stored as the key list writes it. */
export function canonicalTool(key: string, value: string): string {
  return key === 'os' && /^(?:mac|mac os|os x|macbook)$/i.test(value) ? 'macOS' : value;
}

/**
 * A role or a diet in the form the owner would write it alone: its last word with a predicate ending undone
 * ("architektem" is architekt), when the base is a word `known` accepts; else as written.
 */
function predicateBase(text: string, file: SlotFeatures, known: (form: string) => boolean): string {
  const inflections = file.predicateInflections ?? [];
  if (inflections.length === 0 || !text || known(text)) return text;
  const words = text.split(/\s+/);
  const last = words[words.length - 1];
  const form = baseForms(last, inflections).map((base) => [...words.slice(0, -1), base].join(' ')).find(known);
  return form ?? text;
}
