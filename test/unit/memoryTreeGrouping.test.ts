import assert from 'node:assert/strict';
import type { StatementEvent, StatementRecord } from '../../src/core/memory/statementRepository';
import { confirmedDescription, describeFactSource, groupConfirmedByKey, truncate } from '../../src/host/memoryTreeModel';

function statement(overrides: Partial<StatementRecord>): StatementRecord {
  return {
    id: 'id', key: 'name', value: 'Dana', cardinality: 'single', status: 'confirmed', tier: 'A', origin: 'chat',
    sourceTurnId: 't1', sourceSessionId: 's1', sourceWords: 'My name is Dana',
    createdAt: '2024-05-01T10:00:00.000Z', updatedAt: '2024-05-01T10:00:00.000Z', tokens: 3, scope: 'owner',
    ...overrides,
  };
}

describe('Memory view model', () => {
  it('groups confirmed facts by key, keys alphabetical and newest value first, leaving other statuses out', () => {
    const groups = groupConfirmedByKey([
      statement({ id: 'rust', key: 'languages', value: 'Rust', cardinality: 'multi', updatedAt: '2024-05-01T10:00:00.000Z' }),
      statement({ id: 'dana', key: 'name', value: 'Dana' }),
      statement({ id: 'ts', key: 'languages', value: 'TypeScript', cardinality: 'multi', updatedAt: '2024-05-02T10:00:00.000Z' }),
      statement({ id: 'guess', key: 'editor', value: 'Helix', status: 'proposed' }),
      statement({ id: 'old', key: 'employer', value: 'Northwind', status: 'retired' }),
    ]);
    assert.deepEqual(
      groups.map((group) => [group.key, group.statements.map((s) => s.id)]),
      [['languages', ['ts', 'rust']], ['name', ['dana']]],
    );
  });

  it('returns no groups for no confirmed facts', () => {
    assert.deepEqual(groupConfirmedByKey([statement({ status: 'proposed' })]), []);
  });

  it('describes a confirmed fact by tier and local date', () => {
    const updatedAt = new Date(2024, 4, 1, 12, 0, 0).toISOString();
    assert.equal(confirmedDescription(statement({ tier: 'B', updatedAt })), 'tier B · 2024-05-01');
  });

  it('truncates source words to one line for pickers', () => {
    assert.equal(truncate('My name\n is   Dana', 100), 'My name is Dana');
    assert.equal(truncate('x'.repeat(120), 100).length, 100);
    assert.ok(truncate('x'.repeat(120), 100).endsWith('…'));
  });

  it('quotes the source words in a fence they cannot close, with the audit trail', () => {
    const words = 'I use ```bash``` and ````zsh````';
    const events: StatementEvent[] = [
      { id: 'e1', statementId: 'id', at: '2024-05-01T10:00:00.000Z', action: 'proposed', statusAfter: 'proposed', reason: 'captured from your words (tier A)', turnId: 't1' },
      { id: 'e2', statementId: 'id', at: '2024-05-01T10:00:01.000Z', action: 'confirmed', statusAfter: 'confirmed', reason: 'learned: a plain self-statement' },
    ];
    const text = describeFactSource(statement({ key: 'shell', value: 'zsh', sourceWords: words }), events);
    assert.ok(text.includes(`\`\`\`\`\`text\n${words}\n\`\`\`\`\`\n`), text);
    assert.match(text, /Turn: t1/);
    assert.match(text, /Session: s1/);
    assert.match(text, /proposed → proposed: captured from your words \(tier A\) \(turn t1\)/);
    assert.match(text, /confirmed → confirmed: learned: a plain self-statement/);
  });
});
