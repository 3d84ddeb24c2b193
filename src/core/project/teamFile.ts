import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isCitation, type Citation, type StatementRecord } from '../memory/statementRepository';
import { readContained } from '../shared/containedFile';
import { plainText } from '../shared/plainText';
import { citesInside } from './citations';

/**
 * The project's confirmed facts as a file in the repository, for the team: reviewed like any change, shared through git.
 * One readable line per fact with its citation. A teammate's Engram reads it as proposals, never as beliefs.
 */
export const teamFilePath = '.engram/project-facts.md';

export interface SharedFact {
  readonly key: string;
  readonly value: string;
  readonly citation?: Citation;
  /** 1-based line of the file. */
  readonly line: number;
  /** Who committed that line, from git (blame), or why nobody is known. */
  readonly committedBy: string;
}

const header = [
  '# Project facts',
  '',
  'Written by Engram (**Engram: Share Project Facts with the Team**) from what its owner confirmed about this repository.',
  'Review it like code. Another Engram reads each line as a proposal for its owner to confirm, never as a belief.',
  '',
];

export function teamFileText(facts: readonly StatementRecord[]): string {
  const lines = [...facts]
    .sort((a, b) => a.key.localeCompare(b.key) || a.value.localeCompare(b.value))
    .map((fact) => `- ${fact.key} = ${fact.value.replace(/\s+/g, ' ')}${fact.citation ? `  (cites ${fact.citation.path}:${fact.citation.lines[0]}${fact.citation.lines[1] > fact.citation.lines[0] ? `-${fact.citation.lines[1]}` : ''} #${fact.citation.hash})` : ''}`);
  return [...header, ...lines, ''].join('\n');
}

export function writeTeamFile(root: string, facts: readonly StatementRecord[]): string {
  const path = join(root, teamFilePath);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, teamFileText(facts));
  return path;
}

const factLine = /^- ([a-z][a-z0-9_]{0,39}) = (.{1,200}?)(?:\s+\(cites (.+?):(\d+)(?:-(\d+))? #([0-9a-f]{16})\))?\s*$/;

/**
 * What one reading of the team file takes at most. A team file is a few dozen reviewed lines; a hostile one can be
 * anything, so only its first 256 KB and its first 1,000 lines are read, and what lies beyond is said, not read.
 */
export const teamFileCaps = { bytes: 256 * 1024, lines: 1_000 } as const;

/** One line of the team file that was not taken, and why. */
export interface RefusedLine {
  readonly line: number;
  readonly why: string;
}

export interface TeamFileRead {
  /** Fact lines taken, in file order, values made plain, citations inside the repository. */
  readonly facts: SharedLine[];
  /** Lines read (at most teamFileCaps.lines). */
  readonly lines: number;
  readonly refused: RefusedLine[];
  /** What was not read and why (the caps, a link out of the repository), when something was not. */
  readonly notRead?: string;
}

/** A fact line as read, before anyone is named for it. */
export type SharedLine = Omit<SharedFact, 'committedBy'>;

/**
 * Reads the team file of a repository off the host thread (asynchronously, through the containment check), within
 * its caps, and parses it. Nothing is proposed here: that is ProjectMemory.readShared, in one batch.
 */
export async function readTeamFile(root: string): Promise<TeamFileRead> {
  const read = await readContained([root], teamFilePath, teamFileCaps.bytes);
  if ('error' in read) {
    return read.error.startsWith('there is no file') ? { facts: [], lines: 0, refused: [] } : { facts: [], lines: 0, refused: [], notRead: read.error };
  }
  const cut = read.bytes.length < read.size;
  const all = Buffer.from(read.bytes).toString('utf8').split(/\r?\n/);
  // A head cut mid-line loses that line rather than propose half a value.
  if (cut) all.pop();
  const lines = all.slice(0, teamFileCaps.lines);
  const notRead = cut || all.length > lines.length ? `${teamFilePath} has ${read.size.toLocaleString('en-US')} bytes; only its first ${lines.length.toLocaleString('en-US')} lines (at most ${teamFileCaps.bytes / 1024} KB and ${teamFileCaps.lines.toLocaleString('en-US')} lines) were read` : undefined;
  const facts: SharedLine[] = [];
  const refused: RefusedLine[] = [];
  lines.forEach((text, i) => {
    if (!text.startsWith('- ')) return;
    const line = i + 1;
    const match = factLine.exec(plainText(text));
    if (!match) return void refused.push({ line, why: 'not a line of the form "- key = value"' });
    const value = match[2].trim();
    if (match[3] === undefined) return void facts.push({ key: match[1], value, line });
    if (!citesInside(root, match[3])) return void refused.push({ line, why: `cites a path outside the repository (${match[3]})` });
    const citation = { path: match[3].replace(/\\/g, '/'), lines: [Number(match[4]), Number(match[5] ?? match[4])] as const, hash: match[6] };
    facts.push({ key: match[1], value, line, citation: isCitation(citation) ? citation : undefined });
  });
  return { facts, lines: lines.length, refused, ...(notRead ? { notRead } : {}) };
}

/**
 * Who committed each of the first `upTo` lines (1-based) of the team file, from `git blame`, run asynchronously;
 * empty when git or the history is not there. Names are made plain: a name can carry bidi characters too.
 */
export async function whoCommitted(root: string, upTo: number): Promise<Map<number, string>> {
  const authors = new Map<number, string>();
  const out = await new Promise<string>((resolve) => {
    execFile('git', ['blame', '--line-porcelain', '-L', `1,${Math.max(1, upTo)}`, '--', teamFilePath], { cwd: root, encoding: 'utf8', timeout: 5000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout) =>
      // No git, or the file is not in its history: nobody is named.
      resolve(error ? '' : stdout),
    );
  });
  let line = 0;
  let author = '';
  let uncommitted = false;
  for (const row of out.split('\n')) {
    const start = /^([0-9a-f]{40}) \d+ (\d+)/.exec(row);
    if (start) {
      line = Number(start[2]);
      uncommitted = /^0+$/.test(start[1]);
    } else if (row.startsWith('author ')) author = plainText(row.slice(7)).slice(0, 100);
    else if (row.startsWith('author-time ')) {
      const day = new Date(Number(row.slice(12)) * 1000).toISOString().slice(0, 10);
      authors.set(line, uncommitted ? 'not committed yet' : `${author} on ${day}`);
    }
  }
  return authors;
}
