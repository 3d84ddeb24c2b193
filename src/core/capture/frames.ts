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
import { caseSensitiveLanguages, findKnown } from './knownNames';
import { baseForms, uninflected, type Inflection } from './inflection';
import { allTools, canonicalTool, isKnownToolName, isPlaceName, namesAJob, slotPattern, slotValue, toolLists } from './slotValues';
import { toolsIn } from './passingShapes';
import { isRegionName } from './wordTagger';
import { nameMarksBack, placeAfterComma, withNameMarks } from './sentenceParts';

export { canonicalTool, capitalisedHead, isKnownToolName, isPlaceName, slotValue } from './slotValues';

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
  /**
   * `anyCase`: the frame names the key so plainly that a language's name counts in lower case too ("i code in rust").
   * `alone`: the frame is a clause of its own around nothing but a name written with a capital ("…, desde Valencia",
   * "Watashi wa Tanaka desu"), so the slot must be the whole rest of the clause, and no tool's name.
   * `place`: the frame's "in" is also its "at" ("jestem {role} w {location}" beside "jestem {role} w {employer}"), so
   * its location holds only for a known place or a name the owner declined, as a town is and a company is not.
   * `workplace`: the frame says where the owner works ("trabajo en Madrid"): their location unless the message says
   * where they live ("Trabajo en Madrid pero vivo en Toledo").
   */
  readonly frames: readonly { readonly frame: string; readonly tier: string; readonly anyCase?: boolean; readonly alone?: boolean; readonly place?: boolean; readonly workplace?: boolean }[];
  /**
   * Retirement frames: `{old}` is no longer true, `{new}` (when there) took its place. A frame that names the key of
   * what it retires is written `{ "frame": …, "key": "location" }` ("me mudé de {old} a {new}").
   */
  readonly retire: readonly (string | { readonly frame: string; readonly key: string })[];
  /**
   * Frames of the clause after a retirement that name what took its place ("Saí da Jabuti, agora estou na {new}"):
   * `{new}` fills the emptied slot; `key` names the key where the frame does ("seit Oktober arbeite ich bei {new}").
   * `orPlace`: the frame's "at" is also "in" ("ahora estoy en {new}"), so after a place left, or for a town's name,
   * its value is where the owner lives now.
   */
  readonly replacedBy?: readonly (string | { readonly frame: string; readonly key: string; readonly orPlace?: boolean })[];
  /** Words a clause may open with that change nothing about the fact ("en el día a día", "shigoto de wa omo ni"). */
  readonly leadIns?: readonly string[];
  /** Endings of an inflected name and their base (inflection.ts): "w Javie" is Java, "we Wrocławiu" Wrocław. */
  readonly inflections?: readonly Inflection[];
  /** The small words a list of names takes in this language ("un poco de", "głównie w"): a part with no others is a list. */
  readonly listWords?: readonly string[];
  /** The language's words for a diet, kept as the owner writes them ("vegetarisch", "végétarienne", "vejetaryen"). */
  readonly diets?: readonly string[];
  /**
   * Endings a role or a diet takes after the language's "I am" and their base ("jestem architektem" is architekt,
   * "jestem wegetarianką" wegetarianka): the value is kept in the form the owner would write it on its own.
   */
  readonly predicateInflections?: readonly Inflection[];
  /** The language's "with" ("avec", "con"): known tools named with one the owner uses are theirs too. */
  readonly toolsWith?: readonly string[];
}

const toolKey = new Set(['languages', 'frameworks', 'os', 'editor', 'shell', 'test_framework', 'package_manager']);
export const frameFiles: readonly FrameFile[] = [en, de, es, pt, fr, it, nl, pl, tr, ja, mixed];
export const byLanguage = new Map(frameFiles.map((file) => [file.language, file]));

