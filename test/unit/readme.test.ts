import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');

describe('README and CI agree', () => {
  it('.ci/run runs exactly the test command of the Quick start', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const quickStart = readme.slice(readme.indexOf('## Quick start'));
    const block = /```sh\n([\s\S]*?)```/.exec(quickStart)?.[1] ?? '';
    const testLine = block.split('\n').find((line) => /npm test/.test(line));
    assert.ok(testLine, 'the Quick start names a test command');
    const readmeCommand = testLine.replace(/#.*$/, '').trim();
    const ci = readFileSync(join(root, '.ci', 'run'), 'utf8');
    const ciCommand = ci.trim().split('\n').at(-1)?.trim();
    assert.equal(ciCommand, readmeCommand);
  });
});
