import { sentenceVerdict } from './clauseMood';
import { closedGate, type AllowedKeys } from './gates';
import { findKnown, knownFrameworks, knownLanguages, knownPackageManagers, knownTestFrameworks, caseSensitiveLanguages } from './knownNames';
import { ownWords } from './pastedText';
import type { Candidate } from './candidate';
import { splitSentences } from './wordTagger';

/**
 * Facts about the project the owner works in, from the owner's own words: the first person plural or a "here" / "in
 * this repo" shape ("we use vitest here", "this repo uses pnpm", "never edit generated/", "we build with `make`").
 * The same gates as the owner's facts close on the message first; then shapes stay narrow, because a wrong rule about
 * a repository misleads every later prompt in it. Tier A only for the plainest shape with a known value.
 */

export const knownFormatters = ['Prettier', 'Biome', 'Black', 'Ruff', 'gofmt', 'rustfmt', 'clang-format', 'dprint', 'yapf', 'autopep8', 'StandardJS'];

/** "here", "in this repo": what makes a first-person-plural sentence about this project. */
export const projectMarker = /\b(?:in this (?:repo|repository|project|codebase|code base|workspace|monorepo)|for this (?:repo|repository|project)|in here)\b|(?:^|\s)here[.!]?$/i;
const thisRepoSubject = /^(?:this|the) (?:repo|repository|project|codebase|monorepo) (?:uses|is using|runs on|is built with|is formatted with)\s+/i;
const weUse = /^(?:(?:here|in this (?:repo|repository|project|codebase)),?\s+)?we(?:'re| are)? (?:use|using|standardi[sz]ed on|went with|settled on|format with|format (?:our )?code with|run)\s+/i;
const negatedOrLater = /\b(?:not|don'?t|doesn'?t|never|no longer|used to|going to|gonna|plan(?:ning)? to|want to|should we|might|maybe|if)\b/i;
const commandStart = /^(?:npm|pnpm|yarn|bun|npx|make|cargo|go|python3?|pytest|gradle|\.\/gradlew|mvn|dotnet|just|deno|node|uv|poetry|tox|bazel|rake|bundle|mix|composer|ctest|cmake|\.\/[\w.-]+)\b/;

function one(key: string, value: string, tier: Candidate['tier']): Candidate[] {
  return [{ key, value, tier }];
}

/** What a used tool is: a test framework, a package manager, a formatter, a framework or a language. */
function toolCandidates(rest: string, tier: Candidate['tier']): Candidate[] {
  const head = rest.split(/\s+(?:for|because|since|but|and then|instead)\b|[,;]/i)[0];
  const kinds: [string, readonly string[], ReadonlySet<string>?][] = [
    ['test_framework', knownTestFrameworks], ['package_manager', knownPackageManagers], ['formatter', knownFormatters],
    ['frameworks', knownFrameworks], ['languages', knownLanguages, caseSensitiveLanguages],
  ];
  const found: Candidate[] = [];
  for (const [key, names, caseSensitive] of kinds) {
    for (const value of findKnown(head, names, caseSensitive)) if (!found.some((c) => c.value === value)) found.push({ key, value, tier });
  }
  return found;
}

/** A command as the owner wrote it: in backticks, or plain words that start like one ("npm run build"). */
function commandIn(text: string): { command: string; quoted: boolean } | undefined {
  const quoted = /`([^`\n]{1,80})`/.exec(text);
  if (quoted && commandStart.test(quoted[1].trim())) return { command: quoted[1].trim(), quoted: true };
  const plain = /((?:npm|pnpm|yarn|bun|npx|make|cargo|go|python3?|pytest|gradle|mvn|dotnet|just|deno|uv|poetry|tox|bazel)(?:\s+[\w:.@/=-]+){0,4})/.exec(text);
  return plain ? { command: plain[1].replace(/[.,;]+$/, ''), quoted: false } : undefined;
}

/** `typedLine` is the owner's line with its inline code: a command in backticks is read from it, nothing else. */
function sentenceCandidates(sentence: string, typedLine: string): Candidate[] {
  const plain = sentence.replace(/[.!]+$/, '').trim();
  const marked = projectMarker.test(plain);
  const build = /\b(?:we|you) build (?:it |this |the project )?(?:with|using|via)\b|\bthe build command is\b|\bto build (?:it|this),? (?:run|use)\b/i.test(plain);
  const test = /\b(?:we|you) (?:run (?:the |our )?tests|test) (?:it |this )?(?:with|using|via)\b|\bthe test command is\b|\bto run (?:the )?tests,? (?:run|use)\b/i.test(plain);
  if (build || test) {
    const found = commandIn(sentence) ?? (/`/.test(typedLine) ? commandIn(typedLine) : undefined);
    if (!found || negatedOrLater.test(plain)) return [];
    return one(build ? 'build_command' : 'test_command', found.command, found.quoted && (marked || /command is/i.test(plain)) ? 'A' : 'B');
  }
  const untouchable = /^(?:please )?(?:never|don'?t|do not|do not ever)\s+(?:edit|touch|modify|change|write to)\s+(?:anything in |files in |the )?`?([\w.@-]+(?:\/[\w.@-]*)*\/|[\w.@-]*\/[\w.@/-]+|\.[\w.-]+)`?/i.exec(plain);
  if (untouchable) return one('do_not_touch', untouchable[1], 'B');
  const indent = /^(?:we (?:use|indent with) )?(tabs|(?:2|4|two|four)[ -]space(?:s| indent(?:ation)?)?)(?: for indentation)?(?: (?:in this (?:repo|repository|project|codebase)|here))$/i.exec(plain);
  if (indent) return one('style_rules', /tab/i.test(indent[1]) ? 'indent with tabs' : `indent with ${/2|two/i.test(indent[1]) ? 2 : 4} spaces`, 'B');
  const decided = /^we (?:decided|agreed)(?: (?:to|that|on))?\s+(.{8,120})$/i.exec(plain);
  if (decided && !/\?$/.test(plain)) return one('decisions', decided[1].replace(/\s+(?:here|in this (?:repo|repository|project|codebase))$/i, ''), 'B');
  if (negatedOrLater.test(plain)) return [];
  const repoUses = thisRepoSubject.exec(plain);
  if (repoUses) return toolCandidates(plain.slice(repoUses[0].length), 'A');
  // "I use pnpm in this repo": about the repository, asked (the owner may mean a habit of their own).
  const mine = /^i(?:'m| am)? (?:use|using|run)\s+/i.exec(plain);
  if (mine && marked) return toolCandidates(plain.slice(mine[0].length).replace(projectMarker, ''), 'B');
  const we = weUse.exec(plain);
  if (we) return toolCandidates(plain.slice(we[0].length).replace(projectMarker, ''), marked || /^(?:here|in this)/i.test(plain) ? 'A' : 'B');
  return [];
}

/** From one message to the project facts it states, on the project keys only. */
export function captureProjectFacts(role: 'user' | 'assistant', text: string, allowlist: AllowedKeys): Candidate[] {
  if (closedGate(role, text)) return [];
  const own = ownWords(text);
  // ownWords blanks pasted lines and drops inline code; a command is read from the owner's own line as typed.
  const typed = text.split(/\r?\n/);
  const candidates: Candidate[] = [];
  own.text.split('\n').forEach((line, i) => {
    if (!line.trim() || !/\b(?:we|we're|our|i|here|this (?:repo|repository|project|codebase)|build|tests?|never|don'?t|do not|tabs|spaces?)\b/i.test(line)) return;
    for (const sentence of splitSentences(line)) {
      const verdict = sentenceVerdict(sentence);
      if (verdict.skip || verdict.question) continue;
      // "In this repo we use vitest for tests and the test command is pnpm test:unit": every key the sentence names.
      const parts = [sentence.trim(), ...sentence.split(/\s*[,;]\s*|\s+(?:and|plus|also)\s+(?=we\b|the\b|our\b|this\b|to\b|you\b|never\b|don'?t\b|do not\b|tabs\b|\d|two\b|four\b)/i).map((part) => part.trim())];
      const found = parts.length > 2 ? parts.flatMap((part) => sentenceCandidates(part, typed[i] ?? '')) : sentenceCandidates(sentence.trim(), typed[i] ?? '');
      for (const candidate of found) {
        if (!allowlist.has(candidate.key)) continue;
        const tier = own.pasted || verdict.weaker.length ? (candidate.tier === 'A' ? 'B' : candidate.tier) : candidate.tier;
        if (!candidates.some((c) => c.key === candidate.key && c.value.toLowerCase() === candidate.value.toLowerCase())) candidates.push({ ...candidate, tier });
      }
    }
  });
  return candidates;
}
