import assert from 'node:assert/strict';
import { defaultAllowlist } from '../../src/core/memory/allowlist';
import { Facts } from '../../src/core/memory/facts';
import type { MemoryStore } from '../../src/core/store/memoryStore';
import { openTestStore, tempFolder, wordCounter } from '../support/tempStore';
import { memoryStats } from '../../src/core/context/memoryStats';

describe('facts: tiers, confirmation, supersession and the audit trail', () => {
  let temp: ReturnType<typeof tempFolder>;
  let store: MemoryStore;
  let facts: Facts;
  beforeEach(async () => {
    temp = tempFolder();
    store = await openTestStore(temp.folder);
    facts = new Facts(store, () => defaultAllowlist, wordCounter);
  });
  afterEach(async () => {
    await store.close();
    temp.remove();
  });

  function say(sessionId: string, text: string): ReturnType<Facts['captureFromTurn']> {
    const turn = store.recordTurn({ sessionId, role: 'user', text });
    return facts.captureFromTurn(turn);
  }

  it('confirms plain self-statements in the turn, with their words and turn', () => {
    const result = say('s1', 'My name is Dana and I work at Fernhill');
    assert.deepEqual(result.learned.map((s) => `${s.key}=${s.value}`), ['name=Dana', 'employer=Fernhill']);
    const employer = facts.list('confirmed').find((s) => s.key === 'employer');
    assert.equal(employer?.sourceWords, 'My name is Dana and I work at Fernhill');
    assert.equal(employer?.sourceSessionId, 's1');
    assert.deepEqual(memoryStats(store).facts, { proposed: 0, confirmed: 2, retired: 0, rejected: 0 });
  });

  it('supersedes a single-valued key and names the turn in the audit; a multi key accumulates', () => {
    say('s1', 'I work at Northwind Labs');
    const moved = store.recordTurn({ sessionId: 's8', role: 'user', text: 'I work at Calico' });
    facts.captureFromTurn(moved);
    const old = facts.list('retired')[0];
    assert.equal(old.value, 'Northwind Labs');
    const reason = facts.history(old.id).at(-1)?.reason ?? '';
    assert.match(reason, /superseded by employer = Calico/);
    assert.ok(reason.includes(moved.id), 'the audit names the turn');
    say('s1', 'I write Rust');
    say('s1', 'I write TypeScript');
    assert.deepEqual(facts.list('confirmed').filter((s) => s.key === 'languages').map((s) => s.value).sort(), ['Rust', 'TypeScript']);
  });

  it('takes back the last learned batch with "undo last learned", leaving the reason', () => {
    say('s1', 'My name is Dana and I work at Fernhill');
    const undone = facts.undoLastLearned('s1');
    assert.equal(undone.length, 2);
    assert.deepEqual(facts.list('confirmed'), []);
    assert.match(facts.history(undone[0].id).at(-1)?.reason ?? '', /undo last learned/);
  });

  it('asks about at most one inferred fact per conversation and queues the rest', () => {
    const first = say('s1', 'I switched to Helix');
    assert.equal(first.question?.key, 'editor');
    assert.equal(first.learned.length, 0);
    const second = say('s1', 'I moved to Berlin last month');
    assert.equal(second.question, undefined, 'a second question in the same conversation is not asked');
    assert.equal(second.queued[0]?.key, 'location');
    const elsewhere = say('s2', "I'm at Calico now");
    assert.equal(elsewhere.question?.key, 'employer', 'another conversation may ask once');
  });

  it('confirms a proposal said in three separate turns; confidence alone never does', () => {
    assert.equal(say('s1', "Hi! I'm Priya").queued[0]?.tier, 'C');
    assert.equal(say('s2', "I'm Priya").learned.length, 0);
    const third = say('s3', "I'm Priya");
    assert.deepEqual(third.learned.map((s) => s.value), ['Priya']);
    assert.match(facts.history(third.learned[0].id).at(-1)?.reason ?? '', /3 separate turns/);
  });

  it('reads past a participant mention typed into the message', () => {
    const result = say('s1', '@engram My name is Dana and I work at Fernhill');
    assert.deepEqual(result.learned.map((s) => s.key), ['name', 'employer']);
  });

  it('never confirms "i am running ollama for local models" as a name', () => {
    const result = say('s1', 'i am running ollama for local models');
    assert.deepEqual([result.learned, result.queued, result.question], [[], [], undefined]);
  });

  it('does not propose again what the owner rejected, but Remember… can bring it back', () => {
    const asked = say('s1', 'I moved to Berlin last month').question;
    assert.ok(asked);
    facts.reject(asked.id);
    assert.equal(say('s2', 'I moved to Berlin last month').question, undefined);
    assert.equal(facts.list('proposed').length, 0);
    const remembered = facts.remember('location', 'Berlin');
    assert.equal(remembered.status, 'confirmed');
  });

  it('edits a value with the old one in the audit, and refuses secrets and unknown keys', () => {
    const [dana] = say('s1', 'My name is Dan').learned;
    const edited = facts.edit(dana.id, 'Dana');
    assert.equal(edited.value, 'Dana');
    assert.match(facts.history(dana.id).at(-1)?.reason ?? '', /was Dan/);
    assert.throws(() => facts.remember('name', 'sk-abcdefghijklmnop1234'), /secret/);
    assert.throws(() => facts.remember('salary', '100k'), /not a key/);
  });

  it("queues another agent's proposal for review (tier C), refuses secrets, unknown keys and rejected values, and never confirms it", () => {
    const first = facts.proposeFromAgent({ key: 'Employer', value: ' Calico ', evidence: 'the user said: I work at Calico', client: 'claude-code' });
    assert.equal(first.outcome, 'proposed');
    assert.deepEqual([first.statement.key, first.statement.value, first.statement.status, first.statement.tier, first.statement.origin], ['employer', 'Calico', 'proposed', 'C', 'agent']);
    for (let i = 0; i < 4; i++) assert.equal(facts.proposeFromAgent({ key: 'employer', value: 'Calico', client: 'claude-code' }).outcome, 'already proposed');
    assert.equal(facts.get(first.statement.id).status, 'proposed', 'an agent repeating itself is not the owner repeating');
    assert.throws(() => facts.proposeFromAgent({ key: 'employer', value: 'sk-abcdefghijklmnop1234', client: 'x' }), /secret/);
    assert.throws(() => facts.proposeFromAgent({ key: 'favourite_colour', value: 'teal', client: 'x' }), /not a key Engram may learn/);
    facts.reject(first.statement.id);
    assert.throws(() => facts.proposeFromAgent({ key: 'employer', value: 'Calico', client: 'x' }), /rejected employer = Calico before/);
    const redacted = facts.proposeFromAgent({ key: 'editor', value: 'Helix', evidence: 'my token is ghp_abcdefghijklmnopqrstuvwxyz', client: 'x' });
    assert.doesNotMatch(redacted.statement.sourceWords, /ghp_/);
    assert.equal(memoryStats(store).facts.confirmed, 0);
  });

  it("lets the owner's own plain words confirm what an agent had only proposed", () => {
    const proposal = facts.proposeFromAgent({ key: 'employer', value: 'Calico', client: 'claude-code' }).statement;
    const result = say('s1', 'I work at Calico');
    assert.deepEqual(result.learned.map((s) => `${s.key}=${s.value}:${s.origin}`), ['employer=Calico:chat'], 'learned now, as without the agent');
    assert.equal(facts.get(proposal.id).status, 'retired');
    assert.match(facts.history(proposal.id).at(-1)?.reason ?? '', /the owner said it in their own words/);
    assert.deepEqual(facts.undoLastLearned('s1').map((s) => s.value), ['Calico'], 'with its undo');
  });

  it('keeps secrets out of the recorded conversation too', () => {
    const turn = store.recordTurn({ sessionId: 's1', role: 'user', text: 'my OpenAI key is sk-live1234567890abcdefgh, why 401?' });
    assert.ok(!turn.text.includes('sk-live1234567890'), turn.text);
    assert.match(turn.text, /\[secret removed\]/);
  });

  it('survives a reopen: statements and their history are journaled', async () => {
    say('s1', 'I live in Lisbon');
    await store.close();
    store = await openTestStore(temp.folder);
    facts = new Facts(store, () => defaultAllowlist, wordCounter);
    const [lisbon] = facts.list('confirmed');
    assert.equal(lisbon.value, 'Lisbon');
    assert.deepEqual(facts.history(lisbon.id).map((e) => e.action), ['proposed', 'confirmed']);
  });
});
