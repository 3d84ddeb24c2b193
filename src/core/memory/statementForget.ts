import type { Database } from 'sql.js';
import { selectAll } from '../store/rows';
import { findStatement } from './statementRepository';

/**
 * Forgetting a statement, unlike retiring it, leaves nothing of it behind: the row, its search entry, its audit
 * trail, its mentions, the retrieval log's rows, the labels context reports kept of it, and the words other
 * statements' audit entries quote of it ("superseded by test_framework = vitest"). A tombstone keeps the id, so a
 * replayed proposal stays forgotten. The journals and the snapshot lose it when the caller snapshots (secure_delete).
 */
export function forgetStatement(db: Database, statementId: string, at: string): boolean {
  const statement = findStatement(db, statementId);
  db.run('INSERT OR IGNORE INTO forgotten_statements (statement_id, at) VALUES (?, ?)', [statementId, at]);
  if (!statement) return false;
  db.run('DELETE FROM statements_fts WHERE docid = (SELECT rowid FROM statements WHERE id = ?)', [statementId]);
  // FTS4 keeps deleted terms in its segments until they merge: the statements index is small, so merge it now.
  db.run("INSERT INTO statements_fts (statements_fts) VALUES ('optimize')");
  db.run('DELETE FROM statements WHERE id = ?', [statementId]);
  db.run('DELETE FROM statement_events WHERE statement_id = ?', [statementId]);
  db.run('DELETE FROM statement_mentions WHERE statement_id = ?', [statementId]);
  db.run('DELETE FROM retrieval_log WHERE memory_id = ?', [statementId]);
  const quoted = `${statement.key} = ${statement.value}`;
  db.run("UPDATE statement_events SET reason = replace(reason, ?, ?) WHERE instr(reason, ?) > 0", [quoted, `${statement.key} = [forgotten]`, quoted]);
  for (const row of selectAll(db, 'SELECT id, report FROM context_reports WHERE instr(report, ?) > 0', [statementId])) {
    const report = JSON.parse(String(row.report)) as { retrieval?: { memoryId?: string; label?: string }[] };
    for (const entry of report.retrieval ?? []) if (entry.memoryId === statementId) entry.label = '[forgotten]';
    db.run('UPDATE context_reports SET report = ? WHERE id = ?', [JSON.stringify(report), String(row.id)]);
  }
  return true;
}
