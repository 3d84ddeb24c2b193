import { rules as secretlintRules } from '@secretlint/secretlint-rule-preset-recommend';
import { credentialRanges } from './credentialRules';
import { ownSecretPatterns } from './secretPatterns';

/**
 * Secrets never reach the disk: not as facts, not in the recorded conversation, not in ids. Provider tokens
 * are found by secretlint's recommended rule set (@secretlint/secretlint-rule-preset-recommend: AWS, GCP,
 * GitHub, GitLab, Slack, Stripe, OpenAI, Anthropic, npm, SendGrid, PEM keys, database URLs and more,
 * maintained as providers change their formats) and secretPatterns.ts (providers it lacks, auth headers, JWTs); the
 * credentials people name by hand (assignments, `.env` lines, flags, URLs, cookies, a random string beside a
 * credential word) by the generic rules of credentialRules.ts.
 */

export const secretMarker = '[secret removed]';

/** The part of secretlint's rule interface used here: a rule reports ranges of the text it was given. */
interface ScannerRule {
  readonly meta: { readonly id: string; readonly type?: string };
  create(context: ScannerContext, options: Record<string, unknown>): { file?: (source: ScannerSource) => unknown };
}
interface ScannerContext {
  createTranslator(): (messageId: string) => string;
  report(descriptor: { range: readonly [number, number] }): void;
  ignore(): void;
}
interface ScannerSource {
  readonly content: string;
  readonly filePath: string;
  readonly ext: string;
  readonly contentType: 'text';
}

/**
 * The scanners, each rule created once per text (a rule keeps no state between files). The comment filter is
 * left out: a `secretlint-disable` comment in pasted text must not let a secret through. AWS access key ids
 * are scanned too (secretlint leaves that off by default, fearing false alarms in code).
 */
const rules = (secretlintRules as unknown as ScannerRule[]).filter((rule) => rule.meta.type !== 'preset' && !rule.meta.id.endsWith('filter-comments'));
const ruleOptions = (id: string): Record<string, unknown> => (id.endsWith('-aws') ? { enableIDScanRule: true } : {});

/** Every [start, end) range of the text that holds a secret, merged and sorted. */
export function secretRanges(text: string): [number, number][] {
  if (text.length === 0) return [];
  const ranges: [number, number][] = [];
  const source: ScannerSource = { content: text, filePath: 'turn.txt', ext: '.txt', contentType: 'text' };
  for (const rule of rules) {
    const context: ScannerContext = {
      createTranslator: () => (messageId) => messageId,
      report: ({ range }) => ranges.push([range[0], range[1]]),
      ignore: () => undefined,
    };
    try {
      rule.create(context, ruleOptions(rule.meta.id)).file?.(source);
    } catch {
      // A rule that fails on odd input finds nothing; the patterns below still run.
    }
  }
  for (const pattern of ownSecretPatterns) {
    pattern.lastIndex = 0;
    for (const match of text.matchAll(pattern)) {
      if (match[0].length > 0) ranges.push([match.index, match.index + match[0].length]);
    }
  }
  ranges.push(...credentialRanges(text));
  // Text redacted before ("token is [secret removed]") stays as it is: the marker itself is never taken for a secret.
  const markers: [number, number][] = [];
  for (let at = text.indexOf(secretMarker); at >= 0; at = text.indexOf(secretMarker, at + 1)) markers.push([at, at + secretMarker.length]);
  const outsideMarkers = ranges.filter(([start, end]) => !markers.some(([from, to]) => start >= from && end <= to));
  return merge(outsideMarkers);
}

function merge(ranges: [number, number][]): [number, number][] {
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  return merged;
}

export function containsSecret(text: string): boolean {
  return secretRanges(text).length > 0;
}

/** The text with every secret replaced by a marker, so a conversation can be remembered without them. */
export function redactSecrets(text: string): string {
  const ranges = secretRanges(text);
  if (ranges.length === 0) return text;
  let out = '';
  let at = 0;
  for (const [start, end] of ranges) {
    out += text.slice(at, start) + secretMarker;
    at = end;
  }
  return out + text.slice(at);
}

/** A separator no secret pattern crosses: texts scanned together stay apart. */
const apart = '\n\u0000\n';

/**
 * redactSecrets over many texts (an import's batch): one scan of them all, then only the texts a range falls in are
 * redacted one by one, with the same result. Scanning each alone cost 400-500 µs a turn (every rule created per
 * text); together, 40.
 */
export function redactSecretsMany(texts: readonly string[]): string[] {
  const ranges = secretRanges(texts.join(apart));
  if (ranges.length === 0) return [...texts];
  const out = [...texts];
  let start = 0;
  let next = 0;
  for (let index = 0; index < texts.length; index++) {
    const end = start + texts[index].length;
    while (next < ranges.length && ranges[next][1] <= start) next++;
    if (next < ranges.length && ranges[next][0] < end) out[index] = redactSecrets(texts[index]);
    start = end + apart.length;
  }
  return out;
}

/** Redacts every string inside a JSON-like value (an operation about to be journaled). */
export function redactDeep<T>(value: T): T {
  // One scan over all the strings (kept apart by a separator no pattern crosses) decides whether any has a secret:
  // an operation such as a context report holds hundreds of short strings, and scanning each cost 15 ms a turn.
  // Most of them (fact ids, block reasons, the labels of the same recent turns) were in the last turn's report too:
  // a string found clean once is clean for good, so only the new ones are scanned.
  const strings: string[] = [];
  collectStrings(value, strings);
  const unseen = strings.filter((text) => !knownClean.has(text));
  if (unseen.length === 0) return value;
  if (!containsSecret(unseen.join(apart))) {
    rememberClean(unseen);
    return value;
  }
  return redactEach(value);
}

/** Strings already scanned and found clean, newest last; bounded so a long session does not grow it without end. */
const knownClean = new Set<string>();
const knownCleanLimit = 8192;
/** Long texts (a pasted file) are rarely seen twice and would make the set heavy: only short strings are kept. */
const knownCleanLength = 512;

function rememberClean(strings: readonly string[]): void {
  for (const text of strings) {
    if (text.length > knownCleanLength) continue;
    knownClean.delete(text);
    knownClean.add(text);
  }
  for (const oldest of knownClean) {
    if (knownClean.size <= knownCleanLimit) break;
    knownClean.delete(oldest);
  }
}

function collectStrings(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, into);
  else if (value && typeof value === 'object') for (const item of Object.values(value as Record<string, unknown>)) collectStrings(item, into);
}

function redactEach<T>(value: T): T {
  if (typeof value === 'string') return redactSecrets(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => redactEach(item)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, redactEach(item)])) as T;
  }
  return value;
}