/** A candidate read from a frame: its key was named by the words around it, not by a list of names. */
export interface FramedCandidate extends Candidate {
  readonly framed: true;
  /** Read from a `workplace` frame: where the owner works, which gives way to where they live. */
  readonly workplace?: true;
}

export interface CompiledFrame {
  readonly pattern: RegExp;
  readonly keys: readonly string[];
  /** Whether the last slot takes the rest of the clause (it ends the frame) rather than words before more of it. */
  readonly openEnded: boolean;
  readonly tier: Tier;
  readonly anyCase: boolean;
  readonly alone: boolean;
  readonly place: boolean;
  readonly workplace: boolean;
}

const compiledFrames = new Map<string, CompiledFrame[]>();

/** Whether a frame's source is nothing but optional groups ("(?: (?:o|wo) tsukatte imasu| desu)?"), or nothing. */
function onlyOptional(source: string): boolean {
  let rest = source;
  while (rest.startsWith('(?:')) {
    let depth = 0;
    let end = -1;
    for (let at = 0; at < rest.length && end < 0; at++) {
      if (rest[at] === '\\') at++;
      else if (rest[at] === '(') depth++;
      else if (rest[at] === ')' && --depth === 0) end = at;
    }
    if (end < 0 || rest[end + 1] !== '?') return false;
    rest = rest.slice(end + 2).trim();
  }
  return rest === '';
}

export function compile(frame: string, tier: Tier, anyCase = false, alone = false, place = false, workplace = false): CompiledFrame {
  const keys: string[] = [];
  const slots = [...frame.matchAll(/\{([a-z_]+)\}/g)];
  let source = '';
  let at = 0;
  let openEnded = false;
  slots.forEach((slot, i) => {
    source += frame.slice(at, slot.index);
    // A slot followed by nothing but optional words ("{editor}(?: desu)?") takes the rest too: its reader keeps what is
    // its ("VS Code desu" is VS Code), where a shortest match would cut the name ("VS").
    const after = frame.slice(slot.index + slot[0].length).trim();
    const last = i === slots.length - 1 && onlyOptional(after);
    openEnded = last;
    source += slotPattern(slot[1], last);
    keys.push(slot[1]);
    at = slot.index + slot[0].length;
  });
  source += frame.slice(at);
  // What follows a frame that ends in words is the clause going on ("…de hataraite imasu, ..."): allowed.
  return { pattern: compiled(`^(?:${source})(?:[\\s,.!;:]+.*)?$`, 'iu'), keys, tier, anyCase, alone, place, workplace, openEnded };
}

