import type { Candidate } from './candidate';
import { frameFiles, isKnownToolName, isPlaceName, slotValue } from './frames';
import { roleNouns, titleWord } from './slotPatterns';
import { replacementAfter, retirementIn, type Retirement } from './retirementFrames';
import { toolsIn } from './passingShapes';
import { closedGate } from './gates';
import { ownWords } from './pastedText';
import { splitSentences } from './wordTagger';

export type { Retirement } from './retirementFrames';

/** Contractions and the commonest spellings of "I" written out, as the frames expect them. */
function plain(clause: string): string {
  return clause
    .replace(/^\s*(?:and|but|so|also|btw|actually|oh|well|anyway|yeah|no)\b[\s,]*/i, '')
    .replace(/\b(?:i['’]m|im)\b/gi, 'i am')
    .replace(/\bi['’]ve\b/gi, 'i have')
    .replace(/\b(?:don['’]t|dont)\b/gi, 'do not')
    .replace(/\bany more\b/gi, 'anymore')
    // "Switched from bash to zsh", "Dropped Jest for Vitest", "Left the Checkout team", "gave up on fish": a diary's
    // change leaves out its "I".
    .replace(/^(?=(?:switched|moved|migrated|dropped|ditched|swapped|replaced|left|quit|gave up|stopped using) )/i, 'i ')
    // "Not a manager anymore": a diary's "I am" too.
    .replace(/^(?=(?:no longer|not) an? [\p{L}-]+(?: [\p{L}-]+){0,2} anymore\b)/iu, 'i am ')
    .trim();
}

/**
 * What the owner says is no longer true, in their own words and any language of the frame files: "I left Northwind last
 * month", "I'm not at Globex any more", "I no longer use Vim", "ich bin nicht mehr bei SAP". Read whether or not the
 * assistant voiced the belief: the owner's own retirement frame is a first-party statement. The gates that close on a
 * whole message close here too, and pasted text is never the owner's; a question or a condition retires nothing.
 */
export function retirementsIn(role: 'user' | 'assistant', text: string): Retirement[] {
  if (closedGate(role, text)) return [];
  return retirementsOf(ownWords(text).text, splitSentences);
}

/** The retirements in the owner's own words, already past the gates, split into sentences by `sentences`. */
function retirementsOf(ownText: string, sentences: (line: string) => string[]): Retirement[] {
  const found: Retirement[] = [];
  for (const line of ownText.split('\n')) {
    for (const sentence of sentences(line)) {
      const parts = sentence.split(/\s*[,;:—–]\s*|\s+(?:and|but|so|y|e|et|en|und|i|ve)\s+(?=i\b|ich\b|je\b|j'|ik\b|ya\b|no\b|não\b|non\b|nie\b)/iu);
      parts.forEach((part, i) => {
        const clause = plain(part).replace(/[.!]+$/, '');
        if (!clause || /\?\s*$/.test(clause)) return;
        for (const file of frameFiles) {
          const said = retirementIn(clause, file.language);
          // A role is no name ("I'm no longer a manager"): its frame has read it as one.
          if (said && (said.key === 'role' || writtenAsAName(said.old, clause))) {
            if (!found.some((known) => known.old.toLowerCase() === said.old.toLowerCase())) found.push(withReplacementAfter(said, parts[i + 1]));
            break;
          }
        }
      });
    }
  }
  return found;
}

/**
 * A name is written as one ("I left Northwind"); "I left my keys", "ahora estoy en casa" name nothing the memory holds.
 * An inflected name is written with another ending ("z Javy" for Java): its stem is what the owner typed.
 */
function writtenAsAName(value: string, clause: string): boolean {
  const lower = clause.toLowerCase();
  const at = Math.max(lower.indexOf(value.toLowerCase()), lower.indexOf(value.toLowerCase().slice(0, Math.max(3, value.length - 2))));
  return at >= 0 && (/\p{Lu}/u.test(clause[at]) || isKnownToolName(value));
}

/** "Saí da Jabuti Tech, agora estou na Sabiá Cloud": a retirement's replacement may come in the clause after it. */
function withReplacementAfter(said: Retirement, next: string | undefined): Retirement {
  if (said.replacement || next === undefined || /\?\s*$/.test(next)) return said;
  const clause = plain(next).replace(/[.!]+$/, '');
  const after = replacementAfter(clause, said.language, said.key === 'location' || isPlaceName(said.old));
  if (!after || !writtenAsAName(after.value, clause)) return said;
  // The words of the clause after name the new value's key where they name one ("Ya no vivo en Quito, ahora trabajo
  // para Globant" names an employer); else it is the retired one's ("I left the Core team; I'm on DevEx now").
  return { ...said, replacement: after.value, ...(after.key ? { key: after.key } : {}) };
}

/**
 * What a retirement names in the old value's place, under its key ("ich bin von Jest zu Vitest gewechselt" proposes
 * Vitest as the test framework): the value that fills the emptied slot, for the owner to confirm. The key is the
 * frame's when it names one, else the one the lists of names or the lexicon give the value.
 */
export function replacementsIn(ownText: string): { readonly retired: Retirement; readonly candidate: Candidate }[] {
  const found: { retired: Retirement; candidate: Candidate }[] = [];
  // Capture has passed the gates and taken the owner's words already; a full stop is enough to split them here.
  for (const retired of retirementsOf(ownText, (line) => line.split(/(?<=[.!?])\s+/))) {
    const replacement = retired.replacement ?? '';
    const tool = replacement ? toolsIn(replacement).find((candidate) => candidate.value.toLowerCase() === replacement.toLowerCase()) : undefined;
    // "Ya no vivo en Quito, ahora uso Linux": a tool's name is no place and no employer, whatever the retirement's key.
    const retiredKey = tool && ['location', 'employer'].includes(retired.key ?? '') ? undefined : retired.key;
    const key = replacement ? (retiredKey ?? tool?.key ?? (isPlaceName(replacement) ? 'location' : undefined)) : undefined;
    // "I've stopped using zsh, I'm back on bash": a tool's name is kept as its key's list writes it (the shell, not Bash).
    if (key) found.push({ retired, candidate: { key, value: tool && tool.key === key ? tool.value : replacement, tier: 'B' } });
    else {
      // "gave up on fish, back to plain bash": words after the retirement that name no value of a key ("plain") leave
      // the tool named in the old one's place to be read.
      const following = retired.key === 'role' ? roleInOldsPlace(ownText, retired.old) : toolInOldsPlace(ownText, retired.old);
      if (following) found.push({ retired, candidate: following });
    }
  }
  return found;
}

/**
 * "I no longer use Atom, it's Zed now", "I stopped using zsh, plain bash is enough for me", "I no longer use Windows at
 * all. Fully on Linux now.": the one tool of the retired one's key named after it, in its sentence or the next, took its
 * place. Only a tool's name (the lists decide its key), only when the retired value is a tool of that key too, and not
 * where the words after it ask, doubt, deny or speak of someone else ("…because my team uses bash", "maybe Fish?").
 */
function toolInOldsPlace(ownText: string, old: string): Candidate | undefined {
  const at = ownText.toLowerCase().indexOf(old.toLowerCase());
  if (at < 0) return undefined;
  const oldKey = toolsIn(old).find((candidate) => candidate.value.toLowerCase() === old.toLowerCase())?.key;
  if (!oldKey) return undefined;
  const window = ownText.slice(at + old.length).split(/(?<=[.!?])\s+|\n/).slice(0, 2).join(' ');
  if (/\?/.test(window) || notTheOwnersNow.test(window)) return undefined;
  const named = toolsIn(window).filter((candidate) => candidate.key === oldKey && candidate.value.toLowerCase() !== old.toLowerCase());
  const distinct = new Set(named.map((candidate) => candidate.value.toLowerCase()));
  return distinct.size === 1 ? { key: oldKey, value: named[0].value, tier: 'B' } : undefined;
}

/**
 * "I'm no longer a manager – stepped back to IC, senior engineer again", "I'm no longer a manager. Back to IC work as a
 * staff engineer.": the one job title named after a role's retirement, in its sentence or the next, "again" or "now"
 * after a break, or "as" one, took its place; not where the words after it ask, doubt, deny or speak of someone else.
 */
function roleInOldsPlace(ownText: string, old: string): Candidate | undefined {
  const at = ownText.toLowerCase().indexOf(old.toLowerCase());
  if (at < 0) return undefined;
  const window = ownText.slice(at + old.length).split(/(?<=[.!?])\s+|\n/).slice(0, 2).join(' ');
  if (/\?/.test(window) || notTheOwnersNow.test(window)) return undefined;
  const title = String.raw`((?:${titleWord}){0,3}?${roleNouns})`;
  const named = [...window.matchAll(new RegExp(String.raw`(?:^|[,;:.—–]|\s-)\s*${title}\s+(?:again|now)\b|\bas an?\s+${title}\b`, 'giu'))]
    .map((match) => slotValue('role', match[1] ?? match[2]))
    .filter((role): role is string => !!role && role.toLowerCase() !== old.toLowerCase());
  return new Set(named.map((role) => role.toLowerCase())).size === 1 ? { key: 'role', value: named[0], tier: 'B' } : undefined;
}

/** Words after a retirement that make the tool they name not the owner's present one. */
const notTheOwnersNow =
  /\b(?:not|no|never|nor|neither|used to|was|were|if|maybe|might|would|should|could|considering|thinking|trying|try|tried|team|colleagues?|they|he|she|we|our|their|his|her|everyone|people|boss|client|nicht|kein\w*|nunca|não|non|nie|niet|geen|jamais|pas)\b/i;
