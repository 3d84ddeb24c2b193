import type { StatementEvent, StatementRecord } from '../core/memory/statementRepository';

/**
 * The plain-TypeScript half of the Memory view and the fact commands: grouping and wording. It does not
 * import vscode, so the unit tests can run it without an editor.
 */

/** The confirmed facts of one key, newest first: a single-valued key has one, a multi-valued key may have many. */
export interface ConfirmedKeyGroup {
  readonly key: string;
  readonly statements: readonly StatementRecord[];
}

/** Groups confirmed statements by key (keys alphabetical, newest value first); other statuses are left out. */
export function groupConfirmedByKey(statements: readonly StatementRecord[]): ConfirmedKeyGroup[] {
  const byKey = new Map<string, StatementRecord[]>();
  for (const statement of statements) {
    if (statement.status !== 'confirmed') continue;
    const group = byKey.get(statement.key) ?? [];
    group.push(statement);
    byKey.set(statement.key, group);
  }
  return [...byKey.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, group]) => ({ key, statements: [...group].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)) }));
}

export function factLabel(statement: Pick<StatementRecord, 'key' | 'value'>): string {
  return `${statement.key} = ${statement.value}`;
}

/** A list of facts for one sentence: "name = Dana, employer = Fernhill". */
export function factList(statements: readonly StatementRecord[]): string {
  return statements.map(factLabel).join(', ');
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** The local calendar date of an ISO time, as YYYY-MM-DD (the locale's format varies; this sorts and reads the same everywhere). */
export function localDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export function localDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${localDate(iso)} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** "tier A · 2024-05-01": how sure the capture was, and when the fact last changed. */
export function confirmedDescription(statement: StatementRecord): string {
  return `tier ${statement.tier} · ${localDate(statement.updatedAt)}`;
}

/** One line, at most `max` characters: for pickers, which show a single line of detail. */
export function truncate(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, Math.max(0, max - 1))}…`;
}

export function lastReason(events: readonly StatementEvent[]): string | undefined {
  return events.at(-1)?.reason;
}

const originWords: Record<StatementRecord['origin'], string> = {
  chat: 'captured from your words in the chat',
  remember: 'typed by you in Remember…',
  import: 'imported from an Engram memory export',
  agent: 'proposed by another agent over MCP (not your words)',
  derived: 'read off the repository, with its citation',
  shared: "from the team's shared project facts file",
};

export function describeOrigin(statement: StatementRecord): string {
  return originWords[statement.origin];
}

/** A code fence longer than any backtick run in the text, so the owner's words cannot close it early. */
function fenceFor(text: string): string {
  const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  return '`'.repeat(Math.max(3, longestRun + 1));
}

/** The "Show Source Turn" document: the fact, where it came from word for word, and every change to it. */
export function describeFactSource(statement: StatementRecord, events: readonly StatementEvent[]): string {
  const fence = fenceFor(statement.sourceWords);
  const lines = [
    `# ${factLabel(statement)}`,
    '',
    `- Status: ${statement.status} (tier ${statement.tier}, ${describeOrigin(statement)})`,
    `- Turn: ${statement.sourceTurnId ?? '(none: not from a chat turn)'}`,
    `- Session: ${statement.sourceSessionId ?? '(none)'}`,
    `- Statement: ${statement.id}`,
    `- First recorded: ${localDateTime(statement.createdAt)}; last changed: ${localDateTime(statement.updatedAt)}`,
    '',
    '## The exact words it came from',
    '',
    `${fence}text`,
    statement.sourceWords,
    fence,
    '',
    '## Audit trail',
    '',
    ...(events.length === 0
      ? ['(no events recorded)']
      : events.map((event) => `- ${localDateTime(event.at)} · ${event.action} → ${event.statusAfter}: ${event.reason}` +
          (event.turnId ? ` (turn ${event.turnId})` : ''))),
    '',
  ];
  return lines.join('\n');
}
