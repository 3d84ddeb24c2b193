import type { Candidate, Tier } from './candidate';
import { compiled } from './compiledPatterns';
import de from './frames/de.json';
import en from './frames/en.json';
import es from './frames/es.json';
import fr from './frames/fr.json';
import it from './frames/it.json';
import ja from './frames/ja.json';
import mixed from './frames/mixed.json';
import nl from './frames/nl.json';
import pl from './frames/pl.json';
import pt from './frames/pt.json';
import tr from './frames/tr.json';
import {
  caseSensitiveLanguages,
  findKnown,
  knownDiets,
  knownEditors,
  knownFrameworks,
  knownLanguages,
  knownOperatingSystems,
  knownPackageManagers,
  knownShells,
  knownTestFrameworks,
  notNames,
} from './knownNames';
import { roleWords } from './roleTerms';
import { fullName, properNoun, roleNouns } from './slotPatterns';
import { baseName, uninflected, type Inflection } from './inflection';
import { toolsIn } from './passingShapes';
import { timezoneIn } from './timezones';
import { isRegionName, lexiconTag } from './wordTagger';

/**
 * Frames first: the words around a slot name the key ("my name is _", "I work at _", "ich wohne in _"), the slot gives
 * the value, and only then is the value checked for that key. A value that is also a tool's, a language's or a town's
 * name ("I work at Emacs Analytics", "My name is Perl") stays in its frame's key. The frames are data, one file per
 * language in frames/ (a frame is its words, with `{key}` where the value sits); adding a language or a frame is
 * adding a line there and a test case.
 */
export interface FrameFile {
  readonly language: string;
  /** `clauses`: read on clauses capture's sentence readers already split; `frames`: on sentences this module splits. */
  readonly reader: string;
  readonly detect?: readonly string[];
  readonly notNow?: readonly string[];
  readonly question?: readonly string[];
  readonly someoneElse?: readonly string[];
  readonly joiners?: readonly string[];
  readonly greetings?: readonly string[];
  /** `anyCase`: the frame names the key so plainly that a language's name counts in lower case too ("i code in rust"). */
  readonly frames: readonly { readonly frame: string; readonly tier: string; readonly anyCase?: boolean }[];
  /**
   * Retirement frames: `{old}` is no longer true, `{new}` (when there) took its place. A frame that names the key of
   * what it retires is written `{ "frame": …, "key": "location" }` ("me mudé de {old} a {new}").
   */
  readonly retire: readonly (string | { readonly frame: string; readonly key: string })[];
  /**
   * Frames of the clause after a retirement that name what took its place ("Saí da Jabuti, agora estou na {new}"):
   * `{new}` fills the emptied slot; `key` names the key where the frame does ("seit Oktober arbeite ich bei {new}").
   */
  readonly replacedBy?: readonly (string | { readonly frame: string; readonly key: string })[];
  /** Words a clause may open with that change nothing about the fact ("en el día a día", "shigoto de wa omo ni"). */
  readonly leadIns?: readonly string[];
  /** Endings of an inflected name and their base (inflection.ts): "w Javie" is Java, "we Wrocławiu" Wrocław. */
  readonly inflections?: readonly Inflection[];
  /** The small words a list of names takes in this language ("un poco de", "głównie w"): a part with no others is a list. */
  readonly listWords?: readonly string[];
  /** The language's words for a diet, kept as the owner writes them ("vegetarisch", "végétarienne", "vejetaryen"). */
  readonly diets?: readonly string[];
}

export const frameFiles: readonly FrameFile[] = [en, de, es, pt, fr, it, nl, pl, tr, ja, mixed];
export const byLanguage = new Map(frameFiles.map((file) => [file.language, file]));

/** A candidate read from a frame: its key was named by the words around it, not by a list of names. */
export interface FramedCandidate extends Candidate {
  readonly framed: true;
}

const toolLists: Record<string, readonly string[]> = {
  editor: knownEditors,
  shell: knownShells,
  os: knownOperatingSystems,
  package_manager: knownPackageManagers,
  test_framework: knownTestFrameworks,
  languages: knownLanguages,
  frameworks: knownFrameworks,
};
const allTools = Object.values(toolLists).flat();

/** Whether a value is a tool's or a language's name as the lists write it (named in lower case as often as not). */
export function isKnownToolName(value: string): boolean {
  return findKnown(value, allTools).some((name) => name.toLowerCase() === value.toLowerCase());
}

