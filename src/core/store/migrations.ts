import type { Database } from 'sql.js';
import { engramApplicationId } from './storeIdentity';

/**
 * The schema as an ordered list of steps. Step N brings the database to `PRAGMA user_version = N`.
 * Never edit a step that has shipped: add a new one.
 */
export const migrations: readonly string[] = [
  // 1: sessions and turns. Turn ids are unique operation ids, so replaying a write is harmless.
  `CREATE TABLE sessions (
     id         TEXT PRIMARY KEY,
     source     TEXT NOT NULL DEFAULT 'chat',
     started_at TEXT NOT NULL,
     last_at    TEXT NOT NULL
   );
   CREATE TABLE turns (
     id         TEXT PRIMARY KEY,
     session_id TEXT NOT NULL REFERENCES sessions(id),
     seq        INTEGER NOT NULL,
     role       TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
     text       TEXT NOT NULL,
     at         TEXT NOT NULL,
     ref        TEXT,
     tokens     INTEGER NOT NULL DEFAULT 0
   );
   CREATE INDEX turns_by_session ON turns(session_id, seq);`,
  // 2: how far the snapshot covers each writer's journal; full-text search over turns (sql.js has FTS4, not FTS5).
  `CREATE TABLE journal_marks (
     file   TEXT PRIMARY KEY,
     offset INTEGER NOT NULL
   );
   CREATE VIRTUAL TABLE turns_fts USING fts4(content="turns", text, tokenize=unicode61);
   INSERT INTO turns_fts (docid, text) SELECT rowid, text FROM turns;`,
  // 3: per-term statistics of the turn index (no storage of its own), so search can skip near-universal terms.
  `CREATE VIRTUAL TABLE turns_terms USING fts4aux(turns_fts);`,
  // 4: retention. A session keeps its summary when its turns cool away; a forgotten session leaves only a
  // tombstone (its id), so a turn of it replayed later from another journal is not brought back.
  `ALTER TABLE sessions ADD COLUMN summary TEXT;
   ALTER TABLE sessions ADD COLUMN cooled_at TEXT;
   CREATE TABLE forgotten_sessions (
     session_id TEXT PRIMARY KEY,
     at         TEXT NOT NULL
   );`,
  // 5: statements (beliefs about the owner), their audit trail, the turns that mentioned them, and their search index.
  `CREATE TABLE statements (
     id                TEXT PRIMARY KEY,
     key               TEXT NOT NULL,
     value             TEXT NOT NULL,
     cardinality       TEXT NOT NULL CHECK (cardinality IN ('single', 'multi')),
     status            TEXT NOT NULL CHECK (status IN ('proposed', 'confirmed', 'retired', 'rejected')),
     tier              TEXT NOT NULL CHECK (tier IN ('A', 'B', 'C')),
     origin            TEXT NOT NULL,
     source_turn_id    TEXT,
     source_session_id TEXT,
     source_words      TEXT NOT NULL,
     created_at        TEXT NOT NULL,
     updated_at        TEXT NOT NULL,
     asked_in_session  TEXT,
     tokens            INTEGER NOT NULL DEFAULT 0
   );
   CREATE INDEX statements_by_key ON statements(key, status);
   CREATE TABLE statement_events (
     id           TEXT PRIMARY KEY,
     statement_id TEXT NOT NULL,
     at           TEXT NOT NULL,
     action       TEXT NOT NULL,
     status_after TEXT NOT NULL,
     reason       TEXT NOT NULL,
     turn_id      TEXT
   );
   CREATE INDEX statement_events_by_statement ON statement_events(statement_id, at);
   CREATE INDEX statement_events_by_turn ON statement_events(turn_id);
   CREATE TABLE statement_mentions (
     statement_id TEXT NOT NULL,
     turn_id      TEXT NOT NULL,
     PRIMARY KEY (statement_id, turn_id)
   );
   CREATE VIRTUAL TABLE statements_fts USING fts4(content="statements", key, value, tokenize=unicode61);`,
  // 6: what each prompt carried (the context report, without the memory text itself) and the retrieval log:
  // which memories reached the model, injected or fetched by a tool. access_count makes "used" countable.
  `CREATE TABLE context_reports (
     id         TEXT PRIMARY KEY,
     turn_id    TEXT NOT NULL,
     session_id TEXT NOT NULL,
     at         TEXT NOT NULL,
     report     TEXT NOT NULL
   );
   CREATE INDEX context_reports_by_session ON context_reports(session_id, at);
   CREATE TABLE retrieval_log (
     report_id  TEXT NOT NULL,
     session_id TEXT NOT NULL,
     kind       TEXT NOT NULL,
     memory_id  TEXT NOT NULL,
     via        TEXT NOT NULL
   );
   CREATE INDEX retrieval_log_by_memory ON retrieval_log(memory_id);
   ALTER TABLE statements ADD COLUMN access_count INTEGER NOT NULL DEFAULT 0;`,
  // 7: how far the rolling summary has folded the conversation in (the seq of the last turn it covers).
  `ALTER TABLE sessions ADD COLUMN summary_upto INTEGER NOT NULL DEFAULT 0;`,
  // 8: behaviours (lessons): instructions born only from evidence, approved by the owner, with their audit trail.
  `CREATE TABLE behaviors (
     id               TEXT PRIMARY KEY,
     text             TEXT NOT NULL,
     status           TEXT NOT NULL CHECK (status IN ('proposed', 'approved', 'rejected', 'retired')),
     evidence         TEXT NOT NULL,
     evidence_turn_id TEXT,
     statement_id     TEXT,
     created_at       TEXT NOT NULL,
     updated_at       TEXT NOT NULL,
     tokens           INTEGER NOT NULL DEFAULT 0
   );
   CREATE TABLE behavior_events (
     id          TEXT PRIMARY KEY,
     behavior_id TEXT NOT NULL,
     at          TEXT NOT NULL,
     action      TEXT NOT NULL,
     reason      TEXT NOT NULL
   );`,
  // 9: scopes. A statement is about the owner or about one project ('project:<id>'); a project fact may cite the
  // lines of a file it rests on (JSON: path, lines, hash). A forgotten statement leaves only a tombstone (its id),
  // so its proposal replayed later from another journal is not brought back.
  `ALTER TABLE statements ADD COLUMN scope TEXT NOT NULL DEFAULT 'owner';
   ALTER TABLE statements ADD COLUMN citation TEXT;
   CREATE INDEX statements_by_scope ON statements(scope, status);
   CREATE TABLE forgotten_statements (
     statement_id TEXT PRIMARY KEY,
     at           TEXT NOT NULL
   );`,
  // 10: single turns the owner asked to forget ("forget what I just said"): a tombstone each, so a replay of another
  // writer's journal cannot bring the words back.
  `CREATE TABLE forgotten_turns (
     turn_id TEXT PRIMARY KEY,
     at      TEXT NOT NULL
   );`,
];

