import assert from 'node:assert/strict';
import { join } from 'node:path';
import { literal, memoryMarkdown } from '../../src/core/backup/memoryMarkdown';
import { EngramMemory } from '../../src/core/turn/engramMemory';
import { fillMemory } from '../support/memoryFixture';
import { openTestStore, tempFolder, wordCounter } from '../support/tempStore';

/** Everything of the text outside the code spans `literal` writes: what Markdown would parse as markup. */
function outsideCodeSpans(markdown: string): string {
  return markdown.replace(/(`+) (.*?) \1(?!`)/g, '‹span›');
}

describe('the Markdown view of the memory', function () {
  this.timeout(30_000);
  let temp: ReturnType<typeof tempFolder>;
  beforeEach(() => (temp = tempFolder('engram-markdown-')));
  afterEach(() => temp.remove());

  it('lists beliefs with where they came from, what is no longer believed and why, behaviours and each project', async () => {
    const store = await openTestStore(join(temp.folder, 'store'));
    await fillMemory(store);
    const text = memoryMarkdown(store, new Date('2026-12-01T20:00:00Z'));
    await store.close();
    assert.match(text, /^# What Engram remembers\n\n> \*\*This file is a view, not the memory\.\*\* Engram wrote it on 2026-12-01 at 20:00 UTC/);
    assert.match(text, /## What Engram believes about you \(2\)\n\n- ` employer ` = ` Calico ` — confirmed 2026-03-01; typed by you in Remember…/);
    assert.match(text, /- ` name ` = ` Priya ` — confirmed 2026-03-01; from your words in a chat on 2026-03-01: ` My name is Priya\. `/);
    assert.match(text, /## What Engram no longer believes, and why \(1\)\n\n- ` employer ` = ` Northwind Labs ` — retired 2026-03-01: ` superseded by employer = Calico/);
    assert.match(text, /## What you said no to \(1\)\n\n- ` editor ` = ` Emacs ` — rejected/);
    assert.match(text, /### Followed in every prompt \(approved\) \(1\)\n\n- ` Check the user's current employer before naming it ` — approved/);
    assert.match(text, /### ` github\.com\/acme\/app `\n\n#### Believed \(2\)/);
    assert.ok(!text.includes('vegan'), 'a forgotten fact is not in the view');
  });

  it('shows hostile memory text literally: no link, no HTML, no heading, no hidden characters', async () => {
    const store = await openTestStore(join(temp.folder, 'store'));
    const memory = new EngramMemory(store, wordCounter);
    const hostile = [
      '[click me](command:workbench.action.terminal.new) <img src=x onerror=alert(1)> **bold** https://evil.example',
      'vim ``` `` ` backticks\n\n# Injected heading\n<script>alert(1)</script>',
      'safe\u202Eevil\u200Bhidden',
    ];
    memory.facts.remember('editor', hostile[0]);
    memory.facts.remember('languages', hostile[1]);
    memory.facts.remember('shell', hostile[2]);
    const text = memoryMarkdown(store);
    await store.close();
    const markup = outsideCodeSpans(text);
    for (const needle of ['](command:', '<img', 'onerror', '**bold**', 'evil.example', '<script>', '# Injected', '\u202E', '\u200B']) {
      assert.ok(!markup.includes(needle), `${JSON.stringify(needle)} is outside a code span`);
    }
    assert.equal(literal(hostile[2]), '` safe[U+202E]evil[U+200B]hidden `', 'invisible and direction-changing characters are named');
    assert.ok(!/\n# Injected/.test(text), 'a line break in a value starts no block');
    assert.equal(literal('a ``` b'), '```` a ``` b ````', 'the fence is longer than any run of backticks inside');
    assert.equal(literal('`x`'), '`` `x` ``');
  });
});