/** The pattern a slot matches inside a frame (a slot at the end takes the rest, and its reader keeps what is its). */
function slotPattern(key: string, last: boolean): string {
  if (last) return '(.+)';
  // "Go ve Python yazıyorum", "Go to TypeScript o tsukatte imasu": a list of names before the verb.
  if (key === 'tools') return '(.+?)';
  if (key === 'name') return String.raw`((?:(?:mr|mrs|ms|miss|mx|dr|prof)\.?\s+)?\p{L}[\p{L}'’-]*(?:(?:\s+(?:de|da|do|dos|das|del|di|du|van|von|der|den|le|la))*\s+\p{Lu}[\p{L}'’-]*){0,3})`;
  if (key === 'role') return String.raw`([\p{L}-]+(?:\s+[\p{L}-]+){0,3}?)`;
  if (key === 'pronouns') return String.raw`(\p{L}+\/\p{L}+(?:\/\p{L}+)?)`;
  return String.raw`([\p{L}\d][\p{L}\d&.'’-]*(?:\s+[\p{L}\d&.'’-]+){0,3}?)`;
}

export interface CompiledFrame {
  readonly pattern: RegExp;
  readonly keys: readonly string[];
  /** Whether the last slot takes the rest of the clause (it ends the frame) rather than words before more of it. */
  readonly openEnded: boolean;
  readonly tier: Tier;
  readonly anyCase: boolean;
}

const compiledFrames = new Map<string, CompiledFrame[]>();

export function compile(frame: string, tier: Tier, anyCase = false): CompiledFrame {
  const keys: string[] = [];
  const slots = [...frame.matchAll(/\{([a-z_]+)\}/g)];
  let source = '';
  let at = 0;
  let openEnded = false;
  slots.forEach((slot, i) => {
    source += frame.slice(at, slot.index);
    const last = i === slots.length - 1 && frame.slice(slot.index + slot[0].length).trim() === '';
    openEnded = last;
    source += slotPattern(slot[1], last);
    keys.push(slot[1]);
    at = slot.index + slot[0].length;
  });
  source += frame.slice(at);
  // What follows a frame that ends in words is the clause going on ("…de hataraite imasu, ..."): allowed.
  return { pattern: compiled(`^(?:${source})(?:[\\s,.!;:]+.*)?$`, 'iu'), keys, tier, anyCase, openEnded };
}

function framesOf(language: string): CompiledFrame[] {
  let frames = compiledFrames.get(language);
  if (!frames) {
    const file = byLanguage.get(language);
    frames = (file?.frames ?? []).map((entry) => compile(entry.frame, entry.tier as Tier, entry.anyCase === true));
    compiledFrames.set(language, frames);
  }
  return frames;
}

const endsRole = /\s+(?:at|for|on|in|with|since|from|bei|für|en|para|na|no|em|a|à|chez|pour|presso|da|per|bij|voor|w|dla|olarak)\b.*$|[,.;:!?].*$/iu;
/** A role names a job: it ends in one of the role nouns, in English or in the owner's language. */
const namesAJob = new RegExp(String.raw`(?:^|\s|-)(?:${roleNouns.slice(3, -1)})$|${roleWords.source}`, 'iu');

/** A value's frame file, for the language features of its slot (inflections, diets); English has none of them. */
const noFeatures: Pick<FrameFile, 'inflections' | 'diets'> = {};
/** Whether the lexicon knows a name as a place's. */
export const isPlaceName = (name: string): boolean => /^(?:City|Country|Place|Region|Province|Town)$/.test(lexiconTag(name) ?? '');

const streetWord = /\s(?:Lane|Street|St|Road|Rd|Avenue|Ave|Way|Close|Drive|Square|Crescent|Terrace|Gardens|Row|Mews)$/u;

