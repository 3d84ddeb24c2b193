import type { Candidate } from './candidate';
import { compiled } from './compiledPatterns';
import { toolsIn } from './passingShapes';
import { looksForeign } from './foreignShapes';
import { roleNouns } from './slotPatterns';
import { timezoneIn } from './timezones';
import { lexiconTag } from './wordTagger';

/**
 * An introduction typed as fragments, with no verb to hold them together: "hi I'm Wen, they/them, frontend at Ginkgo
 * Books, Vancouver, PST, Vue + Vite + Vitest", "dmitri here, ml eng @ kestrel, toronto", "ok the usual intro: Nikolai,
 * he/him, ML engineer, Lumenwise, Sofia (EET)". The first fragment names the owner; every other fragment is typed by its
 * own shape (a pronoun pair, a role, a role at a company, a known city, a time zone, known tools). A fragment no shape
 * types means the line is not such a list, and nothing is read from it: the evidence is the whole line's shape. Every
 * value is asked about (tier B).
 */

/** What may open the line before the owner's name: a greeting, an announcement of the introduction. */
const opening =
  /^(?:(?:hi+|hey+|hello|hiya|heya|sup|yo+|ok(?:ay)?|k|so|well|alright|hey there|hi there|new here|(?:ok |so )?(?:the )?(?:usual |quick |short )?intro(?:duction)?|about me)(?:\s+so)?[\s,!.:;—–-]+)+/iu;
const pronounPair = /^(?:she|he|they|xe|ze)\/(?:her|him|them|hers|his|theirs|xem|zir|they|she|he)(?:\/\w+)?$/i;
/** A role noun alone, or the area of the work said with where it is done ("frontend @ mercado verde"). */
const area = String.raw`(?:front[- ]?end|back[- ]?end|full[- ]?stack|mobile|infra|platform|data|security|qa|devops|design)`;
/** What a list of tools takes around its names ("svelte stan", "kotlin mostly", "Python/PyTorch"). */
const toolGlue = /\b(?:stan|fan|person|user|mostly|mainly|only|all day|every day|daily|forever|ofc|for tests|for e2e|for packages|for everything)\b|[+/&.()]|\band\b/gi;
/** Up to three English words before a role noun ("senior data", "ml"), never a sentence's ("że nazywam się admin"). */
const titleWords = String.raw`(?:(?!(?:a|an|the|my|our|at|in|of|for|to|and|or|not|just|only|ex|former|i|im|do|does|am|is|was|we|you|work|working)\b)[a-z][a-z-]*\s+){0,3}?`;
const placeTags = /^(?:City|Country|Place|Region|Province)$/;
/** Words that are no name of a person, though capitalised at a line's start. */
const notAName = /^(?:me|myself|just|also|here|there|thanks|thank|sorry|please|pls|hello|hi|hey|quick|question|context|update|note)$/i;

/** A company's name as the owner wrote it: up to three words, capitalised when typed in lower case. */
function company(words: string): string | undefined {
  const trimmed = words.trim();
  // Small words are no part of a company's name ("Paystack in Lagos" is Paystack, then a place).
  if (/\s(?:in|on|at|for|with|and|from|since|as|by|of)(?:\s|$)/.test(trimmed)) return undefined;
  if (!/^[\p{L}\d][\p{L}\d&.'’-]*(?:\s+[\p{L}\d&][\p{L}\d&.'’-]*){0,2}$/u.test(trimmed) || /^(?:an?|the|my|our|some|this)\b/i.test(trimmed)) return undefined;
  // "Ginkgo Books" holds a test framework's name and is a company; "at Vitest" is no employer.
  if (toolsIn(trimmed).some((tool) => tool.value.toLowerCase() === trimmed.toLowerCase()) || placeTags.test(lexiconTag(trimmed) ?? '')) return undefined;
  return trimmed.replace(/(^|\s)(\p{Ll})/gu, (_, space: string, letter: string) => space + letter.toUpperCase());
}

