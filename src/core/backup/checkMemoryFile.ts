import { isCitation, isStatementOrigin, isStatementScope } from '../memory/statementRepository';
import { isTurnRole } from '../store/turnRepository';
import { currentVersion, readableVersions, type ExportedBehavior, type ExportedSession, type ExportedStatement, type MemoryFile, type Tombstone } from './memoryFile';

/**
 * Checks a parsed backup file whole before anything is written: its format and version, the shape of every record,
 * every time (an ISO-8601 time, not "not a date"), every id (no id twice: a duplicate would be dropped without a
 * word), and text UTF-8 can store. Returns the file as version 2, or the problems found (the first ten), each saying
 * where it is.
 */
export function checkMemoryFile(value: unknown): MemoryFile | string {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return 'the file is not a JSON object, so it is not an Engram memory export';
  const data = value as Record<string, unknown>;
  if (data.format !== 'engram-memory') return 'the file is not an Engram memory export (its "format" is not "engram-memory")';
  const version = data.version;
  if (typeof version === 'number' && Number.isInteger(version) && version > currentVersion) {
    return `the export is format version ${version}, written by a newer Engram; this one reads versions ${readableVersions.join(' and ')}. Update Engram, then import it`;
  }
  if (!readableVersions.includes(version as 1 | 2)) return `the export's version ${JSON.stringify(version)} is not one this Engram reads (${readableVersions.join(' or ')})`;
  const check = new Checker();
  check.time(data.exportedAt, 'the export', 'exportedAt');
  const sessions = check.list(data.sessions, 'the export', 'sessions') ? (data.sessions as unknown[]) : [];
  sessions.forEach((session, index) => checkSession(check, session, index));
  const statements = version === 1 ? [] : check.list(data.statements, 'the export', 'statements') ? (data.statements as unknown[]) : [];
  statements.forEach((statement, index) => checkStatement(check, statement, index));
  const behaviors = version === 1 ? [] : check.list(data.behaviors, 'the export', 'behaviors') ? (data.behaviors as unknown[]) : [];
  behaviors.forEach((behavior, index) => checkBehavior(check, behavior, index));
  const forgotten = version === 1 ? {} : check.object(data.forgotten, 'the export', 'forgotten') ? (data.forgotten as Record<string, unknown>) : {};
  const tombstones = (name: 'sessions' | 'turns' | 'statements'): Tombstone[] => {
    if (version === 1) return [];
    const list = check.list(forgotten[name], 'the export', `forgotten.${name}`) ? (forgotten[name] as unknown[]) : [];
    list.forEach((tombstone, index) => {
      const where = `forgotten ${name} entry ${index + 1}`;
      if (!check.object(tombstone, where)) return;
      const t = tombstone as Record<string, unknown>;
      if (check.text(t.id, where, 'id')) check.unique(`forgotten ${name}`, String(t.id), where);
      check.time(t.at, where, 'at');
    });
    return list as Tombstone[];
  };
  const file: MemoryFile = {
    format: 'engram-memory',
    version: 2,
    exportedAt: String(data.exportedAt),
    sessions: sessions as ExportedSession[],
    statements: statements as ExportedStatement[],
    behaviors: behaviors as ExportedBehavior[],
    forgotten: { sessions: tombstones('sessions'), turns: tombstones('turns'), statements: tombstones('statements') },
  };
  if (check.problems.length === 0) checkForgottenAgainstKept(check, file);
  return check.problems.length === 0 ? file : check.report();
}

