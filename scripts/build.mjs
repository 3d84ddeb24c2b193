// Bundles the extension, the CLI and the webview with esbuild, and copies sql.js's wasm beside them.
// Usage: node scripts/build.mjs [--watch] [--production]
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const nodeBundle = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  // sql.js probes for these at run time; they are never used under Node.
  external: ['vscode', 'better-sqlite3', 'crypto-browserify', 'path-browserify', 'sql.js/dist/sql-wasm.wasm'],
};

const builds = [
  { ...nodeBundle, entryPoints: [join(root, 'src/host/extension.ts')], outfile: join(root, 'dist/extension.js') },
  // Snapshots are written in a worker thread so a large export never blocks the extension host.
  { ...nodeBundle, entryPoints: [join(root, 'src/core/snapshotWorker.ts')], outfile: join(root, 'dist/snapshotWorker.js') },
  // The CLI bundle, and the small `engram` entry that runs it from V8's code cache (src/cli/launcher.ts).
  { ...nodeBundle, entryPoints: [join(root, 'src/cli/main.ts')], outfile: join(root, 'dist/cliMain.js') },
  {
    ...nodeBundle,
    entryPoints: [join(root, 'src/cli/launcher.ts')],
    outfile: join(root, 'dist/cli.js'),
    banner: { js: '#!/usr/bin/env node' },
  },
];

/** A webview page: one script (its libraries bundled in) and the stylesheet it imports, for the browser. */
const webviewPage = (name) => ({
  entryPoints: [join(root, `webview/${name}.ts`)],
  outfile: join(root, `dist/webview/${name}.js`),
  bundle: true,
  platform: 'browser',
  format: 'iife',
  target: 'es2022',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
});
// The context panel bundles the webview UI toolkit; the memory graph bundles its layout library (@antv/hierarchy).
builds.push(webviewPage('contextPanel'), webviewPage('memoryGraph'));

rmSync(join(root, 'dist'), { recursive: true, force: true });
mkdirSync(join(root, 'dist'), { recursive: true });
copyFileSync(require.resolve('sql.js/dist/sql-wasm.wasm'), join(root, 'dist/sql-wasm.wasm'));

if (watch) {
  for (const options of builds) await (await esbuild.context(options)).watch();
  console.log('watching for changes...');
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
  console.log(`built dist/ (${production ? 'production' : 'development'})`);
}
