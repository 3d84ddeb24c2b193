import type { Candidate } from './candidate';
import { compiled } from './compiledPatterns';
import { properNoun, roleNouns, titleWord } from './slotPatterns';
import { timezoneIn } from './timezones';
import { isRegionName, lexiconTag } from './wordTagger';

/**
 * A signature the owner declares as their own: "Use this as my sign-off from now on:", "Please end every email draft
 * with:", "^ that's my manager's signature. Mine would be: Ravi Menon, Senior Data Engineer, Analytics Platform." The
 * lines after such a lead-in are the owner's name, title, team, company and place, written the way signatures are
 * (one field a line, or fields set apart by "|", "·" or commas). pastedText.ts blanks them as a letter's closing, so
 * they are read here from the message itself, and only after a lead-in that says whose they are. Every fact is asked
 * about (tier B): a signature is a template the owner wants used, not a sentence saying the facts.
 */

const signatureWord = String.raw`(?:sign-?off|signature|sig|e-?mail footer)`;
const signatureAdjective = String.raw`(?:(?:e-?mail|mail|default|new|usual|standard|work|official|proper)\s+)*`;
/** What may stand between the lead-in and its colon: when, where and how politely, nothing about a problem. */
const leadGap = String.raw`(?:\s*,?\s*(?:from now on|going forward|for now on|for (?:all |my )?(?:e-?mails?|mails?|drafts?|letters?|replies|messages)|in (?:e-?mails?|drafts?|replies)|please|pls|thanks|then|below))*\s*:`;
const leadIns: readonly RegExp[] = [
  compiled(String.raw`\b(?:use|make|set|save|keep|take|treat|store|remember|add)\s+(?:this|these|that|the following|it)\s+(?:lines?\s+)?as\s+my\s+${signatureAdjective}${signatureWord}${leadGap}`, 'i'),
  compiled(String.raw`(?:^|[.!]\s+|\n)\s*my\s+${signatureAdjective}${signatureWord}\s*(?:is|should be|would be|will be|reads|goes)?${leadGap}`, 'i'),
  compiled(String.raw`\b(?:use|add|put)\s+(?:this|the following)\s+${signatureWord}\s+(?:for|in|on|at the end of|under)\s+(?:all\s+|every\s+|each\s+)?(?:of\s+)?my\s+(?:e-?mails?|mails?|drafts?|messages|letters|replies)${leadGap}`, 'i'),
  compiled(String.raw`\b(?:end|sign|close|finish|sign off)\s+(?:every|each|all|all of)?\s*(?:my\s+)?(?:e-?mail|mail|message|letter|draft|reply|replies|response)s?(?:\s+drafts?)?\s+(?:off\s+)?(?:with|as)${leadGap}`, 'i'),
];
/** "Mine would be:" says whose only where the message is already about signatures (someone else's, just above). */
const mineLeadIn = compiled(String.raw`(?:^|[.!]\s+|\n)\s*(?:mine|my own)\s+(?:is|would be|should be|will be|reads)${leadGap}`, 'i');
const aboutSignatures = compiled(String.raw`\b${signatureWord}s?\b`, 'i');
/** A signature made up, for a template, a demo or a character, is nobody's. */
const madeUp = /\b(?:mock|fake|sample|example|placeholder|dummy|template|persona|character|fictional|made[- ]up|test data|lorem|pretend|role-?play)\b/i;

const separatorLine = /^(?:--|—|–|-- ?|_{2,}|-{3,})$/;
const closingWord = /^(?:thanks|thank you|thx|cheers|best|regards|kind regards|best regards|warm regards|many thanks|sincerely|all the best|talk soon|br)\b[^\n]{0,12}$/i;
/** Phone numbers, addresses to write to, links: a signature's contact lines say nothing capture keeps. */
const contactLine = /^(?:(?:[mtpfe]|mob(?:ile)?|tel|phone|cell|e-?mail|web|w)\s*[:.]|\+?\d[\d\s().-]{5,}$)|\S@\S|https?:|www\./i;
const nameLine = /^\p{Lu}[\p{Ll}'’-]+(?:\s+(?:(?:de|da|do|dos|del|di|du|van|von|der|den|le|la|bin|al|ní|nic|ó|mac|mc)\s+)*\p{Lu}[\p{L}'’-]+){0,3}$/u;
const pronounPair = /^(?:she|he|they|xe|ze)\/(?:her|him|them|they|she|he|xem|zir|hers|his|theirs)$/i;
const roleSegment = compiled(String.raw`^((?:${titleWord}){0,3}?${roleNouns}(?:\s+(?:of|for)\s+[\p{L}]+(?:\s[\p{L}]+)?)?)$`, 'iu');
const headOfSegment = /^(?:head|director|vp|vice president)\s+of\s+[\p{L}]+(?:\s[\p{L}]+)?$/iu;
const roleAtCompany = /^(.+?)\s+(?:@|at)\s+(\p{Lu}[^\n]*)$/u;
const placeTags = new Set(['City', 'Country', 'Region', 'Place', 'Province']);

/** "Senior Data Engineer" is a title written as signatures write them: proposed in the owner's sentence case ("senior data engineer", "staff SRE"). */
function sentenceCase(role: string): string {
  return role.replace(/\p{Lu}\p{Ll}+/gu, (word) => word.toLowerCase());
}

