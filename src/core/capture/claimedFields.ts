import type { Candidate } from './candidate';
import { fieldValues } from './fieldLists';
import { timezoneIn } from './timezones';

/**
 * Fields the owner writes in a machine's shape and claims as theirs:
 * - an indented block under their own heading ("my profile, for whatever you keep:\n  editor: helix\n  shell: nushell");
 * - `key=value` pairs with a claim beside them ("name=Sunil; role=platform engineer; tz=IST – that's me, save it").
 * pastedText.ts takes both shapes for a paste (YAML, a log line) and blanks them, rightly when nobody claims them, so
 * they are read here from the message itself, and only when every field is one a person fills in about themselves. A
 * log line with such fields and no claim, or a block under someone else's heading, stays unread. Every fact is asked
 * about (tier B): a field is the owner's shorthand, not a sentence saying it.
 */

/** The field names people use for themselves, and the key each fills. */
const fieldKeys: ReadonlyMap<string, string> = new Map([
  ...['name', 'full name'].map((field) => [field, 'name'] as const),
  ['pronouns', 'pronouns'],
  ...['role', 'title', 'job', 'job title', 'position'].map((field) => [field, 'role'] as const),
  ...['employer', 'company', 'org', 'work', 'works at'].map((field) => [field, 'employer'] as const),
  ['team', 'team'],
  ...['location', 'city', 'based in', 'home', 'loc'].map((field) => [field, 'location'] as const),
  ...['tz', 'timezone', 'time zone'].map((field) => [field, 'timezone'] as const),
  ...['editor', 'ide'].map((field) => [field, 'editor'] as const),
  ['shell', 'shell'],
  ...['os', 'operating system', 'system', 'distro'].map((field) => [field, 'os'] as const),
  ...['langs', 'lang', 'languages', 'language'].map((field) => [field, 'languages'] as const),
  ...['frameworks', 'framework'].map((field) => [field, 'frameworks'] as const),
  ...['package manager', 'pm', 'pkg manager'].map((field) => [field, 'package_manager'] as const),
  ...['tests', 'test framework', 'test runner', 'testing'].map((field) => [field, 'test_framework'] as const),
  ['diet', 'diet'],
]);
/** Fields only a person has: a config file may set an editor and a shell, never pronouns or an employer. */
const personOnly = new Set(['name', 'pronouns', 'role', 'employer', 'team', 'location', 'timezone', 'diet']);

/** The owner's heading over a block: "my profile, for whatever you keep:", "About me:", "my setup (keep this):". */
const ownHeading =
  /^\s*(?:(?:here(?:'s| is)|this is)\s+)?(?:my\s+(?:own\s+|dev\s+|developer\s+|personal\s+)?(?:profile|setup|details|info|defaults|bio|stack)|about me|me)\b(?![^:\n]*\b(?:from|of|his|her|their|someone|candidate|colleague|\p{L}+['’]s)\b)[^:\n]{0,40}:\s*$/iu;
/** A claim beside key=value pairs that they are the owner's. */
const claim = /\b(?:that['’]?s me|this is me|that is me|(?:that['’]?s|these are|here(?:'s| are)) my (?:details|info|profile|fields)|about me|save (?:it|this|that|them|these)|remember (?:it|this|that|me|them|these)|keep (?:it|this|that|them|these))\b/i;
/** A block made up, for a fixture, a demo or a character, is nobody's. */
const madeUp = /\b(?:mock|fake|sample|example|placeholder|dummy|template|persona|character|fictional|made[- ]up|test data|lorem|pretend|role-?play|seed|fixture)\b/i;

const fieldLine = /^\s+([\p{L} ]{1,20}?)\s*[:=]\s*(\S.*?)\s*$/u;
const pair = /^\s*([\p{L} ]{1,20}?)\s*=\s*(\S.*?)\s*$/u;

/** The facts one field gives, or undefined when its name is no person's field. */
function fieldFacts(field: string, value: string): Candidate[] | undefined {
  const key = fieldKeys.get(field.trim().toLowerCase());
  if (!key) return undefined;
  if (key === 'timezone') {
    const zone = timezoneIn(value);
    return zone ? [{ key, value: zone, tier: 'B' }] : [];
  }
  // "langs: rust, zig": under a field of languages, a language written in lower case is one even when it is a word too.
  const words = key === 'languages' || key === 'frameworks' ? value.replace(/(^|[,;/]\s*)(\p{Ll})/gu, (_, before: string, letter: string) => before + letter.toUpperCase()) : value;
  return fieldValues(key, words.replace(/[.!]+$/, '')).map((fact) => ({ ...fact, tier: 'B' as const }));
}

/** Facts of the fields given, when every one is a person's field and, for pairs, one of them is a person's alone. */
function readFields(fields: readonly (readonly [string, string])[], needPersonOnly: boolean): Candidate[] {
  if (fields.length < 2) return [];
  const read = fields.map(([field, value]) => fieldFacts(field, value));
  if (read.some((facts) => facts === undefined)) return [];
  if (needPersonOnly && !fields.some(([field]) => personOnly.has(fieldKeys.get(field.trim().toLowerCase()) ?? ''))) return [];
  return read.flatMap((facts) => facts ?? []);
}

/** The indented field lines under the owner's heading. */
function blockUnderHeading(lines: readonly string[]): Candidate[] {
  for (let i = 0; i < lines.length - 1; i++) {
    if (!ownHeading.test(lines[i])) continue;
    const fields: [string, string][] = [];
    for (let j = i + 1; j < lines.length; j++) {
      const field = fieldLine.exec(lines[j]);
      if (!field) break;
      fields.push([field[1], field[2]]);
    }
    const found = readFields(fields, false);
    if (found.length > 0) return found;
  }
  return [];
}

/** "name=Sunil; role=platform engineer; tz=IST – that's me": the pairs of a line the owner claims. */
function claimedPairs(lines: readonly string[]): Candidate[] {
  for (const line of lines) {
    if (!/=/.test(line) || !claim.test(line)) continue;
    // The claim on either side of the pairs: "… – that's me, save it", "this is me: name=…".
    const said = claim.exec(line)!;
    const before = said.index > line.indexOf('=');
    const pairs = (before ? line.slice(0, said.index) : line.slice(said.index + said[0].length)).replace(/^[\s:,;–—-]+|[\s,;:–—-]+$/gu, '');
    const fields = pairs.split(/\s*[;,]\s*|\s+(?=[\p{L}]+=)/u).map((part) => pair.exec(part));
    if (fields.some((field) => !field)) continue;
    const found = readFields(fields.map((field) => [field![1], field![2]] as const), true);
    if (found.length > 0) return found;
  }
  return [];
}

/** The facts of fields the owner claims in the message, if it has any. */
export function claimedFieldCandidates(message: string): Candidate[] {
  if (madeUp.test(message)) return [];
  const lines = message.split(/\r?\n/);
  const block = blockUnderHeading(lines);
  return block.length > 0 ? block : claimedPairs(lines);
}