/** The value a slot's words give for its key, or nothing when the words are not one. */
export function slotValue(key: string, words: string, file: Pick<FrameFile, 'inflections' | 'diets'> = noFeatures): string | undefined {
  const text = words.trim().replace(/^["'“‘]|["'”’.,;:!?]+$/gu, '');
  if (!text) return undefined;
  const inflections = file.inflections ?? [];
  if (key === 'name') {
    const parts = words.trim().replace(/^["'“‘]/u, '').split(/\s+/);
    const kept = fullName(parts, words === words.toLowerCase());
    if (!kept || notNames.has(kept.toLowerCase()) || notNames.has(parts[0].toLowerCase())) return undefined;
    return kept;
  }
  if (key === 'employer' || key === 'location' || key === 'old' || key === 'new') {
    const tool = key === 'old' || key === 'new' ? findKnown(uninflected(text.split(/\s+/).slice(0, 3).join(' '), inflections, isKnownToolName), allTools)[0] : undefined;
    if (tool && uninflected(text, inflections, isKnownToolName).toLowerCase().startsWith(tool.toLowerCase())) return tool;
    // "Universidad de Chile", "Fish & Co.": the small words inside a name stay in it.
    const joined = text.replace(/\s+(?:de|do|da|del)\s+/giu, ' \u0000 ').replace(/\s+&\s+/g, '&&');
    const name = properNoun(joined, 4)?.replace(/ \u0000 /g, ' de ').replace(/&&/g, ' & ');
    const base = name && baseName(name, inflections);
    // "Java, South Dakota": a region the owner attached to the place is part of it.
    // "Java, South Dakota", "portland oregon": a region the owner attached to the place is part of it, and so is the
    // town a street is in ("Flask Lane, Bristol").
    const after = base && key === 'location' ? text.slice(text.toLowerCase().indexOf(name!.toLowerCase()) + name!.length) : '';
    const region = /^(?:,\s*|\s+)(\p{L}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*){0,2})\s*(?:$|[,.;])/u.exec(after)?.[1];
    if (region && isRegionName(region)) return `${base}, ${region[0].toUpperCase()}${region.slice(1)}`;
    const town = /^,\s*(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+)?)\s*(?:$|[,.;])/u.exec(after)?.[1];
    return town && streetWord.test(base!) && isPlaceName(town) ? `${base}, ${town}` : base;
  }
  if (key === 'role') {
    const role = text.replace(endsRole, '').trim();
    return role && role.split(/\s+/).length <= 5 && namesAJob.test(role) ? role : undefined;
  }
  if (key === 'team') {
    // "im Team Checkout bei Zalando": the team's name ends where the company's begins.
    const team = text.replace(endsRole, '').trim().replace(/[-\s]+$/, '');
    return team && team.split(/\s+/).length <= 3 ? team : undefined;
  }
  if (key === 'diet') {
    // The diet as the owner wrote it ("vegan", "végétarienne", "halal"), from the language's words or the key list's.
    const word = text.split(/\s+/)[0].toLowerCase();
    return [...(file.diets ?? []), ...knownDiets].some((diet) => diet.toLowerCase() === word) ? word : undefined;
  }
  if (key === 'timezone') return timezoneIn(text.split(/\s+/).slice(0, 3).join(' ')) ?? timezoneIn(text.split(/\s+/)[0]);
  if (key === 'pronouns') return /^(\p{L}+\/\p{L}+(?:\/\p{L}+)?)/u.exec(text)?.[1].toLowerCase();
  const list = toolLists[key];
  if (!list) return undefined;
  const known = findKnown(uninflected(text, inflections, isKnownToolName), list, key === 'languages' ? caseSensitiveLanguages : undefined);
  return known[0];
}

/**
 * "I live in Emacs", "I live in PowerShell 7": a place frame around nothing but a tool's name is the idiom, and the list
 * of names decides. "I live in Flask, Texas" goes on with the rest of a place, so the frame holds.
 */
function idiom(key: string, words: string, value: string): boolean {
  if (key !== 'location') return false;
  const bare = value.replace(/\s+v?\d+(?:\.\d+)*$/, '');
  const tool = findKnown(bare, allTools)[0];
  // "I live in Phoenix": a town the lexicon knows is a town, whatever framework shares its name.
  return !!tool && !isPlaceName(bare) && tool.toLowerCase() === bare.toLowerCase() && !/^[^,]+,\s*(?:\p{Lu}|(?:a|an|the) (?:small |tiny |little )?(?:village|town|city|hamlet|suburb|county|island)\b|on the\b.*\bcoast\b)/u.test(words.trim());
}

/** Outside English a place or a company is written with a capital ("moro em Recife"); "trabajo en remoto" names neither. */
function uncapitalised(key: string, value: string, language: string, clause: string): boolean {
  if (language === 'en' || (key !== 'employer' && key !== 'location')) return false;
  // An inflected name is written with another ending ("w Krakowie" for Kraków): its stem is what the owner typed.
  const first = value.split(/\s+/)[0];
  const written = clause.toLowerCase().indexOf(first.slice(0, Math.max(2, first.length - 2)).toLowerCase());
  return written < 0 || !/^\p{Lu}|^\p{Ll}+\p{Lu}/u.test(clause.slice(written));
}

/** Every value of a multi key a list slot names ("my languages are Go, Rust and Zig", "piszę w Javie i Kotlinie"). */
function listValues(key: string, words: string, anyCase: boolean, inflections: readonly Inflection[]): string[] {
  const list = toolLists[key];
  return list ? [...new Set(findKnown(uninflected(words, inflections, isKnownToolName), list, key === 'languages' && !anyCase ? caseSensitiveLanguages : undefined))] : [];
}

/**
 * Where a frame may start in a clause: at its opening, after the words the language opens a clause with that change
 * nothing ("en el día a día programo en…"), and after each of the language's "and" ("Mein Editor ist Neovim und als
 * Shell nutze ich zsh").
 */
function frameStarts(text: string, file: FrameFile | undefined): string[] {
  const starts = [text];
  const leadIns = (file?.leadIns ?? []).join('|');
  if (leadIns) {
    const bare = text.replace(compiled(`^(?:(?:${leadIns})(?![\\p{L}])[\\s,]*)+`, 'iu'), '');
    if (bare && bare !== text) starts.push(bare);
  }
  const joiners = (file?.joiners ?? []).join('|');
  if (joiners) for (const after of text.matchAll(compiled(`\\s(?:${joiners})\\s+`, 'giu'))) starts.push(text.slice(after.index + after[0].length));
  return starts;
}

/**
 * The facts one clause states in its language's frames. A `{tools}` slot names no key ("uso Vitest", "Go ve Python
 * yazıyorum"): the lists of names choose it, so what it reads is not marked framed.
 */
export function framedCandidates(clause: string, language: string): (FramedCandidate | Candidate)[] {
  const found: (FramedCandidate | Candidate)[] = [];
  const file = byLanguage.get(language);
  const inflections = file?.inflections ?? [];
  const add = (candidate: FramedCandidate | Candidate): void => {
    if (!found.some((known) => known.key === candidate.key && known.value.toLowerCase() === candidate.value.toLowerCase())) found.push(candidate);
  };
  for (const text of frameStarts(clause.trim(), file)) {
    for (const frame of framesOf(language)) {
      const match = frame.pattern.exec(text);
      if (!match) continue;
      const values = frame.keys.map((key, i) => ({ key, words: match[i + 1] ?? '' }));
      // A list before its verb is names and nothing else ("Go ve Python yazıyorum"; not "Senpai wa Emacs o tsukatte imasu").
      const bounded = (i: number): boolean => i < frame.keys.length - 1 || !frame.openEnded;
      if (values.some(({ key, words }, i) => key === 'tools' && bounded(i) && !onlyAList(words, file))) continue;
      const tools = values.filter(({ key }) => key === 'tools').flatMap(({ words }) => toolsIn(uninflected(words, inflections, isKnownToolName)));
      const read = values
        .filter(({ key }) => key !== 'tools')
        .flatMap(({ key, words }) =>
          key === 'languages' || key === 'frameworks' ? listValues(key, words, frame.anyCase, inflections).map((value) => ({ key, value })) : [{ key, value: slotValue(key, words, file) }],
        );
      // A frame of two slots holds only when both are read ("ich bin Entwickler bei Zalando").
      if (read.length + tools.length === 0 || read.some((slot) => !slot.value)) continue;
      if (values.some(({ key, words }) => idiom(key, words, read.find((slot) => slot.key === key)?.value ?? '')) || read.some((slot) => uncapitalised(slot.key, slot.value!, language, text))) continue;
      for (const slot of read) add({ key: slot.key, value: slot.value!, tier: frame.tier, framed: true });
      for (const tool of tools) add({ ...tool, tier: frame.tier === 'A' ? 'B' : frame.tier });
    }
  }
  return found;
}

/** A word list entry as a pattern source: whole words, unless the entry anchors itself (`^`, `$`, `\\b`). */
function wordSource(source: string): string {
  return /[\^$]|\\b/.test(source) ? `(?:${source})` : `(?<![\\p{L}])(?:${source})(?![\\p{L}])`;
}

/** One pattern for a whole word list, built once per list (capture tests them on every line of every message). */
const listPatterns = new WeakMap<readonly string[], RegExp>();
function anyOf(list: readonly string[]): RegExp {
  let pattern = listPatterns.get(list);
  if (!pattern) listPatterns.set(list, (pattern = list.length ? new RegExp(list.map(wordSource).join('|'), 'iu') : /(?!)/));
  return pattern;
}

const weakLists = new Map<FrameFile, readonly string[]>();
/** Whether a clause says something the frame file marks as past, wished, negated, asked or about someone else. */
export function frameClauseWeak(clause: string, file: FrameFile): boolean {
  let list = weakLists.get(file);
  if (!list) weakLists.set(file, (list = [...(file.notNow ?? []), ...(file.question ?? []), ...(file.someoneElse ?? [])]));
  return anyOf(list).test(clause);
}

/** The languages read by this module alone (their sentences are not ones capture's other readers split). */
export const frameReadLanguages = frameFiles.filter((file) => file.reader === 'frames');

/**
 * The facts a clause states in its language's frames, or when they read nothing, in the frames of another language its
 * words show (Italian and Portuguese share "uso"; "Come shell uso fish" may be taken for either).
 */
export function framedInAnyLanguage(clause: string, language: string): (FramedCandidate | Candidate)[] {
  const own = framedCandidates(clause, language);
  if (own.length > 0) return own;
  for (const file of frameFiles) {
    if (file.reader !== 'clauses' || file.language === language || !frameDetects(file.language, clause)) continue;
    const other = framedCandidates(clause, file.language);
    if (other.length > 0) return other;
  }
  return [];
}

/** Whether a sentence shows one of the openings a language's frame file lists (`detect`). */
export function frameDetects(language: string, sentence: string): boolean {
  const detect = byLanguage.get(language)?.detect;
  return !!detect && anyOf(detect).test(sentence);
}

/** The language of those whose words a sentence shows, if any. */
export function frameLanguageOf(sentence: string): FrameFile | undefined {
  return frameReadLanguages.find((file) => frameDetects(file.language, sentence));
}

/** Clauses of a sentence in a frame-read language: greetings gone, split at punctuation and the language's "and". */
export function frameClauses(sentence: string, file: FrameFile): string[] {
  const greetings = (file.greetings ?? []).join('|');
  const joiners = (file.joiners ?? []).join('|');
  const text = greetings ? sentence.replace(compiled(`^(?:${greetings})\\b[!,.\\s]*`, 'iu'), '') : sentence;
  const split = joiners ? compiled(`\\s*[,;:.!()]\\s*|\\s+(?:${joiners})\\s+`, 'iu') : /\s*[,;:.!()]\s*/u;
  return withListTails(text.split(split), file.language).filter((clause) => !frameClauseWeak(clause, file));
}

/**
 * Whether a part of a sentence is nothing but a list: names, the language's "and", and the small words a list takes
 * (`listWords`: "un poco de", "głównie w"), after the words a clause may open with.
 */
function onlyAList(part: string, file: FrameFile | undefined): boolean {
  const leadIns = (file?.leadIns ?? []).join('|');
  const opened = leadIns ? part.replace(compiled(`^(?:(?:${leadIns})(?![\\p{L}])[\\s,]*)+`, 'iu'), '') : part;
  const bare = uninflected(opened, file?.inflections ?? [], isKnownToolName);
  const tools = toolsIn(bare);
  if (tools.length === 0) return false;
  let rest = bare;
  for (const tool of tools) rest = rest.replace(compiled(`(?<![\\p{L}])${escapeSource(tool.value)}(?![\\p{L}])`, 'iu'), ' ');
  const small = new Set([...(file?.joiners ?? []), ...(file?.listWords ?? [])].map((word) => word.toLowerCase()));
  return rest.split(/[\s,]+/).every((word) => !word || small.has(word.toLowerCase()));
}

/**
 * Parts of a sentence split at commas and "and", with a list put back together: a part that is only a list goes on
 * with the part before it ("uso Go, Rust y Python", "piszę w Javie i Kotlinie, głównie w Spring Boot"), and a list
 * before the verb that reads it joins the part after it ("Go ve Python yazıyorum"). A tail joins the part before it
 * whatever that part says, so a list after a clause that says nothing now is dropped with it.
 */
export function withListTails(parts: readonly string[], language: string): string[] {
  const file = byLanguage.get(language);
  const joined: string[] = [];
  for (const raw of parts) {
    const part = raw.trim();
    if (!part) continue;
    const previous = joined[joined.length - 1];
    const opensWithName = findKnown(uninflected(part, file?.inflections ?? [], isKnownToolName), allTools).some((name) => part.toLowerCase().startsWith(name.toLowerCase()));
    if (previous !== undefined && (onlyAList(part, file) || (opensWithName && onlyAList(previous, file)))) joined[joined.length - 1] = `${previous}, ${part}`;
    else joined.push(part);
  }
  return joined;
}

function escapeSource(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
