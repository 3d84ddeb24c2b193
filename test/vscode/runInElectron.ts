// The same test/vscode suite under desktop VS Code via @vscode/test-electron, for machines WITH internet:
// runTests downloads VS Code from Microsoft on first use. CI is offline and uses runInCodeServer.js instead.
// Usage: node out/test/vscode/runInElectron.js [--grep PATTERN]   Env: ENGRAM_VSCODE_VERSION (default 'stable').
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { REPO_ROOT } from '../support/codeServer';
import type { SuiteResult } from './index';

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const grepIndex = argv.indexOf('--grep');
  const grep = grepIndex === -1 ? undefined : argv[grepIndex + 1];
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-electron-'));
  const workspace = path.join(scratch, 'workspace');
  const userDataDir = path.join(scratch, 'user-data');
  const extensionsDir = path.join(scratch, 'extensions');
  fs.mkdirSync(workspace, { recursive: true });
  // The desktop host's console goes to this process's stdout, mixed with Electron's own; a file is unambiguous.
  const resultFile = path.join(scratch, 'result.json');
  try {
    let exitCode: number;
    try {
      exitCode = await runTests({
        version: process.env.ENGRAM_VSCODE_VERSION ?? 'stable',
        extensionDevelopmentPath: REPO_ROOT,
        extensionTestsPath: path.join(__dirname, 'index.js'),
        extensionTestsEnv: { ENGRAM_TEST: '1', ENGRAM_TEST_GREP: grep, ENGRAM_TEST_RESULT_FILE: resultFile },
        launchArgs: [
          workspace,
          '--disable-extensions',
          '--disable-workspace-trust',
          '--skip-welcome',
          '--skip-release-notes',
          `--user-data-dir=${userDataDir}`,
          `--extensions-dir=${extensionsDir}`,
        ],
      });
    } catch (error) {
      // runTests rejects (TestRunFailedError) when the suite fails; the result file still says how.
      console.error(error instanceof Error ? error.message : error);
      exitCode = 1;
    }
    if (!fs.existsSync(resultFile)) {
      console.error('vscode: the suite wrote no result (did the extension host start?)');
      return 1;
    }
    const result = JSON.parse(fs.readFileSync(resultFile, 'utf8')) as SuiteResult;
    console.log(`vscode: ${result.passed} passed, ${result.failed} failed`);
    for (const failure of result.failures) console.error(`  failed: ${failure.title}: ${failure.error}`);
    return exitCode === 0 && result.failed === 0 ? 0 : 1;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
