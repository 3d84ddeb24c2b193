import type { Candidate } from './candidate';
import { toolsIn } from './passingShapes';
import { timezoneIn } from './timezones';

/*
 * Corrections in the same breath: a single-valued key said twice with a word that takes the first back between ("I'm in
 * Lisbon — sorry, Porto"), read over the owner's whole text once every shape has spoken.
 */

/** Words that take back what was just said: "I'm in Lisbon — sorry, Porto", "Mocha — no, Jest". */
const takesBack = /(?:^|[\s,;—–-])(?:sorry(?!\s+(?:if|for|to|about|but|not sorry)\b)|no wait|no(?=\s*[,—–-])|er|erm|um|uh|well(?=\s*,)|actually|i mean|wait|ugh,? no|technically|scratch that|correction)\b[,:;—–.\s-]*/giu;

/**
 * A single-valued key said twice with a correction between ("I test with Mocha — no, Jest"): the later value is the
 * one meant. When the correction names a value no shape read, a known name after it for the same key stands in.
 */
export function correctedInPlace(candidates: Candidate[], ownText: string): Candidate[] {
  const lower = ownText.toLowerCase();
  let kept = candidates;
  for (const key of new Set(candidates.map((candidate) => candidate.key))) {
    const multi = key === 'languages' || key === 'frameworks' || key === 'style';
    const ofKey = kept.filter((candidate) => candidate.key === key);
    const first = ofKey[0];
    const at = lower.indexOf(first.value.toLowerCase());
    if (at < 0) continue;
    const end = at + first.value.length;
    takesBack.lastIndex = end;
    const correction = takesBack.exec(lower);
    // The correction follows the value at once, set off by a dash or a comma ("Lisbon — sorry, Porto").
    if (!correction || correction.index - end > 12 || !/[—–,;-]/.test(lower.slice(end, correction.index + 1))) continue;
    const after = ownText.slice(correction.index + correction[0].length);
    const later = ofKey.filter((candidate) => candidate !== first && after.toLowerCase().includes(candidate.value.toLowerCase()));
    // A multi key keeps its values unless the correction names another ("I prefer spaces — ugh, no, tabs").
    const named = later[0] ?? (multi ? undefined : correctionValue(key, after));
    if (!named) {
      // "I'm in Berlin — no, that's where the team is": taken back, with nothing in its place.
      if (!multi && /^(?:no|sorry|wait|scratch that)\b/i.test(correction[0].trim()) && /^that'?s\b|^not\b|^never ?mind\b|^that was\b/i.test(after.trim())) kept = kept.filter((candidate) => candidate !== first);
      continue;
    }
    kept = kept.filter((candidate) => candidate.key !== key || candidate === named);
    if (!kept.includes(named)) kept.push(named);
  }
  return kept;
}

/** The value a correction names right after its marker, for the keys whose values are known names or places. */
function correctionValue(key: string, after: string): Candidate | undefined {
  const window = after.split(/[?]|[.!](?:\s|$)/)[0].slice(0, 50);
  const tool = toolsIn(window).find((candidate) => candidate.key === key);
  if (tool) return tool;
  if (key === 'timezone') {
    const zone = window.split(/[\s,;—–]+/).map((word) => timezoneIn(word)).find(Boolean);
    return zone ? { key, value: zone, tier: 'B' } : undefined;
  }
  const place = /(?:^|[\s,;—–])(?!I\b)(\p{Lu}[\p{L}'’-]+(?:\s\p{Lu}[\p{L}'’-]+)?)/u.exec(window.replace(/^(?:it'?s|i'?m|i am|i use|on|in)\s+/i, ''));
  if (place && (key === 'location' || key === 'employer' || key === 'name')) return { key, value: place[1], tier: 'B' };
  if (key === 'location' || key === 'employer' || key === 'name') return lowerCaseCorrection(key, window);
  return undefined;
}

/**
 * "i work at kestrel ai, wait no, kestrel robotics", "my name is jon – sorry, john with an h": typed in lower case, the
 * value a correction names is its first words, up to a comma or a word that is no part of a name, written with capitals
 * as the first value was. A correction that names nothing ("no, that's where the team is") gives none.
 */
function lowerCaseCorrection(key: string, window: string): Candidate | undefined {
  if (window !== window.toLowerCase()) return undefined;
  const lead = window.replace(/^(?:\s*(?:no|sorry|i mean|wait|it'?s|i'?m|i am|i work at|at|in|on)\b[\s,:;—–-]*)+/i, '').split(/[,;:.!?()—–]|\s-\s/)[0].trim().split(/\s+/);
  const words: string[] = [];
  for (const word of lead) {
    if (!/^\p{Ll}[\p{Ll}'’-]*$/u.test(word) || notPartOfName.test(word)) break;
    words.push(word);
  }
  const most = key === 'name' ? 2 : 3;
  if (words.length === 0 || words.length > most || words.length < lead.length && key !== 'name' && !notPartOfName.test(lead[words.length] ?? '')) return undefined;
  return { key, value: words.map((word) => word[0].toUpperCase() + word.slice(1)).join(' '), tier: 'B' };
}
const notPartOfName = /^(?:with|and|but|or|the|a|an|at|in|on|for|from|who|which|that|that'?s|this|it|is|was|not|never|nvm|nevermind|lol|btw|like|as|of|to|because|since|so|i|my|me|where|when|though|now|haha)$/i;
