import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Citation } from '../memory/statementRepository';
import { readContainedSync } from '../shared/containedFile';
import { citeLines } from './citations';

/**
 * Facts the repository states about itself, proposed with the lines they rest on and never confirmed on the file's
 * word: test_framework and formatter from package.json's dependencies, package_manager from its `packageManager`
 * field or the lockfile, the test and build commands from its scripts.
 */
export interface DerivedFact {
  readonly key: string;
  readonly value: string;
  readonly citation: Citation;
  /** What the proposal shows as its source. */
  readonly words: string;
}

const testFrameworks: Record<string, string> = {
  vitest: 'vitest', jest: 'jest', mocha: 'mocha', jasmine: 'jasmine', ava: 'AVA', '@playwright/test': 'Playwright', cypress: 'Cypress',
};
const formatters: Record<string, string> = { prettier: 'Prettier', '@biomejs/biome': 'Biome', dprint: 'dprint' };
const lockfiles: [string, string][] = [['pnpm-lock.yaml', 'pnpm'], ['yarn.lock', 'yarn'], ['bun.lock', 'bun'], ['package-lock.json', 'npm']];

/** The 1-based line of the first `"name":` key inside the `section` object of package.json's text. */
function lineOfKey(lines: readonly string[], name: string, section?: string): number | undefined {
  let from = 0;
  if (section) {
    from = lines.findIndex((line) => new RegExp(`^\\s*"${section}"\\s*:`).test(line));
    if (from < 0) return undefined;
  }
  const escaped = name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const at = lines.findIndex((line, i) => i >= from && new RegExp(`^\\s*"${escaped}"\\s*:`).test(line));
  return at < 0 ? undefined : at + 1;
}

function fromPackageJson(root: string, text: string, manager: string): DerivedFact[] {
  let manifest: { devDependencies?: Record<string, string>; dependencies?: Record<string, string>; scripts?: Record<string, string>; packageManager?: string };
  try {
    manifest = JSON.parse(text) as typeof manifest;
  } catch {
    return [];
  }
  const lines = text.split(/\r?\n/);
  const found: DerivedFact[] = [];
  const add = (key: string, value: string, line: number | undefined, why: string): void => {
    const citation = line ? citeLines(root, 'package.json', line) : undefined;
    if (citation && !found.some((f) => f.key === key)) found.push({ key, value, citation, words: `package.json line ${line}: ${why}` });
  };
  for (const section of ['devDependencies', 'dependencies'] as const) {
    for (const name of Object.keys(manifest[section] ?? {})) {
      if (testFrameworks[name]) add('test_framework', testFrameworks[name], lineOfKey(lines, name, section), `${name} in ${section}`);
      if (formatters[name]) add('formatter', formatters[name], lineOfKey(lines, name, section), `${name} in ${section}`);
      if (name === 'typescript') add('languages', 'TypeScript', lineOfKey(lines, name, section), `typescript in ${section}`);
    }
  }
  if (manifest.scripts?.test) add('test_command', manager === 'npm' ? 'npm test' : `${manager} test`, lineOfKey(lines, 'test', 'scripts'), 'the "test" script');
  if (manifest.scripts?.build) add('build_command', `${manager} run build`, lineOfKey(lines, 'build', 'scripts'), 'the "build" script');
  return found;
}

const maxManifestBytes = 1024 * 1024;

/** What a workspace folder says about itself, each with its citation. Reads two or three small files. */
export function deriveProjectFacts(root: string): DerivedFact[] {
  const found: DerivedFact[] = [];
  // Through the containment check: a package.json that is a link to outside, or a FIFO, is not read.
  const manifest = readContainedSync([root], 'package.json', maxManifestBytes);
  const manifestText = 'error' in manifest || manifest.size > maxManifestBytes ? undefined : Buffer.from(manifest.bytes).toString('utf8');
  const declared = manifestText ? /^\s*"packageManager"\s*:\s*"(npm|pnpm|yarn|bun)@/m.exec(manifestText) : null;
  let manager: string | undefined;
  if (declared && manifestText) {
    const line = manifestText.split(/\r?\n/).findIndex((text) => /^\s*"packageManager"\s*:/.test(text)) + 1;
    const citation = citeLines(root, 'package.json', line);
    manager = declared[1];
    if (citation) found.push({ key: 'package_manager', value: manager, citation, words: `package.json line ${line}: "packageManager"` });
  } else {
    for (const [file, name] of lockfiles) {
      const citation = existsSync(join(root, file)) ? citeLines(root, file, 1) : undefined;
      if (!citation) continue;
      manager = name;
      found.push({ key: 'package_manager', value: name, citation, words: `${file} (line 1): the lockfile of ${name}` });
      break;
    }
  }
  if (manifestText) found.push(...fromPackageJson(root, manifestText, manager ?? 'npm'));
  return found;
}
