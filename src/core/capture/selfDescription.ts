import { compiled } from './compiledPatterns';
import type { Candidate } from './candidate';
import { toolsIn } from './passingShapes';
import { properNoun, roleNouns, titleWord } from './slotPatterns';
import { timezoneIn } from './timezones';
import { knownDiets, knownEditors, knownFrameworks, knownLanguages, knownOperatingSystems, knownPackageManagers, knownShells, knownTestFrameworks } from './knownNames';
import { isRegionName, lexiconTag } from './wordTagger';
import { isPlaceName } from './slotValues';

/**
 * The shapes of a compound self-introduction ("I'm Maya, she/her, a frontend engineer on the growth team at
 * Quillbox in Toronto"): each piece is read from the clause it sits in, so one message can give a name,
 * pronouns, a role, a team, an employer and a city. None of these shapes is tier A on its own: the plain
 * shapes in slotPatterns.ts are.
 */
const I_AM = String.raw`i am`;
/** Up to three words that may be a proper noun; properNoun() then keeps the part that is one. */
const proper = String.raw`([\p{L}\d][\p{L}\d&.'’-]*(?:\s+&?\s*[\p{L}\d][\p{L}\d&.'’-]*){0,2})`;
const pronounPair = String.raw`((?:she|he|they|xe|ze|it)\/(?:her|him|them|hers|his|theirs|xem|zir|its|they|she|he)(?:\/\w+)?)`;

function found(key: string, value: string | undefined, tier: 'B' | 'C' = 'B'): Candidate[] {
  const trimmed = value?.trim().replace(/[.,;:!?]+$/, '');
  return trimmed ? [{ key, value: trimmed, tier }] : [];
}

/** A proper noun from words a shape captured: "Quillbox in Toronto" is Quillbox. */
function entity(key: string, words: string | undefined): Candidate[] {
  return found(key, words ? properNoun(words, 3) : undefined);
}

/** Case-sensitive where a capital is the evidence (a name), whatever the case of "I am". */
function capitalised(text: string, pattern: string): RegExpExecArray | null {
  return compiled(pattern, 'u').exec(text.replace(/^i am\b/i, 'i am').replace(/^i\b/i, 'i'));
}

function match(text: string, pattern: string): RegExpExecArray | null {
  return compiled(pattern, 'iu').exec(text);
}

/** "a frontend engineer on the growth team at Quillbox in Toronto": role, team, employer and place in one phrase. */
function rolePhrase(text: string): Candidate[] {
  const role = match(text, String.raw`^(?:i am working as|i work as|i am|working as)\s+(?:as\s+)?(?:an?\s+|the\s+)?(?:only\s+|lone\s+|main\s+|sole\s+|new\s+|first\s+)?((?:${titleWord}){0,3}?${roleNouns})\b(.*)$`);
  if (!role) return [];
  const rest = role[2];
  const candidates = found('role', role[1]);
  const team = match(rest, String.raw`\b(?:on|in|for|of)\s+the\s+([\p{L}\d-]+(?:\s+[\p{L}\d-]+)?)\s+(?:team|squad)\b`);
  candidates.push(...found('team', team?.[1]));
  // "I'm the PM for Search", "the tech lead for Payments": the one holding a role for an area names a product, not an employer.
  const forArea = /^(?:i am working as|i work as|i am|working as)\s+(?:as\s+)?the\s/i.test(text) ? 'at|with' : 'at|for|with';
  const employer = match(rest, String.raw`\b(?:called|named)\s+${proper}`) ?? match(rest, String.raw`\b(?:${forArea})\s+${proper}`);
  if (employer && !/^(?:the|a|an)\b/i.test(employer[1])) candidates.push(...entity('employer', employer[1]));
  const place = match(rest, String.raw`\b(?:in|from|based in|living in|out of)\s+${proper}\s*$`) ?? match(rest, String.raw`\b(?:based in|living in|working from)\s+${proper}`);
  // "a vegan SRE in Lisbon on the Reliability team": a place the lexicon knows, before the team or the employer.
  const placeBefore = place ? null : capitalised(rest, String.raw`\bin\s+(\p{Lu}[\p{L}'’-]+(?:\s\p{Lu}[\p{L}'’-]+)?)\s+(?:on|at|for|with)\s`);
  candidates.push(...entity('location', place?.[1] ?? (placeBefore && isPlaceName(placeBefore[1]) ? placeBefore[1] : undefined)));
  // "a firmware engineer at Lindqvist writing C and Rust": the languages and frameworks the work is done in.
  const writing = match(rest, String.raw`\b(?:writing|coding in|working in|building with|mostly)\s+(.{1,40})$`);
  if (writing) candidates.push(...toolsIn(writing[1]).filter((candidate) => candidate.key === 'languages' || candidate.key === 'frameworks'));
  return candidates;
}

