// Loaded inside the extension host as `extensionTestsPath` (code-server or desktop VS Code): runs every compiled
// *.test.js beside this file with mocha, and reports through console.log, which the runners read.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type MochaType from 'mocha';

// mocha 12's package entry is ESM; its CommonJS build is required directly so this loads in any host's Node
// (code-server's Node 24, or an older Electron without require(esm)).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Mocha = require('mocha/lib/mocha.cjs') as typeof MochaType;

/** The runners look for this prefix; the rest of the line is JSON. */
export const RESULT_LINE_PREFIX = 'ENGRAM_VSCODE_RESULT ';

export interface SuiteResult {
  passed: number;
  failed: number;
  failures: { title: string; error: string }[];
}

export async function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: SilentReporter });
  const grep = process.env.ENGRAM_TEST_GREP;
  if (grep) mocha.grep(grep);
  const testFiles = fs
    .readdirSync(__dirname)
    .filter((name) => name.endsWith('.test.js'))
    .sort()
    .map((name) => path.join(__dirname, name));
  for (const file of testFiles) mocha.addFile(file);
  console.log(`mocha: ${testFiles.length} test files${grep ? `, grep ${JSON.stringify(grep)}` : ''}`);

  const result: SuiteResult = { passed: 0, failed: 0, failures: [] };
  await new Promise<void>((resolve) => {
    let runner: MochaType.Runner;
    try {
      runner = mocha.run(() => resolve());
    } catch (error) {
      // A test file that throws while loading: count it, so the run fails with a reason instead of hanging.
      result.failed++;
      result.failures.push({ title: 'loading test files', error: describeError(error) });
      console.log(`  FAIL loading test files: ${describeError(error)}`);
      resolve();
      return;
    }
    runner.on('pass', (test) => {
      result.passed++;
      console.log(`  PASS ${test.fullTitle()} (${test.duration ?? 0} ms)`);
    });
    runner.on('fail', (test, error) => {
      result.failed++;
      result.failures.push({ title: test.fullTitle(), error: describeError(error) });
      console.log(`  FAIL ${test.fullTitle()}\n${indent(describeError(error, true))}`);
    });
    runner.on('pending', (test) => console.log(`  SKIP ${test.fullTitle()}`));
  });

  console.log(RESULT_LINE_PREFIX + JSON.stringify(result));
  // The desktop runner cannot read the host's console reliably, so it asks for the result in a file as well.
  if (process.env.ENGRAM_TEST_RESULT_FILE) fs.writeFileSync(process.env.ENGRAM_TEST_RESULT_FILE, JSON.stringify(result));
  if (result.failed > 0) throw new Error(`${result.failed} of ${result.passed + result.failed} tests failed`);
}

/** Mocha needs a reporter; the lines above are the report, so this one only keeps the default stats. */
class SilentReporter extends Mocha.reporters.Base {}

function describeError(error: unknown, withStack = false): string {
  if (error instanceof Error) return withStack && error.stack ? error.stack : `${error.name}: ${error.message}`;
  return String(error);
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `      ${line}`)
    .join('\n');
}