function checkSession(check: Checker, session: unknown, index: number): void {
  const where = `conversation ${index + 1}`;
  if (!check.object(session, where)) return;
  const s = session as Record<string, unknown>;
  if (check.text(s.id, where, 'id')) check.unique('conversation', String(s.id), where);
  check.oneOf(s.source, ['chat', 'import'], where, 'source');
  for (const field of ['startedAt', 'lastAt', 'cooledAt']) check.time(s[field], where, field, true);
  check.text(s.summary, where, 'summary', true);
  check.text(s.summaryUpto, where, 'summaryUpto', true);
  if (s.summaryUptoSeq !== undefined && !(Number.isInteger(s.summaryUptoSeq) && (s.summaryUptoSeq as number) >= 0)) {
    check.problem(where, `"summaryUptoSeq" is ${show(s.summaryUptoSeq)}, not a whole number`);
  }
  if (!check.list(s.turns, where, 'turns')) return;
  (s.turns as unknown[]).forEach((turn, turnIndex) => {
    const at = `turn ${turnIndex + 1} of ${where}`;
    if (!check.object(turn, at)) return;
    const t = turn as Record<string, unknown>;
    if (check.text(t.id, at, 'id')) check.unique('turn', String(t.id), at);
    if (!isTurnRole(t.role)) check.problem(at, `"role" is ${show(t.role)}, not "user" or "assistant"`);
    check.text(t.text, at, 'text');
    check.time(t.at, at, 'at');
    check.text(t.ref, at, 'ref', true);
  });
}

function checkStatement(check: Checker, statement: unknown, index: number): void {
  const where = `fact ${index + 1}`;
  if (!check.object(statement, where)) return;
  const s = statement as Record<string, unknown>;
  if (check.text(s.id, where, 'id')) check.unique('fact', String(s.id), where);
  if (!isStatementScope(s.scope)) check.problem(where, `"scope" is ${show(s.scope)}, not "owner" or "project:<id>"`);
  check.text(s.key, where, 'key');
  check.text(s.value, where, 'value');
  check.text(s.words, where, 'words');
  check.oneOf(s.cardinality, ['single', 'multi'], where, 'cardinality');
  check.oneOf(s.status, ['proposed', 'confirmed', 'retired', 'rejected'], where, 'status');
  check.oneOf(s.tier, ['A', 'B', 'C'], where, 'tier');
  if (!isStatementOrigin(s.origin)) check.problem(where, `"origin" is ${show(s.origin)}, not one Engram knows`);
  for (const field of ['sourceTurnId', 'sourceSessionId', 'askedInSession']) check.text(s[field], where, field, true);
  check.time(s.createdAt, where, 'createdAt');
  check.time(s.updatedAt, where, 'updatedAt');
  if (s.citation !== undefined && !isCitation(s.citation)) check.problem(where, '"citation" is not {path, lines: [from, to], hash}');
  if (check.list(s.mentions, where, 'mentions')) (s.mentions as unknown[]).forEach((mention, i) => check.text(mention, where, `mentions[${i}]`));
  if (!check.list(s.history, where, 'history')) return;
  (s.history as unknown[]).forEach((event, eventIndex) => {
    const at = `event ${eventIndex + 1} of ${where}`;
    if (!check.object(event, at)) return;
    const e = event as Record<string, unknown>;
    if (check.text(e.id, at, 'id')) check.unique('fact event', String(e.id), at);
    check.time(e.at, at, 'at');
    check.text(e.action, at, 'action');
    check.oneOf(e.statusAfter, ['proposed', 'confirmed', 'retired', 'rejected'], at, 'statusAfter');
    check.text(e.reason, at, 'reason');
    check.text(e.turnId, at, 'turnId', true);
  });
}

function checkBehavior(check: Checker, behavior: unknown, index: number): void {
  const where = `behaviour ${index + 1}`;
  if (!check.object(behavior, where)) return;
  const b = behavior as Record<string, unknown>;
  if (check.text(b.id, where, 'id')) check.unique('behaviour', String(b.id), where);
  check.text(b.text, where, 'text');
  check.oneOf(b.status, ['proposed', 'approved', 'rejected', 'retired'], where, 'status');
  check.text(b.evidence, where, 'evidence');
  check.text(b.evidenceTurnId, where, 'evidenceTurnId', true);
  check.text(b.statementId, where, 'statementId', true);
  check.time(b.createdAt, where, 'createdAt');
  check.time(b.updatedAt, where, 'updatedAt');
  if (!check.list(b.history, where, 'history')) return;
  (b.history as unknown[]).forEach((event, eventIndex) => {
    const at = `event ${eventIndex + 1} of ${where}`;
    if (!check.object(event, at)) return;
    const e = event as Record<string, unknown>;
    if (check.text(e.id, at, 'id')) check.unique('behaviour event', String(e.id), at);
    check.time(e.at, at, 'at');
    check.text(e.action, at, 'action');
    check.text(e.reason, at, 'reason');
  });
}

