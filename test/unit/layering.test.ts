import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ESLint } from 'eslint';

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

  describe('inside the core, one way only (the lint zones of eslint.config.mjs)', function () {
    this.timeout(60_000);
    const eslint = new ESLint({ cwd: root });
    /** The import-rule messages ESLint gives a file at `path` that imports `specifier`. */
    async function verdict(path: string, specifier: string): Promise<string[]> {
      const [result] = await eslint.lintText(`import { x } from '${specifier}';\nexport const y = x;\n`, { filePath: join(root, path) });
      return result.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
    }

    it('fails an upward import: the store importing a domain, or turn/ (which need not exist yet)', async () => {
      for (const [file, specifier] of [
        ['src/core/store/probe.ts', '../memory/behaviors'],
        ['src/core/store/probe.ts', '../context/reportRepository'],
        ['src/core/store/probe.ts', '../recall/turnSearch'],
        ['src/core/store/probe.ts', '../domains'],
        ['src/core/shared/probe.ts', '../store/rows'],
        ['src/core/memory/probe.ts', '../turn/turnEngine'],
        ['src/core/memory/probe.ts', '../context/reportRepository'],
        ['src/core/capture/probe.ts', '../memory/facts'],
        ['src/core/capture/probe.ts', '../store/rows'],
        ['src/core/recall/probe.ts', '../turn/turnEngine'],
        ['src/core/turn/probe.ts', '../eval/replay'],
        ['src/core/turn/probe.ts', '../../host/extension'],
      ]) {
        const messages = await verdict(file, specifier);
        assert.equal(messages.length, 1, `${file} importing ${specifier} must fail the lint`);
      }
      assert.match((await verdict('src/core/store/probe.ts', '../memory/behaviors'))[0], /knows nothing of the layers above it/);
    });

    it('passes a downward or sideways import', async () => {
      for (const [file, specifier] of [
        ['src/core/store/probe.ts', '../shared/secrets'],
        ['src/core/store/probe.ts', './memoryExport'],
        ['src/core/memory/probe.ts', '../store/rows'],
        ['src/core/memory/probe.ts', '../capture/capture'],
        ['src/core/capture/probe.ts', '../shared/secrets'],
        ['src/core/capture/probe.ts', '../llm/chatModel'],
        ['src/core/turn/probe.ts', '../memory/facts'],
        ['src/core/snapshotWorker.ts', './domains'],
      ]) {
        assert.deepEqual(await verdict(file, specifier), [], `${file} may import ${specifier}`);
      }
    });

    it('finds no upward import in the tree as it is', () => {
      const offenders = ['store', 'shared'].flatMap((layer) =>
        sourceFiles(join(root, 'src', 'core', layer)).flatMap((file) =>
          importsOf(file)
            .filter((spec) => /(^|\/)(memory|context|recall|turn|eval|domains)(\/|$)/.test(spec))
            .map((spec) => `${relative(root, file)} imports ${spec}`),
        ),
      );
      assert.deepEqual(offenders, []);
    });

    it('finds no import from capture/ into memory/, the store or any layer above', () => {
      const offenders = sourceFiles(join(root, 'src', 'core', 'capture')).flatMap((file) =>
        importsOf(file)
          .filter((spec) => /(^|\/)(store|memory|context|recall|turn|eval|domains)(\/|$)/.test(spec))
          .map((spec) => `${relative(root, file)} imports ${spec}`),
      );
      assert.deepEqual(offenders, []);
    });
  });
});

