import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');

/** The commands of the README's Quick start block, without their comments. */
function quickStartCommands(): string[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const quickStart = readme.slice(readme.indexOf('## Quick start'));
  const block = /```sh\n([\s\S]*?)```/.exec(quickStart)?.[1] ?? '';
  return block
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line.length > 0);
}

describe('README and CI agree', () => {
  it('.ci/run runs exactly the run command of the Quick start, from an empty tools folder', () => {
    const startLine = quickStartCommands().find((line) => /npm start/.test(line));
    assert.ok(startLine, 'the Quick start names a run command');
    const ci = readFileSync(join(root, '.ci', 'run'), 'utf8');
    assert.ok(ci.includes(`bash -c '${startLine}'`), `.ci/run does not run "${startLine}"`);
    assert.match(ci, /ENGRAM_TOOLS_DIR=\$\(mktemp -d/);
    assert.doesNotMatch(ci, /setup-code-server/, '.ci/run must not install code-server behind the README\'s back');
  });

  it('.ci/run runs exactly the test command of the Quick start', () => {
    const testLine = quickStartCommands().find((line) => /npm test/.test(line));
    assert.ok(testLine, 'the Quick start names a test command');
    const readmeCommand = testLine;
    const ci = readFileSync(join(root, '.ci', 'run'), 'utf8');
    const ciCommand = ci.trim().split('\n').at(-1)?.trim();
    assert.equal(ciCommand, readmeCommand);
  });
});