function framesOf(language: string): CompiledFrame[] {
  let frames = compiledFrames.get(language);
  if (!frames) {
    const file = byLanguage.get(language);
    frames = (file?.frames ?? []).map((entry) => compile(entry.frame, entry.tier as Tier, entry.anyCase === true, entry.alone === true, entry.place === true, entry.workplace === true));
    compiledFrames.set(language, frames);
  }
  return frames;
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
function frameStarts(text: string, file: FrameFile | undefined): { readonly text: string; readonly bare?: string }[] {
  const leadIns = (file?.leadIns ?? []).join('|');
  const opened = (start: string): { text: string; bare?: string } => {
    const bare = leadIns ? start.replace(compiled(`^(?:(?:${leadIns})(?![\\p{L}])[\\s,]*)+`, 'iu'), '') : start;
    return bare && bare !== start ? { text: start, bare } : { text: start };
  };
  const starts = [opened(text)];
  const joiners = (file?.joiners ?? []).join('|');
  if (joiners) for (const after of text.matchAll(compiled(`\\s(?:${joiners})\\s+`, 'giu'))) starts.push(opened(text.slice(after.index + after[0].length)));
  return starts;
}

/**
 * The facts one clause states in its language's frames. A `{tools}` slot names no key ("uso Vitest", "Go ve Python
 * yazıyorum"): the lists of names choose it, so what it reads is not marked framed.
 */
export function framedCandidates(clause: string, language: string): (FramedCandidate | Candidate)[] {
  const found: ((FramedCandidate | Candidate) & { slots?: number; tail?: boolean })[] = [];
  const file = byLanguage.get(language);
  const inflections = file?.inflections ?? [];
  const add = (candidate: (FramedCandidate | Candidate) & { slots?: number; tail?: boolean }): void => {
    if (!found.some((known) => known.key === candidate.key && known.value.toLowerCase() === candidate.value.toLowerCase())) found.push(candidate);
  };
  // "…, desde Valencia": a place after a comma is read by the `alone` frames only, and only beside another fact.
  const tails = [...clause.matchAll(/,\s+/g)].map((comma) => clause.slice(comma.index + comma[0].length).trim());
  // A frame that reads a start without its lead-in ("ima wa LINE de hataraite imasu") does not read it with one (the
  // lead-in would be taken for a name: "Ima").
  const texts = frameStarts(clause.trim(), file).flatMap(({ text, bare }) => (bare ? [{ text: bare }, { text, bare }] : [{ text }]));
  for (const { text, bare, tail } of [...texts, ...tails.map((text) => ({ text, tail: true }))] as { text: string; bare?: string; tail?: boolean }[]) {
    for (const frame of framesOf(language)) {
      if (tail && !frame.alone) continue;
      if (bare !== undefined && frame.pattern.test(bare)) continue;
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
      if (read.some((slot) => slot.key === 'employer' && placeNotEmployer(slot.value!, language, text, inflections))) continue;
      if (frame.place && read.some((slot) => slot.key === 'location' && !placeNotEmployer(slot.value!, language, text, inflections))) continue;
      // "Main Java aur Spring Boot mein kaam karti hoon", "Trabajo en Go": where "at" is also "in", a tool's very name is
      // what the owner works in, not whom for.
      if (language !== 'en' && read.some((slot) => slot.key === 'employer' && isKnownToolName(slot.value!))) continue;
      if (frame.alone && !values.every(({ key, words }) => standsAlone(key, words, read.find((slot) => slot.key === key)?.value ?? '', file))) continue;
      for (const slot of read) add({ key: slot.key, value: slot.value!, tier: frame.tier, framed: true, slots: frame.alone ? 0 : frame.keys.length, ...(tail ? { tail: true } : {}), ...(frame.workplace ? { workplace: true as const } : {}) });
      for (const tool of tools) add({ ...tool, value: canonicalTool(tool.key, tool.value), tier: frame.tier === 'A' ? 'B' : frame.tier });
    }
  }
  // "Je bosse sous macOS, avec iTerm et zsh", "en Scala avec Play": tools the owner names with their own are theirs.
  const own = found.find((candidate) => !candidate.tail && toolKey.has(candidate.key));
  const withWord = file?.toolsWith?.length ? new RegExp(String.raw`(?<!\p{L})(?:${file.toolsWith.join('|')})\s+([^,;:!?()]+)`, 'giu') : undefined;
  if (own && withWord) for (const [, words] of clause.matchAll(withWord)) for (const tool of toolsIn(words)) add({ ...tool, value: canonicalTool(tool.key, tool.value), tier: own.tier === 'A' ? 'B' : own.tier });
  // How many slots read a value matters only here: it is not kept on the candidate.
  const standing = found.some((candidate) => !candidate.tail) ? found : [];
  return withoutShorterReadings(standing).map(({ key, value, tier, ...rest }) =>
    'framed' in rest ? { key, value, tier, framed: true as const, ...('workplace' in rest ? { workplace: true as const } : {}) } : { key, value, tier },
  );
}

/**
 * "Trabajo en Madrid", "Pracuję w Warszawie": where the language's "at" is also its "in", a known place or a name the
 * owner declined (a company's name is written as it is) is where the owner works, not whom for.
 */
function placeNotEmployer(value: string, language: string, clause: string, inflections: readonly Inflection[]): boolean {
  if (language === 'en') return false;
  // "Ciudad de México", "Cidade do Porto": a name that says it is a town.
  if (isPlaceName(value) || /^(?:Ciudad|Cidade|Città|Ville|Stadt)\s+(?:de\s+|do\s+|da\s+|di\s+)?\p{Lu}/u.test(value)) return true;
  const last = value.split(/\s+/).pop()!.toLowerCase();
  return inflections.length > 0 && !clause.toLowerCase().split(/[\s'’,.;:!?()]+/u).includes(last);
}

/**
 * The slot of an `alone` frame: a name with a capital, nothing after it, and no tool's name ("…, desde Valencia"); a
 * name is no job, no known place ("Watashi wa Tokyo desu") and no word with a predicate's ending ("Jestem Polakiem"). A
 * role is checked as any role is.
 */
function standsAlone(key: string, words: string, value: string, file: FrameFile | undefined): boolean {
  // What follows a comma is another part of the sentence ("Gaufrette, à Lille").
  const written = words.split(',')[0].trim().replace(/[.!]+$/, '');
  if (key === 'role') return true;
  if (!/^\p{Lu}/u.test(written) || written.split(/\s+/).length !== value.split(/\s+/).length || isKnownToolName(value)) return false;
  return key !== 'name' || (!namesAJob.test(value) && !isPlaceName(value) && baseForms(value, file?.predicateInflections ?? []).length === 0);
}

/**
 * Where several frames read one clause, the one that reads more of it explains it: "Pracuję w Gdańsku dla X" is a
 * place and an employer, so "Gdańsk" read as the employer by "pracuję w {employer}" goes, and "Kumo Systems de SRE"
 * read as the role by "{role} to shite" goes beside the employer "Kumo Systems" and the role "SRE". An `alone` frame
 * counts as none and gives way to any other ("Soy desarrollador backend en X" is "soy {role} en {employer}").
 */
function withoutShorterReadings<T extends Candidate & { slots?: number }>(found: readonly T[]): T[] {
  return found.filter((candidate) => {
    const wider = found.filter((other) => other !== candidate && (other.slots ?? 1) > (candidate.slots ?? 1));
    if (wider.some((other) => other.key !== candidate.key && other.value.toLowerCase() === candidate.value.toLowerCase())) return false;
    const holds = (other: T): boolean => candidate.value.endsWith(` ${other.value}`) || candidate.value.startsWith(`${other.value} `);
    return !wider.some((other) => other.key === candidate.key && other.value.length < candidate.value.length && holds(other));
  });
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
    // Read in another language's frames, a clause is not the plainest shape of its own: never confirmed alone.
    const other = framedCandidates(clause, file.language).map((candidate) => (candidate.tier === 'A' ? { ...candidate, tier: 'B' as const } : candidate));
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
  return withListTails(withNameMarks(text).split(split).map(nameMarksBack), file.language).filter((clause) => !frameClauseWeak(clause, file));
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
    // "Vivo en Rosario, Argentina": a region the owner attached to a place stays with it.
    const region = previous !== undefined && /\p{Lu}[\p{L}'’-]*$/u.test(previous) && isRegionName(part);
    // "…, desde Valencia", "…, a Bologna": a place after a comma goes with the clause before it (and is someone else's
    // when that clause is).
    const place = placeAfterComma.test(part);
    // "…, avec SwiftUI côté iOS": tools named with the clause's own go with it.
    const withTools = !!file?.toolsWith?.length && compiled(`^(?:${file.toolsWith.join('|')})\\s`, 'iu').test(part) && toolsIn(part).length > 0 && previous !== undefined && toolsIn(previous).length > 0;
    if (previous !== undefined && (region || place || withTools || onlyAList(part, file) || (opensWithName && onlyAList(previous, file)))) joined[joined.length - 1] = `${previous}, ${part}`;
    else joined.push(part);
  }
  return joined;
}

function escapeSource(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
