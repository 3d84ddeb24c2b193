import type { Candidate } from './candidate';
import { slotValue } from './frames';
import { toolsIn } from './passingShapes';

/**
 * Lists the owner writes about themselves under a heading of their own: "Languages I use: Python, Rust and Zig",
 * "Stack: React, Next.js; TypeScript; yarn; Playwright for tests", "Preferences: tabs not spaces, no semicolons",
 * "Bio for the tool: name Hiroshi Abe, role embedded engineer, editor CLion", "package manager: pnpm", "oh and also:
 * zsh, tmux, Helix". The heading says whose list it is and, for a field, which key; the items give the values. Every
 * value is asked about (tier B): a list is the owner's shorthand, and shorthand is Engram's to read, not to confirm.
 */

/** Headings of a list of tools and languages: the key of each item is the list of names it is on. */
const toolHeading =
  /^(?:my\s+)?(?:(?:tech\s+|current\s+|usual\s+|daily\s+)?(?:stack|setup|tools|toolbox|toolchain|tooling|kit|gear)|languages?(?:\s+i\s+(?:use|write|know|code\s+in|work\s+(?:in|with)))?|(?:programming\s+)?languages|frameworks?(?:\s+i\s+use)?|(?:and\s+|oh\s+and\s+)?also|(?:quick\s+)?facts|me|dev\s+profile)(?:,\s*(?:for the record|since you asked|fwiw|for context|as promised|if it helps|btw))?\s*:\s*(.+)$/i;
/** Headings of the owner's coding preferences: each item is one, as written. */
const styleHeading = /^(?:my\s+(?:own\s+)?)?(?:(?:code|coding)\s+)?(?:preferences|(?:code|coding)\s+style(?:\s+i\s+(?:like|prefer|use))?|style(?:\s+preferences)?|conventions|formatting)(?:,\s*(?:for the record|since you asked|fwiw|for context|as promised|if it helps|btw))?\s*:\s*(.+)$/i;
/** Headings of a profile written as "field value" pairs. */
const profileHeading = /^(?:(?:my\s+)?(?:bio|profile)(?:\s+for\s+[\p{L} ]{1,20})?|about\s+me|(?:quick\s+)?intro)\s*:\s*(.+)$/iu;

/** A field's words and its key, for a field that stands alone ("package manager: pnpm") or opens a profile item. */
const fields: readonly (readonly [RegExp, string])[] = [
  [/^(?:full\s+)?name\s+(?:is\s+)?/i, 'name'],
  [/^pronouns\s+/i, 'pronouns'],
  [/^(?:role|title|job(?:\s+title)?|position)\s+(?:is\s+)?/i, 'role'],
  [/^(?:employer|company|works?\s+(?:at|for))\s+(?:is\s+)?/i, 'employer'],
  [/^team\s+(?:is\s+)?/i, 'team'],
  [/^(?:location|city|based\s+in|lives?\s+in|home)\s+(?:is\s+)?/i, 'location'],
  [/^(?:time\s*zone|tz)\s+(?:is\s+)?/i, 'timezone'],
  [/^(?:programming\s+)?languages?\s+/i, 'languages'],
  [/^frameworks?\s+/i, 'frameworks'],
  [/^(?:editor|ide)\s+(?:is\s+)?/i, 'editor'],
  [/^shell\s+(?:is\s+)?/i, 'shell'],
  [/^(?:os|operating\s+system)\s+(?:is\s+)?/i, 'os'],
  [/^package\s+manager\s+(?:is\s+)?/i, 'package_manager'],
  [/^(?:tests?|test\s+(?:framework|runner)|testing)\s+(?:is\s+|with\s+)?/i, 'test_framework'],
];
/** A field heading of a tool's key alone on its line ("OS: Ubuntu 22.04", "tests: pytest"): the key's list reads its value. */
const fieldLine = /^(package\s+manager|tests?|test\s+(?:framework|runner)|testing|os|operating\s+system|editor|ide|shell)\s*:\s*(.+)$/i;

/** The values a field's words give for its key: every name on a multi key, the first one the key's reader takes on another. */
export function fieldValues(key: string, words: string): Candidate[] {
  if (key === 'languages' || key === 'frameworks' || key === 'editor' || key === 'shell' || key === 'os' || key === 'package_manager' || key === 'test_framework') {
    const found = toolsIn(words).filter((candidate) => candidate.key === key);
    return key === 'languages' || key === 'frameworks' ? found : found.slice(0, 1);
  }
  const value = slotValue(key, words);
  return value ? [{ key, value, tier: 'B' }] : [];
}

