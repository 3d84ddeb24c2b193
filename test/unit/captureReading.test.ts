import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { defaultAllowlist } from '../../src/core/memory/allowlist';
import { captureFacts } from '../../src/core/memory/capture';
import { ownWords } from '../../src/core/memory/pastedText';

const facts = (text: string): string[] => captureFacts('user', text, defaultAllowlist).candidates.map((c) => `${c.key}=${c.value}:${c.tier}`);

describe('capture reads the sentence, not the string', () => {
  it('blanks pasted material: a letter with its signature, a log, a shell session, a transcript, a file after a lead-in', () => {
    const own = ownWords('Hi team,\nI am Grace, I live in Seattle.\nThanks,\nGrace\n\nis this a scam?').text;
    assert.doesNotMatch(own, /Grace|Seattle/);
    assert.match(own, /is this a scam/);
    assert.equal(ownWords('2026-11-30 10:02:11 INFO I am the leader\nwhy does it flap').text.trim(), '');
    assert.doesNotMatch(ownWords('$ echo "I work at $CO"\nI work at Initech\n\nI use fish').text, /Initech/);
    assert.doesNotMatch(ownWords('alice: i live in berlin\nbob: i am in lisbon\n\nsummarise please').text, /berlin|lisbon/);
    assert.doesNotMatch(ownWords('Here is my config file:\n\nname: Roberto\nemployer: Acme').text, /Roberto|Acme/);
    assert.ok(ownWords('> quoted').pasted);
  });

  it('takes nothing from an email the owner asks help with, even in the first person', () => {
    assert.deepEqual(facts('Help me reply to this:\n\nHi Sam,\nI’m Leah, the platform lead at Corbel. I’m based in Denver.\nBest,\nLeah'), []);
    assert.deepEqual(facts('can u help me respond to this? hey, im mateo, i run devrel at hatch and im based in bogotá'), []);
  });

  it('keeps the owner’s own fact next to pasted material, but never confirms it alone', () => {
    assert.deepEqual(facts('I work at Fernhill and this is the email I got from HR, help me reply:\n\nHi, I’m Dana from HR.'), ['employer=Fernhill:B']);
  });

  it('reads a compound introduction into its pieces, none confirmed without the owner', () => {
    const found = facts('Hi! I’m Maya, she/her, a frontend engineer on the growth team at Quillbox in Toronto.');
    for (const fact of ['pronouns=she/her', 'role=frontend engineer', 'team=growth', 'employer=Quillbox', 'location=Toronto']) {
      assert.ok(found.some((f) => f.startsWith(`${fact}:`)), `${fact} in ${found.join(', ')}`);
    }
    assert.ok(found.every((f) => !f.endsWith(':A')), found.join(', '));
  });

  it('skips idioms, sarcasm, the past, the future, negations and example data', () => {
    for (const text of [
      'I basically live in Vim these days.',
      'I live in fear of merge conflicts.',
      'Oh great, I’m a real senior engineer today 🙄',
      'I worked at Spotify for four years.',
      'I’ll be joining Stripe in January.',
      'I’m not a frontend developer.',
      'The regex should match sentences such as I work at Google.',
      'I joined a hiking group last month.',
      'i’m running ollama with qwen on my laptop',
    ]) {
      assert.deepEqual(facts(text), [], text);
    }
  });

  it('reads German, Spanish and Portuguese self-statements, confirming only "my name is"', () => {
    assert.deepEqual(facts('Ich heiße Jonas und arbeite bei Siemens in München.'), ['name=Jonas:A', 'employer=Siemens:B', 'location=München:B']);
    assert.deepEqual(facts('Vivo en Valencia y uso VS Code.'), ['location=Valencia:B', 'editor=VS Code:B']);
    assert.deepEqual(facts('Antes trabajaba en Telefónica.'), []);
  });

  it('keeps the plain shapes tier A', () => {
    assert.deepEqual(facts('I work at Calico.'), ['employer=Calico:A']);
    assert.deepEqual(facts('My name is Dana, by the way.'), ['name=Dana:A']);
    assert.deepEqual(facts('I live in Lisbon; show me pt-PT dates.'), ['location=Lisbon:A']);
  });

  it('stays fast on a 1 MB message and on binary junk (they took about 650 ms and 25 ms before the reader)', () => {
    const prose = 'I work at Fernhill and my build fails when I run the tests. Can you look at this log? '.repeat(12_000);
    const lines = Array.from({ length: 12_000 }, (_, i) => `I work at Fernhill ${i} and my build fails.`).join('\n');
    for (const text of [prose, lines, randomBytes(1_000_000).toString('latin1'), 'a'.repeat(1_000_000)]) {
      const started = performance.now();
      captureFacts('user', text, defaultAllowlist);
      const ms = performance.now() - started;
      assert.ok(ms < 400, `${ms.toFixed(0)} ms for ${text.length} characters`);
    }
  });
});
