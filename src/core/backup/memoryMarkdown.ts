import type { Database } from 'sql.js';
import { listBehaviors, type BehaviorRecord } from '../memory/behaviors';
import { eventsOf, listStatements, type StatementRecord, type StatementScope } from '../memory/statementRepository';
import type { MemoryStore } from '../store/memoryStore';
import { selectAll } from '../store/rows';

/**
 * The plain-file view of the memory ("Engram: Open Memory as Markdown", `engram export --markdown`): what Engram
 * believes, by key, with where each belief came from and when; what it no longer believes and why; the behaviours; each
 * project's facts. A view, regenerated on demand and never read back: an edit in it changes nothing, so no program can
 * write a belief into Engram through it. Memory text is untrusted: every piece of it is shown as a literal code span,
 * on one line, with invisible and direction-changing characters named, so a value can open no link, run no HTML and
 * start no heading.
 */
export function memoryMarkdown(store: MemoryStore, now = new Date()): string {
  return store.read((db) => {
    const out: string[] = [
      '# What Engram remembers',
      '',
      `> **This file is a view, not the memory.** Engram wrote it on ${day(now.toISOString())} at ${now.toISOString().slice(11, 16)} UTC from its memory ` +
        'store and never reads it back: editing it changes nothing, and no program can add a belief to Engram through it. ' +
        'Generate it again (**Engram: Open Memory as Markdown**, or `engram export --markdown`) to see the memory as it is now; ' +
        'change a belief in VS Code (the Memory view, **Remember…**, or by telling `@engram`).',
      '>',
      '> Text between backticks is memory text exactly as it was said or stored, shown literally.',
      '',
    ];
    out.push(...scopeSection(db, 'owner', '##', { believed: 'What Engram believes about you', pending: 'Waiting for your review', retired: 'What Engram no longer believes, and why', rejected: 'What you said no to' }));
    out.push(...behaviorSection(listBehaviors(db)));
    const projects = selectAll(db, "SELECT DISTINCT scope FROM statements WHERE scope <> 'owner' ORDER BY scope").map((row) => String(row.scope) as StatementScope);
    out.push('## Projects', '');
    if (projects.length === 0) out.push('_No facts about any repository._', '');
    for (const scope of projects) {
      out.push(`### ${literal(scope.slice('project:'.length))}`, '');
      out.push(...scopeSection(db, scope, '####', { believed: 'Believed', pending: 'Waiting for your review', retired: 'No longer believed', rejected: 'Rejected' }));
    }
    const turns = Number(selectAll(db, 'SELECT COUNT(*) AS n FROM turns')[0]?.n ?? 0);
    const sessions = Number(selectAll(db, 'SELECT COUNT(*) AS n FROM sessions')[0]?.n ?? 0);
    out.push('## Conversations', '', `${sessions} conversations (${turns} turns) are remembered. Their words are in the JSON backup (**Engram: Export Memory**, \`engram export\`), not in this view.`, '');
    return out.join('\n');
  });
}

interface Titles {
  readonly believed: string;
  readonly pending: string;
  readonly retired: string;
  readonly rejected: string;
}

function scopeSection(db: Database, scope: StatementScope, level: string, titles: Titles): string[] {
  const all = listStatements(db, undefined, scope);
  const of = (status: StatementRecord['status']): StatementRecord[] => all.filter((s) => s.status === status);
  const lastReason = (s: StatementRecord, status: string): { at: string; reason: string } => {
    const event = eventsOf(db, s.id).filter((e) => e.statusAfter === status).at(-1);
    return { at: event?.at ?? s.updatedAt, reason: event?.reason ?? '' };
  };
  const lines: string[] = [];
  const section = (title: string, items: StatementRecord[], line: (s: StatementRecord) => string): void => {
    lines.push(`${level} ${title} (${items.length})`, '');
    if (items.length === 0) lines.push('_None._');
    for (const s of items) lines.push(`- ${literal(s.key)} = ${literal(s.value)} — ${line(s)}`);
    lines.push('');
  };
  section(titles.believed, of('confirmed'), (s) => `confirmed ${day(lastReason(s, 'confirmed').at)}; ${origin(s)}`);
  section(titles.pending, of('proposed'), (s) => `proposed ${day(s.createdAt)} (tier ${s.tier}); ${origin(s)}`);
  section(titles.retired, of('retired'), (s) => {
    const why = lastReason(s, 'retired');
    return `retired ${day(why.at)}: ${literal(why.reason)}; it had come ${origin(s)}`;
  });
  section(titles.rejected, of('rejected'), (s) => {
    const why = lastReason(s, 'rejected');
    return `rejected ${day(why.at)}: ${literal(why.reason)}`;
  });
  return lines;
}

/** Where a statement came from, and when. */
function origin(s: StatementRecord): string {
  const when = day(s.createdAt);
  const words = `: ${literal(clip(s.sourceWords))}`;
  const cited = s.citation ? ` (${literal(s.citation.path)} lines ${s.citation.lines[0]}-${s.citation.lines[1]})` : '';
  switch (s.origin) {
    case 'chat':
      return `from your words in a chat on ${when}${words}`;
    case 'remember':
      return `typed by you in Remember… on ${when}`;
    case 'import':
      return `imported on ${when}${words}`;
    case 'derived':
      return `read off the repository on ${when}${cited}`;
    case 'shared':
      return `from the team's file on ${when}${words}${cited}`;
    case 'agent':
      return `proposed by another agent over MCP on ${when}${words}`;
  }
}

function behaviorSection(behaviors: readonly BehaviorRecord[]): string[] {
  const lines: string[] = ['## Behaviours', ''];
  const group = (title: string, statuses: readonly BehaviorRecord['status'][]): void => {
    const items = behaviors.filter((b) => statuses.includes(b.status));
    lines.push(`### ${title} (${items.length})`, '');
    if (items.length === 0) lines.push('_None._');
    for (const b of items) lines.push(`- ${literal(b.text)} — ${b.status} ${day(b.updatedAt)}; learned from ${literal(clip(b.evidence))}`);
    lines.push('');
  };
  group('Followed in every prompt (approved)', ['approved']);
  group('Waiting for your approval', ['proposed']);
  group('Rejected or retired', ['rejected', 'retired']);
  return lines;
}

const clip = (text: string): string => (text.length > 300 ? `${text.slice(0, 299)}…` : text);

/** The date of a stored time, or the stored text itself (literally) when it is not one. */
function day(at: string): string {
  return /^\d{4}-\d{2}-\d{2}T/.test(at) && !Number.isNaN(Date.parse(at)) ? at.slice(0, 10) : literal(at);
}

/** Control, invisible and direction-changing characters: named, so nothing in a value hides or reorders what is shown. */
const hidden = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g;

/**
 * Memory text as a Markdown code span: its content is never parsed as Markdown or HTML (no link, image, autolink, tag or
 * emphasis), whatever it holds. The fence is one backtick longer than any run inside; line breaks become a visible
 * mark, so a value cannot end the list item and start a block of its own.
 */
export function literal(text: string): string {
  const shown = text.replace(/\r\n|\r|\n/g, ' ⏎ ').replace(/\t/g, ' ').replace(hidden, (char) => `[U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`);
  if (shown.trim().length === 0) return '_(empty)_';
  const longestRun = Math.max(0, ...[...shown.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(longestRun + 1);
  // One space inside each end is stripped by Markdown, so content that starts or ends with a backtick stays whole.
  return `${fence} ${shown} ${fence}`;
}
