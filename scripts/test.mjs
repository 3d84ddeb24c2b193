// `npm test`: everything a change must pass, in order, with one summary line per suite and a total.
// build -> type check -> lint -> compile tests -> unit tests (plain Node) -> tests inside a real VS Code.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

/** Runs a command with its output shown live and kept, so summary lines can be read from it. */
function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    let output = '';
    const keep = (stream, target) =>
      stream.on('data', (chunk) => {
        output += chunk;
        target.write(chunk);
      });
    keep(child.stdout, process.stdout);
    keep(child.stderr, process.stderr);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

async function step(title, command, args) {
  console.log(`\n== ${title}`);
  const result = await run(command, args);
  if (result.code !== 0) {
    console.error(`\n${title} failed (exit ${result.code})`);
    process.exit(result.code);
  }
  return result;
}

await step('build', process.execPath, ['scripts/build.mjs']);
await step('type check', npx, ['tsc', '--noEmit', '-p', '.']);
await step('lint', npx, ['eslint', '--no-error-on-unmatched-pattern', 'src', 'test', 'webview', 'scripts']);
await step('compile tests', npx, ['tsc', '-p', '.']);

const totals = { passed: 0, failed: 0 };
const lines = [];

console.log('\n== unit tests (plain Node)');
const unit = await run(npx, ['mocha', '--config', '.mocharc.json', '--reporter', 'dot']);
const unitPassed = Number(/(\d+) passing/.exec(unit.output)?.[1] ?? 0);
const unitFailed = Number(/(\d+) failing/.exec(unit.output)?.[1] ?? (unit.code === 0 ? 0 : 1));
lines.push(`unit: ${unitPassed} passed, ${unitFailed} failed`);
totals.passed += unitPassed;
totals.failed += unitFailed;

if (process.env.ENGRAM_SKIP_VSCODE_TESTS === '1') {
  lines.push('vscode: skipped (ENGRAM_SKIP_VSCODE_TESTS=1)');
} else {
  console.log('\n== tests inside a real VS Code (code-server)');
  const vscode = await run(process.execPath, ['out/test/vscode/runInCodeServer.js']);
  const match = /vscode: (\d+) passed, (\d+) failed/.exec(vscode.output);
  const passed = Number(match?.[1] ?? 0);
  const failed = match ? Number(match[2]) : 1;
  lines.push(`vscode: ${passed} passed, ${failed} failed${match ? '' : ' (the VS Code run did not finish; see above)'}`);
  totals.passed += passed;
  totals.failed += failed || (vscode.code === 0 ? 0 : 1);
}

console.log('');
for (const line of lines) console.log(line);
console.log(`total: ${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed === 0 ? 0 : 1);