function isPlace(segment: string): boolean {
  const parts = segment.split(/\s*,\s*/);
  return parts.length <= 2 && parts.every((part) => placeTags.has(lexiconTag(part) ?? '') || isRegionName(part));
}

/** Fields of one line: "Staff SRE · Reliability · Corrib Cloud", "Shamrock Pay, Cork"; a city with its country stays one. */
function segmentsOf(line: string): string[] {
  const parts = line.split(/\s*(?:\||·|•|,|;|\s[—–-]\s)\s*/).map((part) => part.replace(/[.!]+$/, '').trim()).filter(Boolean);
  const joined: string[] = [];
  for (const part of parts) {
    const last = joined[joined.length - 1];
    if (last !== undefined && isRegionName(part) && placeTags.has(lexiconTag(last) ?? '') && !last.includes(',')) joined[joined.length - 1] = `${last}, ${part}`;
    else joined.push(part);
  }
  return joined;
}

/**
 * The facts of a signature's lines: the name first, then the title line (its role, then the team and the company
 * after it), then the company and the place; pronouns and a time zone wherever they stand. Nothing when the first line
 * is no name.
 */
export function signatureFacts(lines: readonly string[]): Candidate[] {
  const kept = lines.map((line) => line.trim()).filter((line) => line && !separatorLine.test(line));
  while (kept.length > 0 && closingWord.test(kept[0])) kept.shift();
  if (kept.length === 0) return [];
  const [written, ...others] = kept;
  // "Helena Sørensen (she/her)": what the name line holds in parentheses is a field of its own.
  const aside = /^(.*?)\s*\(([^)\n]{1,40})\)\s*$/.exec(written);
  const first = aside ? `${aside[1]}, ${aside[2]}` : written;
  const [name, ...onNameLine] = segmentsOf(first);
  if (!name || !nameLine.test(name)) return [];
  const facts: Candidate[] = [{ key: 'name', value: name, tier: 'B' }];
  const has = (key: string): boolean => facts.some((fact) => fact.key === key);
  const add = (key: string, value: string | undefined): void => {
    if (value && !has(key)) facts.push({ key, value, tier: 'B' });
  };
  const rows = onNameLine.length > 0 ? [onNameLine, ...others.map(segmentsOf)] : others.map(segmentsOf);
  for (const [n, row] of rows.entries()) {
    if (n >= 4) break;
    if (row.some((segment) => contactLine.test(segment))) continue;
    let afterRole = 0;
    for (const segment of row) {
      const zone = timezoneIn(segment);
      if (pronounPair.test(segment)) add('pronouns', segment.toLowerCase());
      else if (zone && zone === segment.trim().toUpperCase()) add('timezone', zone);
      else if (!has('role') && (roleSegment.test(segment) || headOfSegment.test(segment))) {
        add('role', sentenceCase(segment));
        afterRole = 1;
      } else if (!has('role') && roleAtCompany.exec(segment) && roleSegment.test(roleAtCompany.exec(segment)![1])) {
        // "Senior Data Engineer @ Meridian": the role and its company in one field.
        const [, role, company] = roleAtCompany.exec(segment)!;
        add('role', sentenceCase(role));
        add('employer', properNoun(company, 4));
        afterRole = 2;
      } else if (isPlace(segment)) add('location', segment);
      else if (!/^\p{Lu}/u.test(segment)) continue;
      // On the title line the field after the role is the team and the next the company ("Staff SRE · Reliability · Corrib Cloud").
      else if (afterRole === 1 && !has('team')) {
        add('team', properNoun(segment, 3));
        afterRole = 2;
      } else if (!has('employer')) add('employer', properNoun(segment, 4));
      // "Shamrock Pay, Cork": the field after the company, on its line, is where it is.
      else if (!has('location') && row.length > 1 && /^\p{Lu}[\p{Ll}'’-]+(?:\s\p{Lu}[\p{Ll}'’-]+)?$/u.test(segment)) add('location', segment);
    }
  }
  return facts;
}

/** The lines a lead-in introduces: the rest of its sentence when it goes on, otherwise the paragraph under it. */
function introduced(message: string, end: number): string[] {
  const inline = message.slice(end).split('\n')[0].split(/(?<=[^\s.])\.\s+(?=\p{Lu})/u)[0].trim();
  if (inline) return [inline];
  const paragraphs = message.slice(end).replace(/^[ \t]*\n(?:[ \t]*\n)*/, '').split(/\n[ \t]*\n/);
  // "--" and "Cheers," may stand apart from the name by a blank line.
  const block: string[] = [];
  for (const paragraph of paragraphs) {
    block.push(...paragraph.split('\n'));
    if (!paragraph.split('\n').every((line) => separatorLine.test(line.trim()) || closingWord.test(line.trim()))) break;
  }
  return block.slice(0, 8);
}

/** The facts of a signature the owner declares theirs in the message, if it has one. */
export function declaredSignatureCandidates(message: string): Candidate[] {
  if (madeUp.test(message)) return [];
  let lead = leadIns.map((pattern) => pattern.exec(message)).find(Boolean);
  if (!lead && aboutSignatures.test(message)) lead = mineLeadIn.exec(message);
  if (!lead) return [];
  return signatureFacts(introduced(message, lead.index + lead[0].length));
}