/** Items of a list: split at commas and semicolons, each trimmed of its end and of "and" before the last. */
function items(list: string): string[] {
  return list
    .split(/\s*[,;]\s*/)
    .map((item) => item.replace(/^(?:and|or|plus)\s+/i, '').replace(/[.!]+$/, '').trim())
    .filter(Boolean);
}

/** The tools a list names, each item only when it is a name or a name and the small words lists take ("Playwright for tests"). */
function toolItems(list: string, strict: boolean): Candidate[] | undefined {
  const parts = items(list).flatMap((item) => item.split(/\s+(?:and|&|\+|plus)\s+|\s*\/\s*/));
  const found: Candidate[] = [];
  let named = 0;
  for (const written of parts) {
    const part = hostOf(written);
    const tools = toolsIn(part);
    if (tools.length === 0) {
      // "also: zsh, tmux, Docker": a one-word item no list knows is still an item of the list; words are not.
      if (!strict || !/^[\p{L}\d.+#-]+$/u.test(part)) return undefined;
      continue;
    }
    // "Playwright for tests", "a bit of Lua": a name and the small words lists take; "I test with Playwright" is a
    // sentence, left to the sentence readers with the rest of its line.
    let rest = part;
    for (const tool of tools) rest = rest.replace(new RegExp(tool.value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i'), ' ');
    if (rest.replace(listGlue, ' ').trim() !== '') return undefined;
    named++;
    for (const tool of tools) if (!found.some((known) => known.key === tool.key && known.value === tool.value)) found.push({ ...tool, tier: 'B' });
  }
  return named >= (strict ? 2 : 1) ? found : undefined;
}

/**
 * "Quick facts: Windows (WSL for some stuff), VS Code, PowerShell, Scoop for packages", "Me: Elixir, Phoenix (LiveView
 * mostly), Emacs with doom, macOS": a heading this plain says only whose the list is, so the list itself must be mostly
 * tools; an aside in parentheses is the item's, and an item no list knows ("asdf for versions") is passed over.
 */
function looseToolItems(list: string): Candidate[] | undefined {
  const parts = items(list.replace(/\s*\([^)]*\)/g, ''));
  // "Emacs with doom", "Neovim on Arch", "fish in iTerm": the item's tool is its first name; what it runs with or on is an aside.
  const read = parts.map((part) => toolItems(part.replace(/\s+(?:with|for|on|in|as)\s+[\p{L}\s.-]{1,20}$/u, ''), false));
  const named = read.filter((found) => found !== undefined);
  if (named.length < 3 || named.length * 3 < parts.length * 2) return undefined;
  const found: Candidate[] = [];
  for (const tool of named.flat()) if (!found.some((known) => known.key === tool.key && known.value === tool.value)) found.push(tool);
  return found;
}

/** "Windows with WSL": a tool run inside another of its key is the host's add-on; the host is the value. */
function hostOf(part: string): string {
  const hosted = /^(.+?)\s+with\s+(.+)$/i.exec(part);
  if (!hosted) return part;
  const [host, inside] = [toolsIn(hosted[1]), toolsIn(hosted[2])];
  return host.length === 1 && inside.length > 0 && inside.every((tool) => tool.key === host[0].key) ? hosted[1] : part;
}

const listGlue = /\b(?:as (?:the|my) (?:default |usual |main )?(?:shell|editor|ide|os|terminal|package manager|test runner)|for|tests?|testing|e2e|packages?|a bit of|a little|some|mostly|mainly|only|daily|at work|on the side|for fun|v?\d+(?:\.\d+)*)\b|[.!()-]/gi;

const labelAfter = /^(.+?)[.!,]\s+(?:that['’]?s|thats|those are|these are)\s+(?:my|the)\s+(?:whole\s+|entire\s+)?(style|preferences|conventions|toolbox|stack|setup|tools)\b/i;

/** One style preference as the owner wrote it: a short phrase, not a sentence. */
function styleItems(list: string): Candidate[] {
  return items(list)
    .filter((item) => item.split(/\s+/).length <= 6 && !/^(?:i|we|you|it|this|that|please|can|could)\b/i.test(item) && !/\b(?:em|them|it)$/i.test(item))
    .map((item) => ({ key: 'style', value: withoutScope(withoutStress(item)), tier: 'B' as const }));
}

/** "no nested ternaries ever": the word that stresses a "no" is no part of the preference ("no nested ternaries"). */
function withoutStress(item: string): string {
  return item.replace(/^((?:no|never)\s.+?)\s+(?:ever|at all|whatsoever)$/i, '$1');
}

/** "single quotes in TypeScript": the language a preference is scoped to is its scope, not part of the preference. */
function withoutScope(item: string): string {
  const scoped = /^(.+?)\s+(?:in|for)\s+([\p{L}\d.+#-]+)$/u.exec(item);
  return scoped && toolsIn(scoped[2]).some((tool) => tool.key === 'languages' && tool.value.toLowerCase() === scoped[2].toLowerCase()) ? scoped[1] : item;
}

/** The facts one line of the owner's own text gives as a list under a heading, or nothing when it is no such line. */
export function fieldListCandidates(line: string): Candidate[] | undefined {
  const text = line.trim().replace(/^(?:[-*•]|\d{1,2}[.)])\s+/, '');
  // "zsh, tmux, Helix. that's the whole toolbox": the list ends where a sentence does.
  const [head] = text.split(/(?<=[^\s.])\.\s+(?=\p{L})/u);
  const field = fieldLine.exec(head);
  if (field) {
    const key = fields.find(([pattern]) => pattern.test(`${field[1]} `))?.[1];
    return key ? fieldValues(key, field[2]) : undefined;
  }
  // "2 spaces, single quotes, trailing commas. that's my style": the label after the list says whose it is.
  const labelled = labelAfter.exec(text);
  if (labelled) {
    const list = labelled[1].replace(/^[^:]{0,30}:\s*/, '').replace(/^(?:(?:fwiw|tbh|srsly|tho|so|ok|okay|anyway|btw|honestly)[\s,]+)+/i, '');
    const found = /^(?:style|preferences|conventions)$/i.test(labelled[2]) ? styleItems(list) : (toolItems(list, true) ?? []);
    return found.length > 0 ? found : undefined;
  }
  const style = styleHeading.exec(head);
  if (style) {
    const found = styleItems(style[1]);
    return found.length > 0 ? found : undefined;
  }
  const profile = profileHeading.exec(head);
  if (profile) {
    // Every item names its field ("name …, role …, editor …"); an introduction of bare values is the sentence readers'.
    const parts = items(profile[1]);
    const named = parts.map((item) => fields.find(([pattern]) => pattern.test(item)));
    if (parts.length < 2 || named.some((field) => !field)) return undefined;
    const found = parts.flatMap((item, i) => fieldValues(named[i]![1], item.replace(named[i]![0], '')));
    return found.length > 0 ? found : undefined;
  }
  const tools = toolHeading.exec(head);
  if (tools && /^(?:(?:quick\s+)?facts|me|dev\s+profile)\s*:/i.test(head)) return looseToolItems(tools[1]);
  if (tools) return toolItems(tools[1], /^(?:and\s+|oh\s+and\s+)?also\b/i.test(head));
  return undefined;
}

/**
 * The facts of every list line in the owner's text, and the text without the lists they read (what is left of a line
 * after its list, "Editor: RStudio, no wait, Positron now", goes on to the sentence readers).
 */
export function withFieldLists(ownText: string): { candidates: Candidate[]; rest: string } {
  const candidates: Candidate[] = [];
  const rest = ownText
    .split('\n')
    .map((line) => {
      const found = fieldListCandidates(line);
      if (!found || found.length === 0) return line;
      for (const candidate of found) if (!candidates.some((known) => known.key === candidate.key && known.value.toLowerCase() === candidate.value.toLowerCase())) candidates.push(candidate);
      const text = line.trim().replace(/^(?:[-*•]|\d{1,2}[.)])\s+/, '');
      if (labelAfter.test(text)) return '';
      const head = text.split(/(?<=[^\s.])\.\s+(?=\p{L})/u)[0];
      return text.slice(head.length).replace(/^\.\s*/, '');
    })
    .join('\n');
  return { candidates, rest };
}
