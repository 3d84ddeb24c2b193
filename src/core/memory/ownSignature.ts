import type { Candidate } from './slotPatterns';
import { properNoun, roleNouns, titleWord } from './slotPatterns';
import { compiled } from './compiledPatterns';
import { timezoneIn } from './timezones';

/**
 * The owner's own sign-off at the end of their message ("— Tom, SRE @ Datadog", "— Ren (she/they) · backend eng @
 * Linear", "— Kofi (Accra, GMT)"). A pasted letter's signature is someone else's (pastedText.ts blanks it); this is
 * the last line of a message that opens with no letter of its own, set off by a dash the way people sign their own
 * notes. What it names is asked about, never confirmed (tier B).
 */
const dashSignature = /(?:^|\n)[ \t]*(?:—|–|--?)[ \t]*(\p{Lu}[\p{Ll}'’-]+(?:[ \t]\p{Lu}[\p{Ll}'’-]+)?)[ \t]*(?:\(([^)\n]{1,40})\))?[ \t]*(?:[,·|][ \t]*([^\n]{1,60}))?[ \t]*$/u;
/** A message that is a letter from the start (a greeting, headers) carries someone else's signature. */
const letterOpening = /^\s*(?:from|to|subject|date)\s*:|^\s*(?:hi|hello|hey|dear)\s+(?!there\b)\p{Lu}[\p{L}'-]*\s*[,!]|^\s*-{3,}\s*(?:forwarded|original)/iu;
const pronounPair = /^(?:she|he|they|xe|ze)\/(?:her|him|them|they|she|he|xem|zir|hers|his|theirs)$/i;

function roleAt(text: string): Candidate[] {
  const found = compiled(String.raw`^((?:${titleWord}){0,3}?${roleNouns})\b(?:\s*(?:@|at|,)\s*(\p{Lu}[\p{L}\d&.'’-]*(?:\s\p{Lu}[\p{L}\d&.'’-]*){0,2}))?`, 'iu').exec(text.trim());
  if (!found) return [];
  const candidates: Candidate[] = [{ key: 'role', value: found[1], tier: 'B' }];
  const employer = found[2] ? properNoun(found[2], 3) : undefined;
  if (employer) candidates.push({ key: 'employer', value: employer, tier: 'B' });
  return candidates;
}

/** The facts of the owner's own sign-off, if the message ends with one. */
export function ownSignatureCandidates(message: string): Candidate[] {
  const text = message.trimEnd();
  if (letterOpening.test(text)) return [];
  const signed = dashSignature.exec(text.slice(-140));
  if (!signed) return [];
  const [, name, aside, rest] = signed;
  const candidates: Candidate[] = [{ key: 'name', value: name, tier: 'B' }];
  for (const part of (aside ?? '').split(/\s*,\s*/).filter(Boolean)) {
    const zone = timezoneIn(part);
    if (pronounPair.test(part)) candidates.push({ key: 'pronouns', value: part.toLowerCase(), tier: 'B' });
    else if (zone) candidates.push({ key: 'timezone', value: zone, tier: 'B' });
    else if (/^\p{Lu}[\p{L}'’-]+(?:\s\p{Lu}[\p{L}'’-]+)?$/u.test(part)) candidates.push({ key: 'location', value: part, tier: 'B' });
  }
  if (rest) candidates.push(...roleAt(rest));
  return candidates;
}
