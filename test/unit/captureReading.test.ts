import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { defaultAllowlist } from '../../src/core/memory/allowlist';
import { captureFacts } from '../../src/core/capture/capture';
import { ownWords, ownWordsLimit } from '../../src/core/capture/pastedText';

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

  it('reads facts said in passing, each asked about, never confirmed alone', () => {
    assert.deepEqual(facts("I'm on zsh on a Mac, why is nvm slow?"), ['shell=zsh:B', 'os=macOS:B']);
    assert.deepEqual(facts('i use yarn, not npm'), ['package_manager=yarn:B']);
    assert.deepEqual(facts('Emacs user here. How do I split windows?'), ['editor=Emacs:B']);
    assert.deepEqual(facts('how do i cache api responses in my flutter app'), ['frameworks=Flutter:B']);
    assert.deepEqual(facts('please always use early returns, I hate semicolons'), ['style=early returns:B', 'style=no semicolons:B']);
    assert.deepEqual(facts('I live in Osaka, so JST.'), ['location=Osaka:A', 'timezone=JST:B']);
  });

  it('keeps the later value of a correction in the same breath, and drops one taken back', () => {
    assert.deepEqual(facts("I'm in Lisbon — sorry, Porto. Which cron?"), ['location=Porto:B']);
    assert.deepEqual(facts("I'm in Berlin — no, that's where the team is"), []);
  });

  it('takes nothing from where the owner is in something, or from a persona', () => {
    for (const text of [
      "I'm on the React page of the docs and the example is old",
      "I'm at Starbucks and their wifi blocks port 22",
      'As an admin on the billing team, I want to export invoices.',
      "Mock interview time. I'm the candidate: Hi, I'm Raj, a data scientist at Meta.",
    ]) {
      assert.deepEqual(facts(text), [], text);
    }
  });

  it('reads French, Italian and Dutch too', () => {
    assert.deepEqual(facts('Je bosse chez Doctolib.'), ['employer=Doctolib:B']);
    assert.deepEqual(facts('Ik werk bij Bol in Utrecht als platform engineer.'), ['employer=Bol:B', 'role=platform engineer:B', 'location=Utrecht:B']);
    assert.deepEqual(facts('Sono Giulia e lavoro come sviluppatrice backend a Milano.'), ['name=Giulia:B', 'role=sviluppatrice backend:B', 'location=Milano:B']);
  });

  it("reads the owner's own sign-off, never a letter's", () => {
    assert.deepEqual(facts('Thanks, that fixed it.\n\n— Tom, SRE @ Datadog'), ['name=Tom:B', 'role=SRE:B', 'employer=Datadog:B']);
    assert.deepEqual(facts('Help me reply to this:\n\nThanks for the update.\n\n— Tom, SRE @ Datadog'), []);
  });

  it('confirms a tool only where the owner names its key', () => {
    assert.deepEqual(facts('I use pnpm.'), ['package_manager=pnpm:B']);
    assert.deepEqual(facts('I use pnpm as my package manager.'), ['package_manager=pnpm:A']);
    assert.deepEqual(facts('My package manager is pnpm.'), ['package_manager=pnpm:A']);
    assert.deepEqual(facts('My manager uses vim.'), []);
  });

  it('reads a bounded head of a 1 MB message and takes nothing from binary junk (its time is in bench: captureLargeMs)', () => {
    const prose = 'I work at Fernhill and my build fails when I run the tests. Can you look at this log? '.repeat(12_000);
    assert.ok(ownWords(prose).text.length <= ownWordsLimit, 'only the head is read');
    assert.ok(ownWords(prose).pasted, 'a message that long is never confirmed alone');
    assert.deepEqual(facts(randomBytes(1_000_000).toString('latin1')), []);
    assert.deepEqual(facts('a'.repeat(1_000_000)), []);
  });

  it('reads a profile the owner writes as "field = value" lines, and no config file that sets a name, a shell and an os', () => {
    assert.deepEqual(facts('Profile (please keep this):\nname = Hiroshi Watanabe\npronouns = he/him\nlocation = Sendai\nlanguages = C, Rust'), [
      'name=Hiroshi Watanabe:B', 'pronouns=he/him:B', 'location=Sendai:B', 'languages=C:B', 'languages=Rust:B',
    ]);
    assert.deepEqual(facts('why does this fail?\nname = build-bot\nshell = bash\nos = linux'), []);
    assert.deepEqual(facts('Here is my Cargo.toml:\nname = "engram"\nversion = "0.1.0"'), []);
    assert.deepEqual(facts('Profile (from LinkedIn):\nName: Jane Doe\nRole: CTO\nLocation: Austin'), []);
  });

  it('takes the one tool of a retired one\'s key named after it as its replacement, not one someone else uses or one asked about', () => {
    assert.deepEqual(facts('I stopped using zsh, plain bash is enough for me.'), ['shell=bash:B']);
    assert.deepEqual(facts('I no longer use Windows at all. Fully on Linux now.'), ['os=Linux:B']);
    assert.deepEqual(facts('I stopped using zsh because my team uses bash.'), []);
    assert.deepEqual(facts('I no longer use Windows. Maybe Fedora or Ubuntu?'), []);
  });

  it('reads a list under a heading with an aside before its colon, and a style preference without the language it is scoped to', () => {
    assert.deepEqual(facts('Code style, for the record: tabs, 100-char lines, trailing commas, and single quotes in TypeScript.'), [
      'style=tabs:B', 'style=100-char lines:B', 'style=trailing commas:B', 'style=single quotes:B',
    ]);
    assert.deepEqual(facts('My setup, since you asked: zsh as the default shell, Helix as the editor'), ['shell=zsh:B', 'editor=Helix:B']);
    assert.deepEqual(facts('My setup: Windows with WSL, Rider'), ['os=Windows:B', 'editor=Rider:B']);
    assert.deepEqual(facts('zsh + vim + yarn, thats my whole setup'), ['shell=zsh:B', 'editor=Vim:B', 'package_manager=yarn:B']);
  });

  it('takes nothing from a tool used here only, or only because a template needs it', () => {
    assert.deepEqual(facts("I'm using yarn here only because the template needs it."), []);
    assert.deepEqual(facts('I use yarn for everything.').map((fact) => fact.replace(/:[ABC]$/, '')), ['package_manager=yarn']);
  });
});
