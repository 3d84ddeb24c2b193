import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(__dirname, '..', '..', '..');

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = join(folder, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

/** Every module specifier a file imports or requires. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)];
  return specifiers.map((match) => match[1]);
}

describe('layers', () => {
  it('src/core never imports vscode, src/host or src/cli', () => {
    const offenders = sourceFiles(join(root, 'src', 'core')).flatMap((file) =>
      importsOf(file)
        .filter((spec) => spec === 'vscode' || /(^|\/)(host|cli)\//.test(spec))
        .map((spec) => `${relative(root, file)} imports ${spec}`),
    );
    assert.deepEqual(offenders, []);
  });

  it('the import check itself sees a vscode import', () => {
    // Guards the test above against a regex that silently matches nothing.
    const sample = join(root, 'src', 'host', 'extension.ts');
    assert.ok(importsOf(sample).includes('vscode'));
  });

  it('only src/host imports vscode among the shipped sources', () => {
    const outside = ['src/cli', 'webview']
      .flatMap((folder) => {
        try {
          return sourceFiles(join(root, folder));
        } catch {
          return [];
        }
      })
      .filter((file) => importsOf(file).includes('vscode'))
      .map((file) => relative(root, file));
    assert.deepEqual(outside, []);
  });
});
