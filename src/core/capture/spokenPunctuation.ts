/**
 * Dictated text spells its punctuation out ("I'm Tomasz period I use IntelliJ comma mostly for Kotlin period", "…and
 * i use webstorm period new line what is…"): read with the marks put back, its clauses are the owner's as typed ones
 * are. One "period" alone is a word ("my trial period"), so the message must dictate at least twice, or start a line
 * or a paragraph by voice, before any word is read as a mark.
 */
const spokenMark = /(?<![\p{L}'’-])(?:new paragraph|new line|full stop|period|comma|question mark|exclamation (?:mark|point))(?![\p{L}'’-])/giu;
const spokenBreak = /(?<![\p{L}'’-])new (?:paragraph|line)(?![\p{L}'’-])/iu;

const marks: Record<string, string> = {
  'new paragraph': '\n',
  'new line': '\n',
  'full stop': '.',
  period: '.',
  comma: ',',
  'question mark': '?',
  'exclamation mark': '!',
  'exclamation point': '!',
};

/** Whether the owner dictated the message, saying its punctuation as words. */
export function isDictated(text: string): boolean {
  return (text.match(spokenMark)?.length ?? 0) >= 2 || spokenBreak.test(text);
}

/** The message with its spoken marks written as marks ("Borealis Bank period I use" is "Borealis Bank. I use"); else as it is. */
export function withSpokenPunctuation(text: string): string {
  if (!isDictated(text)) return text;
  return text
    .replace(/\s*(?<![\p{L}'’-])(new paragraph|new line|full stop|period|comma|question mark|exclamation (?:mark|point))(?![\p{L}'’-])\s*/giu, (_, mark: string) => {
      const written = marks[mark.toLowerCase()];
      return written === '\n' ? '\n' : `${written} `;
    })
    .replace(/([.,?!])\s*\n/g, '$1\n')
    .replace(/^\s*[,.]\s*/gm, '')
    .trim();
}