export const schemaVersion = migrations.length;

export class StoreTooNewError extends Error {
  constructor(readonly found: number) {
    super(
      `This memory store was written by a newer version of Engram (schema ${found}; this version knows ${schemaVersion}). ` +
        'Update Engram to use it. The store was left untouched.',
    );
    this.name = 'StoreTooNewError';
  }
}

export function readUserVersion(db: Database): number {
  const result = db.exec('PRAGMA user_version');
  return Number(result[0]?.values[0]?.[0] ?? 0);
}

/**
 * Brings the database up to date, one transaction per step; a step that fails rolls back and leaves
 * user_version at the last step that succeeded. Refuses a database newer than this code.
 */
export function migrate(db: Database): { from: number; to: number } {
  const from = readUserVersion(db);
  if (from > schemaVersion) throw new StoreTooNewError(from);
  for (let version = from + 1; version <= schemaVersion; version++) {
    db.exec('BEGIN');
    try {
      db.exec(migrations[version - 1]);
      db.exec(`PRAGMA user_version = ${version}`);
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw new Error(`Migrating the memory store to schema ${version} failed: ${(error as Error).message}`, { cause: error });
    }
  }
  // Marks the file as Engram's, so no other program's SQLite file is ever taken for a store (storeIdentity.ts).
  if (Number(db.exec('PRAGMA application_id')[0]?.values[0]?.[0] ?? 0) !== engramApplicationId) db.exec(`PRAGMA application_id = ${engramApplicationId}`);
  return { from, to: schemaVersion };
}
