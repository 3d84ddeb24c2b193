import { secretMarker } from '../shared/secrets';
import fieldLabels from './frames/fieldLabels.json';
import { quotedBlocks } from './quotedBlocks';

/**
 * Pasted material: what a developer puts in a message that is not their own words. Emails (headers,
 * greetings, signatures), logs and stack traces, shell sessions, file contents, chat transcripts, news text,
 * code, quoted blocks, and whatever follows a lead-in ("help me reply to this:"). A first-person line in any
 * of it is someone else's (a sender, a process, a file), so capture never reads it as the owner's.
 *
 * Everything here is line-based and linear in the message's length: no backtracking-heavy pattern ever sees
 * more than one line.
 */

export interface OwnWords {
  /** The owner's own text: foreign lines blanked, paragraph breaks kept. */
  readonly text: string;
  /** Whether anything pasted, quoted or fenced was found: the owner's facts in such a message are never tier A. */
  readonly pasted: boolean;
}

/**
 * Only the head of a very long message is read for facts about the owner: a message of many kilobytes is
 * pasted material with a line or two of the owner's around it, and the bound keeps capture's cost flat.
 */
export const ownWordsLimit = 8_000;
const maxLineLength = 2_000;

const fence = /^\s*(?:```|~~~)/;
const quoteLine = /^\s*>/;
const emailHeader = /^\s*(?:from|to|cc|bcc|subject|date|sent|reply-to|von|an|betreff|de|para|assunto|asunto)\s*:\s*\S/i;
const forwarded = /^\s*(?:-{3,}\s*(?:forwarded|original) message|begin forwarded message|on .{4,80} wrote:\s*$)/i;
/** "Hi Sam," / "Hello team," / "Dear Alex," — a greeting to someone who is not the assistant. */
const emailGreeting = /^\s*(?:hi|hello|hey|dear|good (?:morning|afternoon|evening)|hallo|hola|olá|oi|bonjour|salut|ciao|hoi|beste|liebe|lieber|(?:sehr )?geehrte[rs]?|geachte|cher|chère|chers|chères|gentile|egregi[oa]|caro|cara|querid[oa]s?|estimad[oa]s?|prezad[oa]s?)\s+(?!there\b|engram\b|i['’]?m\b|i am\b)((?:all|team|everyone|folks|guys|y'all|à tous|a todos|a tutti|tutti|todos|allemaal|zusammen|tout le monde|equipo|équipe|pessoal)\b|[\p{L}][\p{L}'-]+(?: [\p{L}][\p{L}'-]+)?)\s*[,!]/iu;
/**
 * A letter's greeting names its reader with a capital ("Hi Sam,"); the flag that lets "Hi team" match in any case would
 * let any word be a name, and "Oi gente, sou dev front na X" is the owner's own opening, not a letter.
 */
function greetsReader(line: string): boolean {
  const greeting = emailGreeting.exec(line);
  return !!greeting && (/^(?:all|team|everyone|folks|guys|y'all|à|a |tutti|todos|allemaal|zusammen|tout|equipo|équipe|pessoal)/iu.test(greeting[1]) || /^\p{Lu}/u.test(greeting[1]));
}
const signOff = /^\s*(?:thanks|thank you|many thanks|best|cheers|regards|kind regards|best regards|warm regards|sincerely|all the best|talk soon|br|viele grüße|(?:mit )?freundliche[n]? grüße[n]?|beste grüße|liebe grüße|lg|mfg|(?:bien )?cordialement|bien à vous|(?:un )?saludos?(?: cordiales)?|un abrazo|cordiali saluti|distinti saluti|met vriendelijke groet(?:en)?|groeten|abraços|atenciosamente)\b[^.?\n]{0,40}$/i;
/**
 * A line only a program prints: a timestamp ("2026/11/29 22:01:14 [error]"), a level, a stack frame, a Go panic and its
 * goroutines ("goroutine 1 [running]:", "\t/src/main.go:12 +0x25"), a compiler's diagnostic and its gutter ("error[E0502]:",
 * "  --> src/lib.rs:4:9", "42 |     x.push(y)"), an editor's error ("E5113: Error while calling lua chunk"), a test runner's
 * banner and progress ("==== test session starts ====", "tests/test_a.py ..F  [ 16%]"), a commit's head ("commit 9f2c1ab").
 */
const logLine =
  /^\s*(?:\[?\d{4}[-/]\d{2}[-/]\d{2}[T ]\d{2}:\d{2}|panic: |goroutine \d+ \[|\S+\.\w+:\d+ \+0x[\da-f]+$|(?:error|warning)(?:\[E\d{3,5}\])?: |-->\s+\S+:\d+:\d+|\d*\s+\|(?:\s|$)|E\d{2,4}: |Error detected while processing\b|Exception in thread\b|[=_*]{3,} .* [=_*]{3,}$|\S+\s+[.FEsxX]+\s+\[\s*\d{1,3}%\]$|E {2,}\S|commit [\da-f]{7,40}$|➤ YN\d{4}:|\[?\d{1,2}:\d{2}(?::\d{2})?\]|[A-Z][a-z]{2} +\d{1,2} \d{2}:\d{2}:\d{2}|\[?(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL|CRITICAL|ALERT)\b|npm (?:ERR!|WARN)|at \S+ \(|at \S+:\d+|Traceback \(most recent|File "[^"]+", line \d+|[\w.]*(?:Error|Exception)(?::|\s*$)|[\w.-]+-\d+\s+\|)/;
/** Two or more `key=value` pairs in a row ("ts=… level=error user=admin"): a structured log line, whoever's words follow. */
const keyValueLog = /(?:^|\s)[\w.-]+=(?:"[^"\n]*"|\S+)\s+[\w.-]+=(?:"[^"\n]*"|\S+)/;
const shellPrompt = /^\s*(?:[$%❯➜#]\s+\S|PS [A-Za-z]:\\[^>]*>|[\w.-]+@[\w.-]+:[^\s]*\s*[$#])/;
const transcriptLine = /^\s*(?:\[\d{1,2}:\d{2}(?::\d{2})?\]\s*)?(?:<[\w.-]+>|[\p{L}][\p{L}\d .'-]{0,24}:)\s+\S/u;
/** Field names a person types about themselves ("Name: Priyanka"), which a transcript's speakers are not. */
const ownFieldNames = /^\s*(?:name|pronouns|role|about me|me|context|note|notes|edit|update|ps|p\.s|btw|fyi|kurz zu mir|sobre mim|sobre mí)\s*:/i;
/** A form's profile fields, written with a capital as a person types them ("Company: Fjordbyte", "TZ: CET"), not a config's keys. */
const ownFormFields = /^\s*(?:Company|Employer|Job|Title|City|Location|Based in|TZ|Time ?zone|Editor|IDE|Shell|OS|Languages?|Frameworks?|Stack|Team|Diet|Pronouns|Role|Name)\s*:\s*\S/u;
/** A profile written as "name = Hiroshi", "pronouns = he/him": personal fields with bare values. */
const ownProfileAssignment = /^\s*(?:name|pronouns|role|title|team|location|city|time ?zone|tz|employer|company|languages?|frameworks?|editor|ide|shell|os)\s*=\s*[^\s"'=]/i;
/** Fields only a person has: a config file may set a name, a shell and an os, never pronouns or an employer. */
const personOnlyAssignment = /^\s*(?:pronouns|role|title|team|location|city|time ?zone|tz|employer|company)\s*=/i;
/**
 * The same fields in the owner's language ("Nome: Beatriz Lima", "Cidade: Recife", "Fuseau : GMT"), their labels the
 * data of labelledFields.ts, written with a capital as a person types them (a config's keys are lower case).
 */
const labelWords = Object.values((fieldLabels as { labels: Record<string, string[]> }).labels).flat();
const ownLabelledField = new RegExp(String.raw`^\s*(?:[-*•·]\s+)?(?:${labelWords.map((word) => word[0].toUpperCase() + word.slice(1).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})\s*:\s*\S`, 'u');
const ownField = { test: (line: string): boolean => ownFieldNames.test(line) || ownFormFields.test(line) || ownLabelledField.test(line) || ownProfileAssignment.test(line) } as RegExp;
/** "Display name: Mo | Title: Principal Architect | Team: Core Banking": the owner's fields on one line, not a table's row. */
function ownFieldsRow(line: string): boolean {
  const cells = line.split(/\s+\|\s+/);
  return cells.length >= 2 && cells.every((cell) => ownField.test(cell));
}

/** A run of own fields stays the owner's; one written with "=" only when some field of it is a person's alone. */
function ownFieldRun(run: readonly string[], ownFields: RegExp): boolean {
  if (!run.every((line) => ownFields.test(line) || line.trim() === secretMarker)) return false;
  return !run.some((line) => ownProfileAssignment.test(line)) || run.some((line) => personOnlyAssignment.test(line));
}
const codeLine =
  /(?:[;{}]\s*$|^\s*--\s|^\s*(?:const|let|var|function|def|class|import|from \S+ import|export|return|public|private|package(?!\s+managers?\b)|func|fn|#include|console\.|print\(|\/\/|\/\*|\*\s|<\/?[a-z][\w-]*[ >])|^\s*["{[\]}]|^\s*"[\w-]+"\s*:|=>|^\s*[\w.$]+\([^()\n]*\)\s*;?\s*$)/;
const fileField = /^\s*[\w.-]{1,30}\s*[:=]\s*\S/;
/** A row of CSV, with commas or with the semicolons a spreadsheet in many locales writes ("1;Ana;Porto"). */
const csvRow = /^(?:[^\s,]+(?:,[^,\n]*){2,}|[^\s;]+(?:;[^;\n]*){2,})$/;
/** A line of YAML: a bare `key:` (a mapping opens), an indented `key: value`, or an indented `- item`. */
const yamlLine = /^(?:[\w.-]+:\s*|\s+[\w.-]+:(?:\s+\S.*)?|\s+-\s+\S.*)$/;
const tableRow = /^\s*(?:[-+|]{3,}|.*\s\|\s.*|\(\d+ rows?\))/;
const diffLine = /^(?:---|\+\+\+|@@|[-+]\S)/;
const newsDateline = /^\s*(?:[A-Z][A-Z .'-]{2,}(?:,\s*[A-Z][a-z]{2,}\.? \d{1,2})?\s*(?:\([\w .]+\))?\s*[-—–]\s|[Ff][Oo][Rr] [Ii][Mm][Mm][Ee][Dd][Ii][Aa][Tt][Ee] [Rr][Ee][Ll][Ee][Aa][Ss][Ee])/;

/**
 * A sentence that announces material that follows: after it, nothing in the message is the owner's
 * statement (and the owner can always say a fact again, plainly, in a message of its own).
 */
const leadIn = new RegExp(
  String.raw`\b(?:summari[sz]e|translate|résumé|résumer|résume|traduire|traduis|zusammenfass\w*|übersetze?n?|resumen|resume|resumir|traduce|traduz|traduzir|riassumi|riassunto|traduci|samenvatting|vat samen|vertaal|rewrite|reword|paraphrase|proofread|tl;?dr|reply to|respond to|draft(?: a)? (?:reply|response|answer)|help me (?:answer|reply|respond)|what (?:they|he|she|someone|\w+) (?:wrote|said|sent)|(?:he|she|they|someone|somebody|recruiter|manager|boss|reviewer|colleague|coworker|candidate|customer|client|user)\s+(?:wrote|said|sent|posted|tweeted|asked|left)|said this|wrote this|sent (?:me )?this|got this|forwarding|pasting|pasted|here(?:'s| is) (?:the|my|a|an|his|her|their|what)|this is (?:the|what|from|my)|from (?:the|an?|this) (?:blog )?(?:readme|docs?|template|article|post|page|website|site)|the (?:full )?(?:email|e-mail|mail|message|issue|ticket|comment|bio|post|tweet|text|output|log|logs|error|alert|transcript|thread|answer|commit message|config|file|readme)\b[^.?!:\n]*(?:says|said|reads|is|was|below|above)|(?:ticket|issue|story) text|bug report|transcript|thread from|below is|is below|the following|asked me|is (?:this|that) (?:guy|person|author|article|post|blog|take|comment|answer|advice|claim|review|dude|writer)|(?:thoughts|opinions?) on (?:this|that|the following)|what do you (?:think|make) (?:of|about) (?:this|that)|fact-?check(?: this)?|is (?:this|that) (?:true|right|accurate|correct|legit))\b[^\n]*?(?::\s|:$|\?\s*$|\?\s+(?=\S))` +
    // Words that announce material only when a colon follows them ("psql output:", "it prints:").
    String.raw`|\b(?:output|prints?|printed|gives me|shows me|shows|said|says|answer|returns|logs?|input|example|string|sentence|wrote|writes|reads|left this|left a comment|commented)\b(?:(?!\.\s)[^\n?!]){0,30}?(?::\s|:$)`,
  'iu',
);

/**
 * A paragraph that asks about material and is followed by another ("can you help me answer this one", "New issue on
 * the repo, can you triage?", "Found this answer, is it still valid?"): the paragraphs after it are the material.
 */
const asksAboutMaterial =
  /\b(?:this|these|that|the following|below)\b[^\n]{0,30}?\b(?:one|issue|answer|post|e-?mail|mail|message|comment|thread|ticket|review|question|text|report|note|snippet|reply|tweet|bio|draft|paragraph|description|story|bug|article|letter|pr|pull request|feedback|quote|submission|entry|profile|ad|posting|listing|cv|resume|cover letter)\b|\b(?:new|an?|the) (?:issue|ticket|bug report|question|comment|review|e-?mail|message|post|answer|pr|pull request|job ad|posting)\b[^\n]{0,40}?\b(?:can you|could you|please|help|triage|answer|reply|respond|review|check|summari[sz]e|valid|right|correct)\b|\bfound this\b|\bsomeone (?:posted|asked|wrote|sent)\b/i;

const markdownHeading = /^\s{0,3}#{1,6}\s+\S/;
/** Lines only a document has: headings, list items, indented code. */
const markdownStructure = /^\s{0,3}#{1,6}\s|^\s*(?:[-*+]|\d{1,2}[.)])\s+\S|^(?: {4}|\t)\S/;

/** A paragraph that opens like this after a paste is the owner's postscript. */
const ownVoiceAgain = /^\s*(?:p\.?\s?s\.?|btw|fwiw|also|edit|update|oh and|and btw)\b[\s.:,-]/i;

type LineKind = 'own' | 'foreign' | 'blank';

const thematicBreak = /^\s*(?:-{3,}|\*{3,}|_{3,})\s*$/;
const gitCommit = /^commit [\da-f]{7,40}$/;

function isBlank(line: string): boolean {
  return line.trim() === '';
}

/** Lines of structured material (logs, shell, code, file fields, tables) that make their paragraph pasted. */
function looksPasted(line: string): boolean {
  return logLine.test(line) || keyValueLog.test(line) || shellPrompt.test(line) || codeLine.test(line) || (tableRow.test(line) && !ownFieldsRow(line)) || newsDateline.test(line) || emailHeader.test(line) || forwarded.test(line);
}

/**
 * Runs of two or more consecutive lines of one machine shape (fields, CSV rows, a transcript, a diff). A run
 * made only of fields a person types about themselves ("Name: …" then "Pronouns: …") stays the owner's.
 */
function runsOf(lines: readonly string[], shape: RegExp, ownFields?: RegExp): boolean[] {
  const marked = lines.map(() => false);
  for (let start = 0; start < lines.length; ) {
    let end = start;
    // "Context: I live in Cork, I'm an iOS developer." above a .env is the owner speaking, not the file's first field.
    // A removed secret stands for the field it was the value of ("STRIPE_KEY=<secret>"): the file goes on around it.
    while (end < lines.length && (shape.test(lines[end]) || (shape === fileField && lines[end].trim() === secretMarker)) && !(ownFields?.test(lines[end]) && /:\s*.*\b(?:I|I'm|I’m|my)\b/.test(lines[end]))) end++;
    const run = lines.slice(start, end);
    if (run.length >= 2 && !(ownFields && ownFieldRun(run, ownFields))) for (let i = start; i < end; i++) marked[i] = true;
    start = end === start ? start + 1 : end;
  }
  return marked;
}

function classify(lines: readonly string[]): LineKind[] {
  const kinds: LineKind[] = lines.map((line) => (isBlank(line) ? 'blank' : 'own'));
  let inFence = false;
  let inEmail = false;
  let pastedParagraph = false;
  let lastFilled = -1;
  let inCommit = false;
  const quoted = quotedBlocks(lines);
  const machineRuns = [runsOf(lines, fileField, ownField), runsOf(lines, transcriptLine, ownField), runsOf(lines, csvRow), runsOf(lines, diffLine), runsOf(lines, yamlLine, ownFieldNames)];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    // A secret capture removed is pasted material, whatever surrounded it.
    if (line.trim() === secretMarker) {
      kinds[i] = 'foreign';
      pastedParagraph = false;
      continue;
    }
    if (fence.test(line)) {
      inFence = !inFence;
      kinds[i] = 'foreign';
      continue;
    }
    if (inFence || quoted[i]) {
      kinds[i] = 'foreign';
      continue;
    }
    if (kinds[i] === 'blank') {
      pastedParagraph = false;
      inCommit = false;
      continue;
    }
    // An indented paragraph right after pasted material goes on with it (a commit's message under its header, a
    // frame of a trace): "    I'm reverting this because…" is the commit author's.
    if (i > 0 && kinds[i - 1] === 'blank' && lastFilled >= 0 && kinds[lastFilled] === 'foreign' && /^(?: {4}|\t)\S/.test(line)) pastedParagraph = true;
    lastFilled = i;
    // Nobody types a line this long to an assistant: it is a pasted blob (a minified file, a log line, binary).
    if (line.length > maxLineLength) {
      kinds[i] = 'foreign';
      pastedParagraph = true;
      continue;
    }
    if (inEmail) {
      kinds[i] = 'foreign';
      if (signOff.test(line)) {
        inEmail = false;
        // The signature: a name, a title, a company on the next short lines.
        for (let j = i + 1; j < lines.length && j <= i + 3 && !isBlank(lines[j]) && lines[j].length <= 60; j++) kinds[j] = 'foreign';
      }
      continue;
    }
    // "commit 9f2c1ab / Author: … / Date: …": the header of a commit in a pasted log is the log's, not a letter's opening.
    if (gitCommit.test(line)) inCommit = true;
    if (greetsReader(line) || ((emailHeader.test(line) || forwarded.test(line)) && !inCommit)) {
      inEmail = true;
      kinds[i] = 'foreign';
      continue;
    }
    if (quoteLine.test(line)) {
      kinds[i] = 'foreign';
      continue;
    }
    // A rule drawn above a paragraph ("---" then "That's my friend's README") sets it apart: it makes no paste of it.
    if (thematicBreak.test(line) && (i === 0 || kinds[i - 1] === 'blank')) {
      kinds[i] = 'foreign';
      continue;
    }
    const machine = looksPasted(line) || machineRuns.some((run) => run[i]);
    if (machine) pastedParagraph = true;
    if (pastedParagraph) kinds[i] = 'foreign';
  }
  // A sign-off without a greeting still closes a pasted letter: the lines above it, back to a blank line, are its body.
  for (let i = 0; i < lines.length; i++) {
    if (kinds[i] !== 'own' || !signOff.test(lines[i]) || i === 0) continue;
    const nextIsName = i + 1 < lines.length && /^\s*[\p{Lu}][\p{L}'-]+(?:\s+[\p{Lu}][\p{L}'-]+)?\s*$/u.test(lines[i + 1]);
    if (!nextIsName && !/,\s*[\p{Lu}][\p{L}'-]+\s*$/u.test(lines[i])) continue;
    for (let j = i; j >= 0 && kinds[j] !== 'blank'; j--) kinds[j] = 'foreign';
    for (let j = i + 1; j < lines.length && j <= i + 3 && kinds[j] !== 'blank'; j++) kinds[j] = 'foreign';
  }
  return kinds;
}

/** Inline foreign text: code spans and quotations (straight, curly, and single quotes around a phrase). */
function stripInline(text: string): { text: string; found: boolean } {
  let found = false;
  const mark = (): string => {
    found = true;
    return ' ';
  };
  const stripped = text
    .replace(/`[^`\n]*`/g, () => ' ')
    .replace(/"[^"\n]*"/g, mark)
    .replace(/“[^”\n]*”/g, mark)
    .replace(/„[^“”\n]*[“”]/g, mark)
    .replace(/«[^»\n]*»/g, mark)
    .replace(/(^|[\s(:])'([^'\n]*\s[^'\n]*)'(?=[\s.,;:!?)]|$)/g, (_, before: string) => `${before}${mark()}`);
  return { text: stripped, found };
}

/** Announcing a paste and not the owner: "About me:", "Some context:" come before the owner's own words. */
const headingsAboutMe = (fieldLabels as { headingsAboutMe: string[] }).headingsAboutMe.join('|');
const ownAnnouncement = new RegExp(String.raw`(?:^|\s)(?:${headingsAboutMe})\s*:\s*$|\b(?:about me|context|intro(?:duction)?|background|notes? for you|my setup|setup|facts|(?:\d+|two|three|four|five|a few|some|couple of) (?:things|points|questions|items|notes|issues|bugs|requests))\b[^:]*:\s*$`, 'iu');

/**
 * A heading of the owner's own list on a line of its own ("Tooling:", "My preferences:", "Profile (please keep this):");
 * an aside that points at someone else or somewhere else ("Profile (from LinkedIn):", "(her bio)") makes it a paste's.
 */
const ownListHeading =
  /^\s*(?:my\s+)?(?:(?:tech\s+)?stack|tools|tooling|toolbox|toolchain|preferences|conventions|bio|profile)(?:\s*\((?![^)\n]*\b(?:from|of|his|her|their|someone|candidate|colleague|[\p{L}]+['’]s)\b)[^)\n]{1,40}\))?\s*:\s*$/iu;

/** A line ending in a colon, with more lines after it: "Getting this in CI:", "psql output:". */
function announcesLines(line: string, next: string | undefined): RegExpExecArray | null {
  if (next === undefined || !/:\s*$/.test(line) || ownAnnouncement.test(line) || ownListHeading.test(line)) return null;
  return /^[\s\S]*$/.exec(line);
}

/**
 * Where the owner's words resume after a lead-in on line `at`: after the paragraphs that follow it, when each
 * was recognised as structured material (a log, a shell session, a letter with its signature). Prose pasted
 * after a lead-in has no recognisable end, so nothing after it is read (undefined).
 */
function endOfAnnouncedPaste(kinds: readonly LineKind[], at: number, lines: readonly string[]): number | undefined {
  let i = at + 1;
  while (i < kinds.length && kinds[i] === 'blank') i++;
  if (i >= kinds.length) return undefined;
  // A pasted document (a README, notes with "## Setup") holds prose between its headings: only the message's last
  // paragraph, after its last heading, with no heading, list or indented line of its own, is the owner's again.
  const headings = lines.map((line, n) => (n > at && markdownHeading.test(line) ? n : -1)).filter((n) => n >= 0);
  const last = lastParagraph(kinds, at, lines);
  if (headings.length > 0) return last !== undefined && last > headings[headings.length - 1] + 1 ? last : undefined;
  let sawForeign = false;
  for (; i < kinds.length; i++) {
    // "P.S. I'm on fish btw" after the pasted paragraph is the owner speaking again, whatever the paste was.
    if (kinds[i] === 'own' && kinds[i - 1] === 'blank' && ownVoiceAgain.test(lines[i])) return i;
    if (kinds[i] === 'own') return sawForeign && kinds[i - 1] === 'blank' ? i : resumesAtEnd(last, lines);
    if (kinds[i] === 'foreign') sawForeign = true;
  }
  return resumesAtEnd(last, lines);
}

/** Where the message's last paragraph after line `at` starts, when it is plain prose (no heading, list or indented line). */
function lastParagraph(kinds: readonly LineKind[], at: number, lines: readonly string[]): number | undefined {
  let end = lines.length;
  while (end > at && isBlank(lines[end - 1])) end--;
  let start = end;
  while (start > at + 1 && !isBlank(lines[start - 1])) start--;
  // A rule drawn under the material ("---") sets the owner's paragraph off; it is no line of theirs.
  if (start + 1 < end && thematicBreak.test(lines[start])) start++;
  if (start <= at + 1 || start >= end) return undefined;
  return lines.slice(start, end).every((line, n) => kinds[start + n] === 'own' && !markdownStructure.test(line)) ? start : undefined;
}

/**
 * Words of a closing paragraph that turn from the material to the assistant ("Does that apply to me?", "I'm lena-k in
 * there", "For context I'm…", "I wasn't in the meeting"): the owner speaking about the paste, not the paste going on.
 */
const turnsToAssistant = /\b(?:for context|in there|the above|(?:does|would) (?:that|this|it) apply to me|(?:was|were)n['’]?t (?:in|at|there)|not mine|their repo)\b/i;
const firstPersonWord = /\b(?:I|I['’]m|my|me)\b/;

/** The owner's aside about themselves, set off from what they ask: "For context I run the Data Platform team". */
const asideLabel = /\b(?:for context|some context|context|background|fwiw|btw)\s*:\s*$/i;
const asideToAssistant = /^\s*(?:for context|some context|fwiw|for what it['’]?s worth|btw|by the way)\b[,:—–-]?\s*(?:I|I['’]m|my)\b/i;

/** The last paragraph as the owner's words again, when it speaks of the material to the assistant in the first person. */
function resumesAtEnd(last: number | undefined, lines: readonly string[]): number | undefined {
  if (last === undefined) return undefined;
  const paragraph = lines.slice(last).join(' ');
  return turnsToAssistant.test(paragraph) && firstPersonWord.test(paragraph) ? last : undefined;
}

/**
 * A message that opens with a document's heading and has more of them ("# fastcache", then "## Install", "## About the
 * author") is a pasted document, announced or not: its first person is its author's. The owner speaks again only in a
 * closing paragraph after its last section that turns to the assistant ("That's my friend's README; can you…", "Not
 * my project. … Would this fit?"). Where the owner's words start again (the message's length when they never do), or
 * undefined when the message is no such document.
 */
function afterOpeningDocument(kinds: readonly LineKind[], lines: readonly string[]): number | undefined {
  const first = kinds.findIndex((kind) => kind !== 'blank');
  if (first < 0 || !/^#{1,6}\s+\S/.test(lines[first]) || !lines.some((line, n) => n > first && markdownHeading.test(line))) return undefined;
  const headings = lines.map((line, n) => (markdownHeading.test(line) ? n : -1)).filter((n) => n >= 0);
  const last = lastParagraph(kinds, first, lines);
  if (last === undefined || last <= headings[headings.length - 1] + 1) return lines.length;
  const paragraph = lines.slice(last).join(' ');
  return /\?|\b(?:can you|could you|please|help me|that['’]?s|this is|the above|not my)\b/i.test(paragraph) && firstPersonWord.test(paragraph) ? last : lines.length;
}

/**
 * The owner's own words in a message: pasted blocks blanked line by line, inline quotations and code removed,
 * and everything after a lead-in dropped.
 */
export function ownWords(message: string): OwnWords {
  const head = message.length > ownWordsLimit ? message.slice(0, ownWordsLimit) : message;
  const lines = head.split(/\r?\n/);
  const kinds = classify(lines);
  let pasted = kinds.includes('foreign');
  const kept: string[] = [];
  const documentEnd = afterOpeningDocument(kinds, lines);
  if (documentEnd !== undefined) pasted = true;
  for (let i = 0; i < lines.length; i++) {
    if (documentEnd !== undefined && i < documentEnd) {
      kept.push('');
      continue;
    }
    if (kinds[i] !== 'own') {
      kept.push('');
      continue;
    }
    const inline = stripInline(lines[i]);
    if (inline.found) pasted = true;
    const paragraphAhead = lines[i + 1] !== undefined && isBlank(lines[i + 1]) && lines.slice(i + 2).some((line) => !isBlank(line));
    const lead = leadIn.exec(inline.text) ?? announcesLines(inline.text, lines[i + 1]) ?? (paragraphAhead ? asksAboutMaterial.exec(inline.text) && /^[\s\S]*$/.exec(inline.text) : null);
    if (!lead) {
      kept.push(inline.text);
      continue;
    }
    // The lead-in's own words stay (they may carry a fact: "I work at Fernhill, help me reply to this:"), and so does an
    // aside to the assistant after its question or under its own label ("Can you draft a reply? For context I'm the
    // on-call lead", "help me reply to this email. context: I'm the tech lead").
    const after = inline.text.slice(lead.index + lead[0].length);
    const aside = (/\?\s*$/.test(lead[0]) && asideToAssistant.test(after)) || (asideLabel.test(lead[0]) && /^\s*(?:I|I['’]m|my)\b/.test(after));
    kept.push(inline.text.slice(0, lead.index + lead[0].length) + (aside ? after : ''));
    pasted = true;
    const resumeAt = endOfAnnouncedPaste(kinds, i, lines);
    if (resumeAt === undefined) break;
    for (; i + 1 < resumeAt; i++) kept.push('');
  }
  if (message.length > ownWordsLimit) pasted = true;
  return { text: kept.join('\n'), pasted };
}