/** The owner's name in the first fragment: "I'm Wen", "im ngozi", "dmitri here", "name's siobhan", a bare "tomás". */
function nameIn(fragment: string): string | undefined {
  const said = /^(?:i['’]?m|i am|name['’]?s|my name is|it['’]?s)\s+(.+)$|^(.+?)\s+here$/iu.exec(fragment);
  const words = (said ? (said[1] ?? said[2]) : fragment).trim();
  if (!/^\p{L}[\p{L}'’-]+(?:\s\p{Lu}[\p{L}'’-]+)?$/u.test(words) || notAName.test(words)) return undefined;
  const tag = lexiconTag(words.toLowerCase());
  if (tag !== undefined && !/Name$/.test(tag)) return undefined;
  if (toolsIn(words).length > 0 || roleOf(words)) return undefined;
  return words.replace(/(^|\s)(\p{Ll})/gu, (_, space: string, letter: string) => space + letter.toUpperCase());
}

/** A place the lexicon knows ("lagos", "San Jose"), capitalised as it is written on a map. */
function placeIn(words: string): string | undefined {
  if (!/^\p{L}[\p{L}'’-]+(?:\s\p{L}[\p{L}'’-]+)?$/u.test(words) || !placeTags.test(lexiconTag(words.toLowerCase()) ?? '')) return undefined;
  return words.replace(/(^|\s)(\p{Ll})/gu, (_, space: string, letter: string) => space + letter.toUpperCase());
}

function roleOf(fragment: string): string | undefined {
  return compiled(String.raw`^(?:i am (?:an? )?)?(${titleWords}${roleNouns})$`, 'iu').exec(fragment)?.[1];
}

