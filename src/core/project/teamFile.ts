import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isCitation, type Citation, type StatementRecord } from '../memory/statementRepository';

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

/** Who committed each line (1-based) of the file, from `git blame`; empty when git or the history is not there. */
function blame(root: string): Map<number, string> {
  const authors = new Map<number, string>();
  try {
    const out = execFileSync('git', ['blame', '--line-porcelain', '--', teamFilePath], { cwd: root, encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'ignore'] });
    let line = 0;
    let author = '';
    let uncommitted = false;
    for (const row of out.split('\n')) {
      const start = /^([0-9a-f]{40}) \d+ (\d+)/.exec(row);
      if (start) {
        line = Number(start[2]);
        uncommitted = /^0+$/.test(start[1]);
      } else if (row.startsWith('author ')) author = row.slice(7);
      else if (row.startsWith('author-time ')) {
        const day = new Date(Number(row.slice(12)) * 1000).toISOString().slice(0, 10);
        authors.set(line, uncommitted ? 'not committed yet' : `${author} on ${day}`);
      }
    }
  } catch {
    // No git, or the file is not in its history: nobody is named.
  }
  return authors;
}

export function readTeamFile(root: string): SharedFact[] {
  const path = join(root, teamFilePath);
  if (!existsSync(path)) return [];
  const authors = blame(root);
  const facts: SharedFact[] = [];
  readFileSync(path, 'utf8').split(/\r?\n/).forEach((text, i) => {
    const match = factLine.exec(text);
    if (!match) return;
    const citation = match[3] ? { path: match[3], lines: [Number(match[4]), Number(match[5] ?? match[4])] as const, hash: match[6] } : undefined;
    facts.push({
      key: match[1], value: match[2].trim(), line: i + 1,
      citation: isCitation(citation) ? citation : undefined,
      committedBy: authors.get(i + 1) ?? 'not committed (no git history for this line)',
    });
  });
  return facts;
}
