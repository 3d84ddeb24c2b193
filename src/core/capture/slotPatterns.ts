import {
  caseSensitiveLanguages,
  findKnown,
  javascriptPackageManagers,
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
import { compiled } from './compiledPatterns';
import { timezoneIn } from './timezones';
import { lexiconTag } from './wordTagger';
import { objectPhrase } from './passingShapes';
import type { Candidate, Tier } from './candidate';

export type { Candidate, Tier } from './candidate';

/**
 * The shapes that state a fact about the owner, per key. Tier A: the plain shape of its own key ("My
 * editor is…", "I work at…"). Tier B: a weaker but first-person shape ("I switched to…"). Tier C: a guess
 * that only the owner can settle ("I'm Priya" could be a name). Clauses arrive gated (see gates.ts).
 */

type Extractor = (clause: string) => Candidate[];

const I_AM = String.raw`i(?:'m|’m| am|m)`;

function capitalise(words: string): string {
  return words.replace(/(^|[\s-])(\p{Ll})/gu, (_, space: string, letter: string) => space + letter.toUpperCase());
}

/** A proper-noun value (a place, a company): words up to the first that is clearly not part of it. */
const companyWord = /^(?:labs|health|systems|studio|studios|tech|technologies|cloud|ai|analytics|software|robotics|games|bank|group|works|digital|media|solutions|networks|devices|data|bio|energy|capital|inc|ltd|gmbh)$/;

export function properNoun(text: string, maxWords = 4): string | undefined {
  const words = text.trim().split(/\s+/);
  const kept: string[] = [];
  for (const word of words) {
    const clean = word.replace(/[,.;:!?)]+$/, '');
    // "quarry labs" typed in lower case: a company's last word ("Labs", "Health") is still part of its name.
    const suffix = kept.length > 0 && text === text.toLowerCase() && companyWord.test(clean);
    if (kept.length > 0 && !suffix && (/^(?:and|or|on|in|as|at|since|for|now|these|last|this|with|but|so|the|to|from|lately|today)$/i.test(clean) || /^\p{Ll}/u.test(clean))) break;
    // "Keel & Co", "Marks & Spencer": an ampersand between two capitalised words joins one name.
    if (clean === '&' && kept.length > 0 && word === clean) {
      kept.push(clean);
      continue;
    }
    // \u0001 joins the small words a caller keeps inside one name ("Bank of America").
    if (!/^[\p{L}\p{N}][\p{L}\p{N}&.'’\u0001-]*$/u.test(clean) || (kept[kept.length - 1] === '&' && !/^\p{Lu}/u.test(clean))) break;
    kept.push(clean);
    if (clean !== word || kept.length === maxWords) break;
  }
  if (kept[kept.length - 1] === '&') kept.pop();
  return kept.length ? capitalise(kept.join(' ')) : undefined;
}

/** Small words inside a surname ("Daan de Vries", "Ana dos Santos", "Ludwig van der Berg"). */
const surnameParticle = /^(?:de|da|do|dos|das|del|della|di|du|van|von|der|den|ter|ten|le|la|bin|ibn|al|el)$/;
/** The same small words capitalised, as they often open a surname ("Mary Ann Van Der Berg"): particles only when a name follows. */
const capitalParticle = /^(?:De|Da|Do|Dos|Das|Del|Della|Di|Du|Van|Von|Der|Den|Ter|Ten|Le|La)$/;

/** Titles said before a surname ("Mrs. Patel", "Dr Okafor"): kept with it, and never a name alone. */
export const honorific = /^(?:mr|mrs|ms|miss|mx|dr|prof|sir|dame)\.?$/i;

/**
 * The surname that follows a first name: up to three capitalised words, each after its particles ("Django Reinhardt
 * Okoye", "Daan de Vries", "Gabriel García Márquez"). A name is never cut short of a part the owner wrote.
 */
export function surnameOf(words: readonly string[]): string[] {
  const kept: string[] = [];
  let at = 0;
  for (let part = 0; part < 3; part++) {
    let next = at;
    while (next < words.length && next - at < 3 && (surnameParticle.test(words[next]) || (capitalParticle.test(words[next]) && /^\p{Lu}/u.test(words[next + 1] ?? '')))) next++;
    const word = words[next]?.replace(/[.,;:!?]+$/, '');
    if (!word || !/^\p{Lu}[\p{L}'’-]*$/u.test(word)) break;
    kept.push(...words.slice(at, next), word);
    at = next + 1;
    // A comma or a full stop ends the name ("Django Reinhardt, and I…").
    if (word !== words[next]) break;
  }
  return kept;
}

/**
 * A full name from the words of a name slot: a first name and its surname, a title with its surname ("Mrs. Patel"),
 * or, in a message typed all in lower case, a first name the lexicon knows and the one word after it that is no English
 * word ("rosa okafor"). Nothing when the words open with no name.
 */
export function fullName(words: readonly string[], lowerCaseMessage = false): string | undefined {
  const [first, ...rest] = words;
  if (!first) return undefined;
  if (honorific.test(first)) {
    const surname = surnameOf(rest);
    return surname.length > 0 ? `${capitalise(first.replace(/\.$/, ''))}. ${surname.join(' ')}` : undefined;
  }
  const bare = first.replace(/[.,;:!?]+$/, '');
  if (!/^\p{L}[\p{L}'’-]*$/u.test(bare)) return undefined;
  const surname = bare === first ? surnameOf(rest) : [];
  if (surname.length === 0 && lowerCaseMessage && bare === first && rest[0] && /^(?:FirstName|MaleName|FemaleName)$/.test(lexiconTag(bare) ?? '')) {
    const next = rest[0].replace(/[.,;:!?]+$/, '');
    const after = rest[1]?.toLowerCase();
    if (/^\p{Ll}{2,}$/u.test(next) && (lexiconTag(next) ?? 'LastName') === 'LastName' && !notNames.has(next) && (after === undefined || next !== rest[0] || /^(?:and|i|im|here|btw|from|but|so)$/.test(after))) surname.push(next);
  }
  // Only the first letters the owner left small are raised; a particle keeps its case ("Daan de Vries").
  return [bare, ...surname].map((word, i) => (i === 0 || /^\p{Ll}+$/u.test(word) && !surnameParticle.test(word) ? word[0].toUpperCase() + word.slice(1) : word)).join(' ');
}

function one(key: string, value: string | undefined, tier: Tier): Candidate[] {
  return value ? [{ key, value, tier }] : [];
}

function match(text: string, pattern: string): RegExpExecArray | null {
  return compiled(pattern, 'iu').exec(text);
}

const name: Extractor = (clause) => {
  const plain = match(clause, String.raw`^(?:my name is|my name's|name's|name is|call me|i go by|${I_AM} called)\s+((?:(?:mr|mrs|ms|miss|mx|dr|prof)\.?\s+)?[\p{L}][\p{L}'’]*(?:(?:\s+(?:de|da|do|dos|das|del|di|du|van|von|der|den|le|la))*\s+[\p{L}][\p{L}'’-]*){0,3})(?![\p{L}/-])`);
  // The second word of a name must really be capitalised ("my name is gustavo btw" is Gustavo; "Daan de Vries" keeps its "de").
  const value = plain ? fullName(plain[1].split(/\s+/), clause === clause.toLowerCase()) : undefined;
  if (value && !notNames.has(value.toLowerCase()) && !notNames.has(value.split(' ')[0].toLowerCase())) return one('name', value, 'A');
  // "I'm Priya": a capitalised word alone after "I'm" may be a name, or not. The owner decides.
  const guess = /^[Ii](?:'m|’m| am)\s+(\p{Lu}[\p{Ll}'’]+)(?=$|,)/u.exec(clause);
  if (guess && !notNames.has(guess[1].toLowerCase())) return one('name', guess[1], 'C');
  // "im tomas and…": written all in lower case, a word the lexicon knows only as a first name.
  const lower = /^i(?:'m|’m| am)\s+(\p{Ll}[\p{Ll}'’]+)(?=$|,)/u.exec(clause);
  if (lower && /^(?:FirstName|MaleName|FemaleName)$/.test(lexiconTag(lower[1]) ?? '') && !notNames.has(lower[1])) return one('name', capitalise(lower[1]), 'C');
  return [];
};

const pronouns: Extractor = (clause) => {
  const found = /(?:^my pronouns are|\bpronouns:?|^i go by|^i use)\s+((?:she|he|they|xe|ze|it)\/(?:her|him|them|hers|his|theirs|xem|zir|its)(?:\/\w+)?)/i.exec(clause);
  return one('pronouns', found?.[1].toLowerCase(), 'A');
};

/**
 * The nouns that end a job title; the words before them (up to three) are kept ("site reliability engineer"). A title
 * whose noun follows "developer" is read whole ("developer advocate" is no developer), and an advocate is a title only
 * as a developer's, never alone ("an advocate of TDD").
 */
export const roleNouns = String.raw`(?:(?:developer|dev) (?:advocate|evangelist)|sysadmin|devops(?![\s-]+(?:engineer|lead|manager|specialist|architect|consultant|person)\b)|engineer|enginer|engeneer|enginner|enigneer|eng|developer|developper|devloper|develper|dev|programmer|architect|scientist|designer|manager|analyst|sre|administrator|admin|student|researcher|consultant|cto|ceo|founder|intern|tester|maintainer|lead|recruiter|nurse|teacher|bioinformatician|freelancer|specialist|officer|coordinator|statistician|accountant|contractor|em|pm|tpm|swe|sde|sdet|devrel|cto|vp)`;
/** Words before a role noun that are part of the title (not "married to a", "the only", "glorified", "real"), a stack's name written with its sign among them (".NET developer", "C# dev"). */
export const titleWord = String.raw`(?!(?:to|a|an|the|of|for|at|in|on|with|as|married|not|just|only|lone|really|real|basically|also|still|now|currently|working|big|huge|professional|rockstar|10x|chief|glorified|wannabe|aspiring|future|former|ex|would-be|accidental|certified|self-proclaimed|so-called)\b)(?:[\p{L}-]+|\.NET|[CF]#|C\+\+)\s+`;

const role: Extractor = (clause) => {
  const plain = match(clause, String.raw`^(?:${I_AM} an?|i work as an?|my role is(?: an?)?)\s+((?:${titleWord}){0,3}?${roleNouns})\b`);
  if (plain) return one('role', plain[1], 'B');
  const the = match(clause, String.raw`^${I_AM} the (?:only |lone |sole |main |lead )?((?:[\w-]+\s+){0,2}?${roleNouns})\b`);
  return one('role', the?.[1], 'B');
};

const team: Extractor = (clause) => {
  const found = match(clause, String.raw`\bon the ([\p{L}\d-]+(?:\s+[\p{L}\d-]+)?) (?:team|squad)\b(?!\s+(?:plan|tier|account|subscription|license|page|meeting|channel|call|lead|offsite))`) ?? match(clause, String.raw`^my team is(?: called| named)?(?: the)? ([\p{L}\d-]+)`);
  return one('team', found?.[1], 'A');
};

const employer: Extractor = (clause) => {
  const plain = match(clause, String.raw`^i work (?:at|for)\s+(.+)$`);
  if (plain && !/^an?\s/i.test(plain[1])) return one('employer', properNoun(plain[1]), 'A');
  const moved = match(clause, String.raw`^(?:${I_AM} (?:now |still |currently )?(?:at|with)|i (?:just )?(?:joined|started at))\s+(\p{Lu}.+)$`);
  // "I'm at Calico now" is where the owner works; "I'm at Starbucks and their wifi…" is where the owner sits.
  const rest = moved && moved[1].slice((properNoun(moved[1]) ?? '').length);
  const settled = rest !== null && (!/^(?:i am|i'm|im)/i.test(clause) || /^\s*(?:now|these days|nowadays|full[- ]time|as an? .+|since .+)?\s*[.!]?$/i.test(rest ?? ''));
  if (moved && settled && /^\p{Lu}/u.test(moved[1])) return one('employer', properNoun(moved[1]), 'B');
  // "now I'm at a 10-person startup called Lumen"
  const called = match(clause, String.raw`^(?:${I_AM} (?:now |still |currently )?(?:at|with)|i work (?:at|for)|i joined)\s+an? .{1,40}? (?:called|named)\s+(\p{Lu}.+)$`);
  return one('employer', called ? properNoun(called[1]) : undefined, 'B');
};

const location: Extractor = (clause) => {
  const plain = match(clause, String.raw`^i live in\s+(.+)$`);
  if (plain) return one('location', properNoun(plain[1]), 'A');
  const weaker = match(clause, String.raw`^(?:i moved to|${I_AM} based in|i relocated to)\s+(.+)$`);
  if (weaker) return one('location', properNoun(weaker[1]), 'B');
  const based = match(clause, String.raw`^${I_AM} (\p{Lu}[\p{L}]+(?:\s\p{Lu}[\p{L}]+)?)-based\b`);
  if (based) return one('location', based[1], 'B');
  const lately = match(clause, String.raw`^${I_AM} in\s+([\p{L}]+(?:\s+[\p{Lu}][\p{L}]+)?)\s+(?:these days|now|nowadays|at the moment)\b`);
  return one('location', lately ? capitalise(lately[1]) : undefined, 'B');
};

const timezone: Extractor = (clause) => {
  const found = match(clause, String.raw`^my (?:time ?zone|tz) is\s+((?:UTC|GMT)(?:\s*[+-]\s*\d{1,2}(?::\d{2})?)?|[A-Z]{2,5}|[A-Za-z]+\/[A-Za-z_]+)\b`);
  // The pattern is read without case, so "my timezone is weird" must still name a zone the zone list knows.
  const zone = found ? timezoneIn(found[1].replace(/\s+/g, '')) : undefined;
  return one('timezone', zone ? found![1].replace(/\s+/g, '') : undefined, 'A');
};

/** "I use X", "I'm on X", "my K is X", "I use X as my K": for keys whose values are known names. */
function knownTool(key: string, names: readonly string[], noun: string, bareUse: readonly string[] = names): Extractor {
  return (clause) => {
    const own =
      match(clause, String.raw`^my (?:main |primary |default |daily )?${noun} is\s+(.+)$`) ??
      match(clause, String.raw`^i use\s+(.+?)\s+as my ${noun}\b`) ??
      match(clause, String.raw`^(.{1,30}?) is my (?:main |primary |default |daily |go-to )?${noun}\b`);
    // A name the list does not know is asked about, and only when written as a name ("my shell is broken" names none).
    if (own) {
      const known = findKnown(own[1], names)[0];
      return known ? one(key, known, 'A') : one(key, /^\p{Lu}/u.test(own[1].trim()) ? properNoun(own[1], 3) : undefined, 'B');
    }
    // "I use pnpm" names the tool, not the key: the key is read from the list the name is on, so it is asked about.
    const use = match(clause, String.raw`^(?:i use|${I_AM} on|i run|i'?m using|i am using)\s+(.+)$`);
    if (use) {
      const first = findKnown(use[1].split(/\s+/).slice(0, 3).join(' '), bareUse)[0];
      if (first) return one(key, first, 'B');
    }
    // "I switched from bash to zsh", "I dropped Jest for Vitest": the tool named in the old one's place.
    const switched =
      match(clause, String.raw`^i (?:switched|moved|migrated|went)(?: over| back)?(?: everything)?(?: from .{1,30}?)? to\s+(.+)$`) ??
      match(clause, String.raw`^i (?:dropped|ditched|replaced|swapped)\s+.{1,30}?\s+(?:for|with)\s+(.+)$`) ??
      match(clause, String.raw`^i (?:put|installed)\s+(.{1,30}?)\s+on my (?:machine|laptop|desktop|computer|box|pc|workstation)\b`);
    return one(key, switched ? findKnown(switched[1].split(/\s+/).slice(0, 3).join(' '), names)[0] : undefined, 'B');
  };
}

const testFramework: Extractor = (clause) => {
  const own =
    match(clause, String.raw`^(?:i test with|i write (?:my )?tests (?:in|with)|my test (?:framework|runner) is|i use (.+?) for (?:my )?(?:tests|testing|unit tests))\s*(.*)$`) ??
    match(clause, String.raw`^i (?:do|run|write) (?:all |most )?(?:of )?my (?:testing|tests|unit tests) (?:with|in|using)()\s*(.*)$`);
  if (!own) return [];
  return one('test_framework', findKnown(`${own[1] ?? ''} ${own[2] ?? ''}`, knownTestFrameworks)[0], 'A');
};

function listed(key: string, names: readonly string[], text: string, tier: Tier, caseSensitive?: ReadonlySet<string>): Candidate[] {
  return [...new Set(findKnown(objectPhrase(text), names, caseSensitive))].map((value) => ({ key, value, tier }));
}

const languages: Extractor = (clause) => {
  const plain = match(clause, String.raw`^(?:i (?:mostly |mainly |usually )?(?:write|code in|program in|work in)|my (?:main |primary )?languages? (?:is|are))\s+(.+)$`);
  if (plain) return listed('languages', knownLanguages, plain[1], 'A', caseSensitiveLanguages);
  const lately = match(clause, String.raw`^i(?:'ve|’ve| have) been (?:writing|coding in|using)\s+(.+)$`);
  return lately ? listed('languages', knownLanguages, lately[1], 'B', caseSensitiveLanguages) : [];
};

const frameworks: Extractor = (clause) => {
  const plain = match(clause, String.raw`^i (?:use|build (?:everything |most things |apps |things )?(?:with|in)|work with)\s+(.+)$`);
  if (plain) return listed('frameworks', knownFrameworks, plain[1], 'B');
  const mostly = match(clause, String.raw`^i (?:mostly|mainly|usually) (?:use|build with|work with)\s+(.+)$`);
  return mostly ? listed('frameworks', knownFrameworks, mostly[1], 'B') : [];
};

const diet: Extractor = (clause) => {
  const without = match(clause, String.raw`^i (?:don[’']?t|do not) eat (meat|fish|dairy|gluten|pork|eggs)\b`);
  if (without) return one('diet', `no ${without[1].toLowerCase()}`, 'A');
  const found = match(clause, String.raw`^${I_AM}(?: a)?\s+(\p{L}[\p{L}-]*)\b`);
  const value = found ? knownDiets.find((known) => known === found[1].toLowerCase()) : undefined;
  return one('diet', value, 'A');
};

const allTools = [...knownEditors, ...knownShells, ...knownPackageManagers, ...knownTestFrameworks, ...knownFrameworks, ...knownLanguages];
const style: Extractor = (clause) => {
  const found = match(clause, String.raw`^i (?:always |usually |generally |strongly )?(?:prefer|always use|always write|like to use)\s+(.+)$`);
  if (!found) return [];
  return found[1]
    .split(/\s*(?:,|\band\b)\s*/)
    // A scope that names a language stays ("no semicolons in JS"); any other tail goes ("… when you refactor").
    .map((part) => part.trim().replace(/\s+(?:please|when|in|for|everywhere)\b.*$/i, (tail) => (/^\s+in\s+(?:js|ts|javascript|typescript|python|go|rust|java|css|sql)\s*$/i.test(tail) ? tail : '')))
    .filter((part) => part && part.split(/\s+/).length <= 5 && findKnown(part, allTools).length === 0)
    .map((value) => ({ key: 'style', value, tier: 'A' as const }));
};

const extractors: readonly Extractor[] = [
  name,
  pronouns,
  role,
  team,
  employer,
  location,
  timezone,
  knownTool('os', knownOperatingSystems, '(?:os|operating system)'),
  knownTool('editor', knownEditors, 'editor'),
  knownTool('shell', knownShells, 'shell'),
  knownTool('package_manager', knownPackageManagers, 'package manager', javascriptPackageManagers),
  testFramework,
  languages,
  frameworks,
  diet,
  style,
];

/** Every candidate fact one gated clause states; duplicates of a key and value keep the strongest tier. */
export function candidatesOf(clause: string): Candidate[] {
  const best = new Map<string, Candidate>();
  for (const candidate of extractors.flatMap((extract) => extract(clause))) {
    const id = `${candidate.key}\u0000${candidate.value.toLowerCase()}`;
    const known = best.get(id);
    if (!known || candidate.tier < known.tier) best.set(id, candidate);
  }
  return [...best.values()];
}