/** Whether some words are known tools and the small words lists take around them, nothing else. */
function toolsOnly(words: string): boolean {
  const tools = toolsIn(words);
  let rest = words;
  for (const tool of tools) rest = rest.replace(new RegExp(tool.value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i'), ' ');
  return tools.length > 0 && rest.replace(toolGlue, ' ').trim() === '';
}

/** The facts one fragment after the name gives, or undefined when no shape types it. */
function fragmentFacts(fragment: string, afterRole: boolean): Candidate[] | undefined {
  const b = (key: string, value: string): Candidate => ({ key, value, tier: 'B' });
  if (pronounPair.test(fragment)) return [b('pronouns', fragment.toLowerCase())];
  const zone = timezoneIn(fragment);
  if (zone) return [b('timezone', zone)];
  const role = roleOf(fragment);
  if (role) return [b('role', role)];
  const at = compiled(String.raw`^(${titleWords}(?:${roleNouns}|${area}))\s+(?:at|@)\s+(.+)$`, 'iu').exec(fragment);
  if (at) {
      // "staff engineer at Spotify in Stockholm": the company, then the place it is in.
    const inPlace = /^(.+?)\s+in\s+(\p{L}[\p{L}'’-]+(?:\s\p{L}[\p{L}'’-]+)?)$/u.exec(at[2]);
    const employer = company(inPlace ? inPlace[1] : at[2]);
    // The place is kept when the lexicon knows it or the owner wrote it with a capital ("in sales" is no place).
    const place = inPlace ? (placeIn(inPlace[2]) ?? (/^\p{Lu}/u.test(inPlace[2]) && lexiconTag(inPlace[2].toLowerCase()) === undefined ? inPlace[2] : undefined)) : undefined;
    if (!employer) return undefined;
    return [b('role', at[1]), b('employer', employer), ...(place ? [b('location', place)] : [])];
  }
  // "Sofia (EET)", "tokyo-based", "lagos": a place, by the lexicon or by the zone said with it.
  const withZone = /^(\p{Lu}[\p{L}'’-]+(?:\s\p{Lu}[\p{L}'’-]+)?)\s*\(([^)]+)\)$/u.exec(fragment);
  const zoned = withZone ? timezoneIn(withZone[2]) : undefined;
  if (withZone && zoned) return [b('location', withZone[1]), b('timezone', zoned)];
  const place = placeIn(fragment.replace(/[- ]based$/i, ''));
  if (place) return [b('location', place)];
  const tools = toolsIn(fragment);
  if (tools.length > 0) {
    // "Vue + Vite + Vitest": a joined list may hold a one-word name no key takes (a bundler), when most items are tools.
    const items = fragment.split(/\s*(?:\+|\/|&|\band\b)\s*/).filter(Boolean);
    const listed = items.filter((item) => toolsOnly(item));
    const others = items.filter((item) => !toolsOnly(item));
    if (listed.length > others.length && others.every((item) => /^[\p{L}\d.#-]+$/u.test(item))) return tools.map((tool) => b(tool.key, tool.value));
    return undefined;
  }
  // "ML engineer, Lumenwise": a capitalised word after the role is where the role is held.
  if (afterRole && /^\p{Lu}[\p{L}\d&'’-]+(?:\s\p{Lu}[\p{L}\d&'’-]+){0,2}$/u.test(fragment) && lexiconTag(fragment.toLowerCase()) === undefined) {
    return [b('employer', fragment)];
  }
  return undefined;
}

/** The facts of a verbless introduction on the first line of the owner's own text, or none. */
export function verblessIntroductionCandidates(ownText: string): Candidate[] {
  const line = ownText.split('\n').find((text) => text.trim() !== '');
  if (!line) return [];
  // The introduction ends where a sentence does; a question in it makes it no statement.
  const [sentence] = line.trim().split(/(?<=[^\s.])[.!?]+(?:\s+|$)/u);
  if (line.trim().slice(0, sentence.length + 1).includes('?') || looksForeign(sentence)) return [];
  const text = sentence
    .replace(/\s*[\p{Extended_Pictographic}\u{FE0F}\u{200D}\u{1F3FB}-\u{1F3FF}]+\s*/gu, ', ')
    .replace(opening, '')
    .replace(/[\s,;.!]+$/u, '');
  // "she/her pls 🙏", "im a they/them btw", "She/her, please.": the owner's pronouns said alone, with a courtesy at most.
  const alone = /^(?:i['’]?m (?:an? )?|i am (?:an? )?)?((?:she|he|they|xe|ze)\/\w+(?:\/\w+)?)(?:[\s,]+(?:pls|plz|please|thanks|thx|ty|btw|fyi|for me|now))*$/iu.exec(text.replace(/[\s,]+$/u, ''));
  if (alone && pronounPair.test(alone[1])) return [{ key: 'pronouns', value: alone[1].toLowerCase(), tier: 'B' }];
  const fragments = text.split(/\s*(?:,|;|\s[—–|·]\s|\s\/\s)\s*/u).filter(Boolean);
  if (fragments.length < 2) return [];
  const name = nameIn(fragments[0]);
  if (!name) return [];
  const found: Candidate[] = [{ key: 'name', value: name, tier: 'B' }];
  let afterRole = false;
  for (const fragment of fragments.slice(1)) {
    const facts = fragmentFacts(fragment, afterRole);
    if (!facts) return [];
    afterRole = facts.some((fact) => fact.key === 'role') && !facts.some((fact) => fact.key === 'employer');
    found.push(...facts);
  }
  return found;
}

/** Diets said in front of a role ("I'm a vegan SRE"): an adjective of the person, never part of the job's title. */
const dietInFront = /^(vegan|vegetarian|pescatarian|pescetarian|plant-based|gluten-free|halal|kosher)\s+(?=\S)/i;

/** "vegan SRE" read as a role is the role SRE and the diet vegan, both asked about. */
function withoutDiet<T extends Candidate>(candidate: T): (T | Candidate)[] {
  const diet = candidate.key === 'role' ? dietInFront.exec(candidate.value) : null;
  if (!diet) return [candidate];
  return [{ key: 'role', value: candidate.value.slice(diet[0].length), tier: 'B' }, { key: 'diet', value: diet[1].toLowerCase(), tier: 'B' }];
}

/**
 * The candidates of a message with its verbless introduction's facts added. On a single-valued key the introduction's
 * value replaces one that holds it with words around it ("ines sre" read from "im ines 👋 sre" is the role sre).
 */
export function withVerblessIntroduction<T extends Candidate>(read: readonly T[], ownText: string): (T | Candidate)[] {
  const introduced = verblessIntroductionCandidates(ownText);
  const multi = new Set(['languages', 'frameworks', 'style']);
  const holds = (outer: string, inner: string): boolean => outer.length > inner.length && ` ${outer.toLowerCase()} `.includes(` ${inner.toLowerCase()} `);
  const kept: (T | Candidate)[] = [];
  const add = (candidate: T | Candidate): void => {
    const same = kept.findIndex((known) => known.key === candidate.key && known.value.toLowerCase() === candidate.value.toLowerCase());
    if (same < 0) kept.push(candidate);
    else if (candidate.tier < kept[same].tier) kept[same] = candidate;
  };
  for (const piece of read.flatMap((candidate) => withoutDiet(candidate))) {
    if (multi.has(piece.key) || !introduced.some((fact) => fact.key === piece.key && holds(piece.value, fact.value))) add(piece);
  }
  for (const fact of introduced) add(fact);
  return kept;
}
