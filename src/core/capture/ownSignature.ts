import type { Candidate } from './candidate';
import { properNoun, roleNouns, titleWord } from './slotPatterns';
import { compiled } from './compiledPatterns';
import { timezoneIn } from './timezones';
import { declaredSignatureCandidates, signatureFacts } from './declaredSignature';

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

/** A message about a letter (one to answer, to polish, to pass on): a sign-off in it may be the letter's. */
const aboutALetter = /\b(?:reply|respond|e-?mail|mail|letter|wrote|forward(?:ed)?|draft|proofread|translate|summari[sz]e|rewrite|polish|newsletter|cover letter)\b/i;
/** A greeting on a line of its own anywhere: a letter is inside the message. */
const greetingInside = /^\s*(?:hi|hello|hey|dear|hallo|hola|olá|oi|bonjour|ciao)\s+[\p{L}'-]+(?:\s[\p{L}'-]+)?\s*[,!]/imu;
const thanksLine = /^\s*(?:thanks|thank you|thx|ta|cheers|best|regards|kind regards|best regards|many thanks)\b[^\n]{0,20}?[,!.]?\s*$/i;
const nameLine = /^\s*(\p{Lu}[\p{Ll}'’-]+(?:\s\p{Lu}[\p{Ll}'’-]+)?)\s*(?:\(([^)\n]{1,40})\))?\s*$/u;

/** A sign-off read: the name, what follows it in parentheses, and the rest of its line (a role at a company). */
type SignOff = { readonly name: string; readonly aside?: string; readonly rest?: string };

/**
 * "cheers,\nSam (they/them)", "Thanks!\nOlu", "--\nMarta Kowalska\nSenior Frontend Engineer, Allegro": the same sign-off
 * written as a letter's closing lines, at the end of a message that is not about a letter.
 */
function closingLines(text: string): SignOff | undefined {
  const lines = text.split('\n').map((line) => line.trim()).filter(Boolean).slice(-3);
  const [before, nameOrTitle, last] = lines.length === 3 ? lines : [undefined, ...lines];
  if (last === undefined || nameOrTitle === undefined) return undefined;
  const named = nameLine.exec(last);
  if (named && thanksLine.test(nameOrTitle)) return { name: named[1], aside: named[2] };
  const titled = nameLine.exec(nameOrTitle);
  const closed = before === '--' || before === '—' || (before !== undefined && thanksLine.test(before));
  return titled && closed && /,/.test(last) ? { name: titled[1], aside: titled[2], rest: last } : undefined;
}

function dashSignOff(text: string): SignOff | undefined {
  const signed = dashSignature.exec(text.slice(-140));
  return signed ? { name: signed[1], aside: signed[2], rest: signed[3] } : undefined;
}

/** The facts of the owner's own sign-off, if the message ends with one. */
export function ownSignatureCandidates(message: string): Candidate[] {
  // "Use this as my sign-off:", "Mine would be: …": a signature declared the owner's, whatever the message is about.
  const declared = declaredSignatureCandidates(message);
  if (declared.length > 0) return declared;
  const text = message.trimEnd();
  // "This is my colleague's signature", "write a sign-off for my boss": a signature spoken of, and not declared the owner's, is someone else's.
  if (/\b(?:sign-?offs?|signatures?)\b/i.test(text) || letterOpening.test(text) || aboutALetter.test(text) || greetingInside.test(text)) return [];
  // "--" over four lines or more (name, title, company, place): a full signature block, read field by field.
  const block = /\n[ \t]*--[ \t]*\n((?:[^\n]+\n){2,5}[^\n]+)$/.exec(text);
  if (block) return signatureFacts(block[1].split('\n'));
  const signed = dashSignOff(text) ?? closingLines(text);
  if (!signed) return [];
  const { name, aside, rest } = signed;
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
