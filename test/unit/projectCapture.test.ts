import assert from 'node:assert/strict';
import { defaultAllowlist } from '../../src/core/memory/allowlist';
import { captureFacts } from '../../src/core/capture/capture';
import { defaultProjectAllowlist } from '../../src/core/memory/projectAllowlist';
import { captureProjectFacts } from '../../src/core/capture/projectCapture';

const project = (text: string): string[] => captureProjectFacts('user', text, defaultProjectAllowlist).map((c) => `${c.key}=${c.value}:${c.tier}`);
const owner = (text: string): string[] => captureFacts('user', text, defaultAllowlist).candidates.map((c) => `${c.key}=${c.value}`);

describe('project capture: what is true of this repository, from the owner’s words', () => {
  it('reads first-person-plural and "here" / "in this repo" shapes as project facts, not owner facts', () => {
    const cases: [string, string[]][] = [
      ['we use vitest here', ['test_framework=vitest:A']],
      ['We use pnpm in this repo.', ['package_manager=pnpm:A']],
      ['this repo uses Prettier', ['formatter=Prettier:A']],
      ['In this repo we use mocha', ['test_framework=mocha:A']],
      ['The test command is `npm test` in this repo', ['test_command=npm test:A']],
      ['we build with `make dist`', ['build_command=make dist:B']],
      ['never edit generated/', ['do_not_touch=generated/:B']],
      ['tabs in this repo', ['style_rules=indent with tabs:B']],
      ['we decided to keep the API synchronous', ['decisions=keep the API synchronous:B']],
      ['I use pnpm in this repo', ['package_manager=pnpm:B']],
      ['we use vitest', ['test_framework=vitest:B']],
    ];
    for (const [text, expected] of cases) {
      assert.deepEqual(project(text), expected, text);
      assert.deepEqual(owner(text), [], `${text}: not about the owner`);
    }
  });

  it('leaves the owner’s own statements to the owner, and takes nothing from questions, negations, plans or quotes', () => {
    assert.deepEqual(project('I use pnpm as my package manager'), []);
    assert.deepEqual(owner('I use pnpm as my package manager'), ['package_manager=pnpm']);
    assert.deepEqual(owner('Priya here'), ['name=Priya'], 'an introduction is not a project marker');
    for (const text of ['do we use jest here?', "we don't use jest here", 'we are going to use vitest here', 'He wrote "we use jest here"',
      '> we use jest here', 'off the record: we use jest here', 'we use jest here, token ghp_abcdefghijklmnopqrstuvwxyz0123456789']) {
      assert.deepEqual(project(text), [], text);
    }
    assert.deepEqual(captureProjectFacts('assistant', 'we use jest here', defaultProjectAllowlist), [], 'never the assistant’s words');
  });
});