/** A record kept and forgotten in the same file cannot be both: the file was not written by Engram as it stands. */
function checkForgottenAgainstKept(check: Checker, file: MemoryFile): void {
  const forgottenSessions = new Set(file.forgotten.sessions.map((t) => t.id));
  const forgottenTurns = new Set(file.forgotten.turns.map((t) => t.id));
  const forgottenFacts = new Set(file.forgotten.statements.map((t) => t.id));
  file.sessions.forEach((session, index) => {
    if (forgottenSessions.has(session.id)) check.problem(`conversation ${index + 1}`, `its id ${show(session.id)} is also among the forgotten conversations`);
    session.turns.forEach((turn, turnIndex) => {
      if (forgottenTurns.has(turn.id)) check.problem(`turn ${turnIndex + 1} of conversation ${index + 1}`, `its id ${show(turn.id)} is also among the forgotten turns`);
    });
  });
  file.statements.forEach((statement, index) => {
    if (forgottenFacts.has(statement.id)) check.problem(`fact ${index + 1}`, `its id ${show(statement.id)} is also among the forgotten facts`);
  });
}

/** Strict ISO-8601 with a time and a zone, as Engram writes them: a time read two ways on two machines is no time. */
const isoTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

function show(value: unknown): string {
  if (value === undefined) return 'missing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

const maxProblems = 10;

class Checker {
  readonly problems: string[] = [];
  private more = 0;
  private readonly seen = new Map<string, string>();

  problem(where: string, what: string): void {
    if (this.problems.length < maxProblems) this.problems.push(`${where}: ${what}`);
    else this.more++;
  }

  report(): string {
    const total = this.problems.length + this.more;
    const list = this.problems.join('; ');
    return total === 1 ? list : `${total} problems (${list}${this.more > 0 ? `; and ${this.more} more` : ''})`;
  }

  object(value: unknown, where: string, field?: string): boolean {
    if (value && typeof value === 'object' && !Array.isArray(value)) return true;
    this.problem(where, field ? `"${field}" is not an object` : 'is not a JSON object');
    return false;
  }

  list(value: unknown, where: string, field: string): boolean {
    if (Array.isArray(value)) return true;
    this.problem(where, `"${field}" is ${value === undefined ? 'missing' : 'not a list'}`);
    return false;
  }

  text(value: unknown, where: string, field: string, optional = false): boolean {
    if (value === undefined && optional) return false;
    if (typeof value !== 'string') {
      this.problem(where, `"${field}" is ${value === undefined ? 'missing' : `${show(value)}, not text`}`);
      return false;
    }
    if (!value.isWellFormed()) {
      this.problem(where, `"${field}" holds a lone surrogate, which UTF-8 cannot store`);
      return false;
    }
    return true;
  }

  time(value: unknown, where: string, field: string, optional = false): void {
    if (value === undefined && optional) return;
    if (typeof value !== 'string' || !isoTime.test(value) || Number.isNaN(Date.parse(value))) {
      this.problem(where, `"${field}" is ${show(value)}, not an ISO-8601 time such as 2026-05-01T10:00:00Z`);
    }
  }

  oneOf(value: unknown, allowed: readonly string[], where: string, field: string): void {
    if (!allowed.includes(value as string)) this.problem(where, `"${field}" is ${show(value)}, not ${allowed.map((a) => `"${a}"`).join(', ')}`);
  }

  /** Ids are what make an import idempotent: the same id twice in one file is refused, never silently dropped. */
  unique(kind: string, id: string, where: string): void {
    const key = `${kind}\u0000${id}`;
    const first = this.seen.get(key);
    if (first) this.problem(where, `the ${kind} id ${show(id)} appears twice (first at ${first})`);
    else this.seen.set(key, where);
  }
}