/** Pieces of an introduction whose subject is implied ("she/her", "payments team", "based in Lisbon"). */
function pieces(text: string): Candidate[] {
  const pronouns = match(text, String.raw`^(?:${I_AM}\s+|my pronouns are\s+|pronouns(?: are)?:?\s+|it(?:'?s| is)\s+)?${pronounPair}(?:\s+(?:now|these days))?$`);
  if (pronouns) return found('pronouns', pronouns[1].toLowerCase());
  const team = match(text, String.raw`^${I_AM}\s+(?:on\s+)?(?:the\s+)?([\p{L}\d-]+(?:\s+[\p{L}\d-]+)?)\s+(?:team|squad)$`);
  if (team) return found('team', team[1]);
  const teamAt = match(text, String.raw`^${I_AM}\s+on the ([\p{L}\d-]+(?:\s+[\p{L}\d-]+)?)\s+(?:team|squad)\s+(?:at|for)\s+${proper}`);
  if (teamAt && !/^(?:the|a|an)\b/i.test(teamAt[2])) return [...found('team', teamAt[1]), ...entity('employer', teamAt[2])];
  const lead = match(text, String.raw`^i (?:lead|run|manage)\s+the\s+([\p{L}\d-]+(?:\s+[\p{L}\d-]+)?)\s+(?:team|squad)\b(?:\s+(?:at|for)\s+${proper})?`);
  if (lead) return [...found('team', lead[1]), ...entity('employer', lead[2])];
  const where = match(text, String.raw`^${I_AM}\s+(?:currently\s+)?(?:based in|based out of|located in|living in|working from|from)\s+${proper}`);
  if (where) return entity('location', where[1]);
  // "I'm out of Denver", never "I'm out of ideas": a bare "out of" names a place only written with its capital.
  const outOf = capitalised(text, String.raw`^(?:i am|i'm|im)\s+(?:currently\s+)?out of\s+(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+)?)`);
  if (outOf) return entity('location', outOf[1]);
  const workFrom = match(text, String.raw`^i (?:work|am working)\s+(?:remotely\s+)?(?:for|at)\s+${proper}\s+from\s+${proper}`);
  if (workFrom) return [...entity('employer', workFrom[1]), ...entity('location', workFrom[2])];
  const fromFor = match(text, String.raw`^i (?:work|am working)\s+(?:remotely\s+)?from\s+${proper}\s+(?:for|at)\s+${proper}`);
  if (fromFor) return [...entity('location', fromFor[1]), ...entity('employer', fromFor[2])];
  const workingAt = match(text, String.raw`^(?:i am working|i work|working)(?:\s+(?:remotely|remote|full[- ]time|part[- ]time|freelance))?(?:\s+on the [\p{L}\d -]{1,30}? (?:team|squad))?\s+(?:at|for)\s+(.+)$`);
  if (workingAt) {
    const as = match(workingAt[1], String.raw`\bas\s+(?:an?\s+)?((?:${titleWord}){0,3}?${roleNouns})\b`);
    return [...entity('employer', workingAt[1]), ...found('role', as?.[1])];
  }
  const nameFrom = capitalised(text, String.raw`^i am\s+(\p{Lu}[\p{Ll}'’]+)\s+(?:from|in)\s+(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+)?)$`);
  if (nameFrom) return [...found('name', nameFrom[1], 'C'), ...found('location', nameFrom[2])];
  // "I'm in Salem, Oregon": a place with its region attached is a place, whatever the lexicon knows of the town.
  const inRegion = capitalised(text, String.raw`^i am (?:in|from)\s+(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+)?),\s+(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+)?)$`);
  if (inRegion && isRegionName(inRegion[2])) return found('location', `${inRegion[1]}, ${inRegion[2]}`);
  // "I do Ruby and Go at Cinderwick", "I do backend at Vesuvio Pay in Naples": the work's place is the employer, and a
  // town after it is where the owner is.
  const doAt = capitalised(text, String.raw`^i (?:do|write|code|build)\s+[\p{L}\d.+#, -]{1,40}?\s+at\s+(\p{Lu}[\p{L}\d&'’-]+(?:\s+\p{Lu}[\p{L}\d&'’-]+)?)(?:\s+in\s+(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+)?))?$`);
  const work = text.slice(0, text.indexOf(' at '));
  if (doAt && (toolsIn(work).length > 0 || /^i do (?:backend|frontend|full[- ]?stack|devops|infra|data|ml|mobile|security|qa|web|android|ios|design|platform)(?: (?:work|stuff|dev|development|engineering))?$/i.test(work))) return [...entity('employer', doAt[1]), ...entity('location', doAt[2])];
  // "I work on MYT": the zone the owner's hours keep.
  const onZone = match(text, String.raw`^i (?:work|am|live) on\s+(\S+)$`);
  const zoneOn = onZone ? timezoneIn(onZone[1]) : undefined;
  if (zoneOn) return found('timezone', zoneOn);
  // "im in berlin": written in lower case, a town the lexicon knows, for the owner to settle.
  const inTown = /^i am in\s+(\p{Ll}[\p{Ll}'’-]+)$/u.exec(text);
  if (inTown && /^(?:City|Country)$/.test(lexiconTag(inTown[1]) ?? '')) return found('location', inTown[1][0].toUpperCase() + inTown[1].slice(1));
  const inPlace = capitalised(text, String.raw`^i am in\s+(\p{Lu}[\p{L}'’]+(?:\s+\p{Lu}[\p{L}'’]+)?)$`);
  if (inPlace && /^(?:City|Country|Place|Region|Province)$/.test(lexiconTag(inPlace[1]) ?? '')) return found('location', inPlace[1]);
  const here = capitalised(text, String.raw`^(\p{Lu}[\p{Ll}'’]+) here(?: again)?$`);
  if (here) return found('name', here[1]);
  const roleHere = match(text, String.raw`^(?:i am )?((?:${titleWord}){0,3}?${roleNouns}) here$`);
  if (roleHere) return found('role', roleHere[1]);
  const remote = match(text, String.raw`^i (?:work|am working|code)\s+(?:remotely |from home )?(?:from|out of)\s+(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+)?)`);
  if (remote) return entity('location', remote[1]);
  const workingIn = capitalised(text, String.raw`^(?:i am working|i work) in\s+(\p{Lu}[\p{L}&.'’-]+(?:\s+\p{Lu}[\p{L}&.'’-]+)?)(?:\s+since\b.*)?$`);
  if (workingIn && !/^(?:City|Country|Place|Region|Province)$/.test(lexiconTag(workingIn[1]) ?? '')) return entity('employer', workingIn[1]);
  const office = capitalised(text, String.raw`^(?:i am )?in (?:the |our |my )?(\p{Lu}[\p{L}'’-]+) office$`);
  if (office) return found('location', office[1]);
  // "its lena btw": a lone first name after "it's", for the owner to settle.
  const itsMe = match(text, String.raw`^it'?s\s+(\p{L}[\p{Ll}'’]+)(?:\s+(?:btw|here|again|fyi))?$`);
  if (itsMe) return found('name', itsMe[1][0].toUpperCase() + itsMe[1].slice(1), 'C');
  const callMe = match(text, String.raw`^(?:you can|people|everyone|friends|most people|everybody) (?:call|calls) me\s+(\p{L}[\p{L}'’-]*)`);
  if (callMe) return found('name', callMe[1]);
  // A lone capitalised word in a list of self-description: a name or a place; the tagger tells which (valueChecks).
  const lone = capitalised(text, String.raw`^i am\s+(\p{Lu}[\p{L}'’]+(?:\s+\p{Lu}[\p{L}'’]+)?)$`);
  // "About me: Noor, she/her, ML engineer, Amsterdam, CET": a zone in the list is the time zone.
  const zone = lone ? timezoneIn(lone[1]) : undefined;
  if (zone) return found('timezone', zone);
  if (lone) return /^(?:City|Country|Place|Region|Province)$/.test(lexiconTag(lone[1]) ?? '') ? found('location', lone[1]) : found('name', lone[1], 'C');
  const asRole = match(text, String.raw`^as (?:the|an?)\s+((?:${titleWord}){0,2}?${roleNouns})\b`);
  if (asRole) return found('role', asRole[1]);
  const joined = match(text, String.raw`^i (?:joined|started at)\s+${proper}\s+(?:in\s+\p{L}+\s+)?as\s+(?:an?\s+|the\s+|their\s+)?(?:first\s+|new\s+)?((?:${titleWord}){0,2}?${roleNouns})\b`);
  if (joined) return [...entity('employer', joined[1]), ...found('role', joined[2])];
  return [];
}

/** Looser everyday shapes, for known names only ("pnpm is what I use", "a VS Code person", "a ThinkPad running Fedora"). */
function looseShapes(text: string): Candidate[] {
  const asUser = match(text, String.raw`^as an? (.{1,20}?) (?:user|person|fan|shop)\b`);
  if (asUser) return toolsIn(asUser[1]);
  const whatIUse = match(text, String.raw`^(.{1,30}?) is what i (?:use|run|write)\b`);
  if (whatIUse) return toolsIn(whatIUse[1]);
  const person = match(text, String.raw`^i am (?:firmly |totally |very much |definitely |a big )?an? (.{1,25}?) (?:person|guy|girl|user|fan|shop)$`);
  if (person) return toolsIn(person[1]);
  const running = match(text, String.raw`^i (?:code|work|develop|program) on an? [\p{L}\d -]{1,30}? running (.{1,25})$`);
  if (running) return toolsIn(running[1]).filter((candidate) => candidate.key === 'os');
  const allIn = match(text, String.raw`^i am (?:all[- ]in on|sticking with|a (?:die-hard|diehard) )\s*(.{1,25})$`);
  if (allIn) return toolsIn(allIn[1]).filter((candidate) => candidate.key !== 'languages');
  const writingIn = match(text, String.raw`^i am (?:writing|coding|building) (?:this|it|[\p{L} -]{1,30}?) in ([\p{L}+#.-]+)`);
  if (writingIn) return toolsIn(writingIn[1]).filter((candidate) => candidate.key === 'languages' || candidate.key === 'frameworks');
  const hours = match(text, String.raw`^i keep ((?:UTC|GMT)(?:[+-]\d{1,2})?|[A-Z]{2,5}) hours\b`);
  if (hours && /^[A-Z+\-\d]+$/.test(hours[1])) return found('timezone', hours[1]);
  // "i do vue mostly", "mostly do react stuff at my job": the work's languages and frameworks, by their names.
  const doing = match(text, String.raw`^(?:i |i am )?(?:mostly |mainly |also )?(?:do|doing|doin)\s+(.{1,40})$`);
  if (doing) return toolsIn(doing[1]).filter((candidate) => candidate.key === 'frameworks' || candidate.key === 'languages');
  const builds = match(text, String.raw`^i (?:mostly |mainly )?build\b.{0,40}?\b(?:with|using|in)\s+(.{1,30})$`);
  if (builds) return toolsIn(builds[1]).filter((candidate) => candidate.key === 'frameworks');
  return [];
}

/**
 * Where the owner is, said inside a clause about something else: "Sydney-based", "out of the Lisbon office", "an indie
 * dev in Montreal building Flutter apps", "at a bank in Zurich". Only a capitalised word, and the place checks decide.
 */
function placesInside(text: string): Candidate[] {
  const based = capitalised(text, String.raw`(?:^|[\s,])(\p{Lu}[\p{Ll}]+(?:\s\p{Lu}[\p{Ll}]+)?)-based\b`);
  if (based) return found('location', based[1]);
  const office = capitalised(text, String.raw`\b(?:out of|from|in|at) (?:the|our|my) (\p{Lu}[\p{L}'’-]+(?:\s\p{Lu}[\p{L}'’-]+)?) office\b`);
  if (office) return found('location', office[1]);
  const beforeWork = capitalised(text, String.raw`^i am an? [\p{L} -]{1,40}? in (\p{Lu}[\p{L}'’-]+(?:\s\p{Lu}[\p{L}'’-]+)?)\s+\p{Ll}+ing\b`);
  if (beforeWork) return found('location', beforeWork[1]);
  const atPlace = capitalised(text, String.raw`^i (?:am|work|do|code|write)\b.{0,60}?\b(?:at|for) an? [\p{L} -]{1,30}? in (\p{Lu}[\p{L}'’-]+(?:\s\p{Lu}[\p{L}'’-]+)?)$`);
  return atPlace && /^(?:City|Country|Place|Region|Province)$/.test(lexiconTag(atPlace[1]) ?? '') ? found('location', atPlace[1]) : [];
}

/** Every compound-introduction candidate of one clause (already in plain form: "i am …"). */
export function selfDescriptionCandidates(text: string): Candidate[] {
  return [...rolePhrase(text), ...pieces(text), ...looseShapes(text), ...placesInside(text)];
}

const typoFixes: [RegExp, string][] = [
  [/^(i|my)\s+(?:wokr|wrok|wrk|worl|wrok)\b/i, '$1 work'],
  [/^i\s+(?:lve|liev|lvie|livee)\b/i, 'i live'],
  [/^my\s+(?:nmae|naem|nam|anme)\s+is\b/i, 'my name is'],
  [/^my\s+(?:editro|edtor|eidtor|editr)\s+is\b/i, 'my editor is'],
  [/^my\s+(?:pronuns|pronons|pronoums|prnouns|pronuons)\b/i, 'my pronouns'],
  [/^i\s+(?:amm|ma)\s+/i, 'i am '],
  [/\b(on|in|at)\s+teh\b/i, '$1 the'],
  [/^im\s+/i, 'i am '],
  [/^my\s+names\s+/i, 'my name is '],
  [/\b(?:r)\b(?=\s+\p{L})/iu, 'are'],
  [/^i am (work|live|use|write|code)\b/i, 'i $1'],
];

/** A clause with the commonest typos in the key words fixed, when it had any ("I wokr at" → "i work at"). */
export function withoutTypos(text: string): string | undefined {
  let fixed = text;
  for (const [typo, fix] of typoFixes) fixed = fixed.replace(typo, fix);
  fixed = fixed.replace(/[\p{L}]{6,}/gu, (word) => misspelt(word) ?? word);
  return fixed === text ? undefined : fixed;
}

/** The words most teams are named with ("platfrom team" is the Platform team). */
const teamWords = ['platform', 'payments', 'billing', 'security', 'growth', 'search', 'infrastructure', 'frontend', 'backend', 'mobile', 'identity', 'checkout', 'onboarding', 'analytics', 'reliability', 'integrations', 'observability'];

let misspellings: Map<string, string> | undefined;
const vowels = 'aeiouy';

/**
 * The owner's text with the known names they misspelt written as the names ("mostly pyhton", "and djnago for the
 * backend"), wherever they stand, so every reader finds them; the same as `text` when nothing was respelled.
 */
export function withNamesRespelled(text: string): string {
  return text.replace(/(?<![\p{L}\d_./@-])[\p{L}]{6,}(?![\p{L}\d_/@-])/gu, (word) => misspelt(word) ?? word);
}

/**
 * A known name of six letters or more with two letters swapped or one left out ("djnago", "vegetarain", "typscript"),
 * when the word is no English word of its own: the name meant. Built once, from the lists of names.
 */
function misspelt(word: string): string | undefined {
  if (!misspellings) {
    misspellings = new Map();
    const names = [...knownEditors, ...knownShells, ...knownOperatingSystems, ...knownPackageManagers, ...knownTestFrameworks, ...knownLanguages, ...knownFrameworks, ...knownDiets, ...teamWords];
    // "ubuntu" is "kubuntu" with a letter left out, and a name of its own: a name is never another's misspelling.
    const spelled = new Set(names.map((name) => name.toLowerCase()));
    for (const name of names) {
      const lower = name.toLowerCase();
      if (lower.length < 6 || !/^\p{L}+$/u.test(lower)) continue;
      for (let i = 0; i < lower.length; i++) {
        // A name's first letter is never the one left out ("studio" is no misspelling of RStudio).
        // Nor the last ("window" is a word of its own, not Windows without its "s"; "bundle" is not Bundler).
        const variants = [i > 0 && i < lower.length - 1 ? lower.slice(0, i) + lower.slice(i + 1) : lower, i + 1 < lower.length ? lower.slice(0, i) + lower[i + 1] + lower[i] + lower.slice(i + 2) : lower];
        // "vegitarian", "javascrpt": in a long name (eight letters or more) one vowel written for another is a slip too.
        if (lower.length >= 8 && i > 0 && vowels.includes(lower[i])) for (const vowel of vowels) if (vowel !== lower[i]) variants.push(lower.slice(0, i) + vowel + lower.slice(i + 1));
        for (const variant of variants) if (!spelled.has(variant) && !misspellings.has(variant)) misspellings.set(variant, name);
      }
    }
  }
  const lower = word.toLowerCase();
  const name = misspellings.get(lower);
  return name && lexiconTag(lower) === undefined ? name : undefined;
}
