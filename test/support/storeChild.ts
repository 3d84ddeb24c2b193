// A separate process that works on a store, for fault tests that kill it mid-way with SIGKILL.
// Usage: node out/test/support/storeChild.js compact-forever FOLDER
import { registerDomainOperations } from '../../src/core/domains';
import { compactStore } from '../../src/core/store/compaction';
import { sqlWasmPath } from './tempStore';

async function main(): Promise<void> {
  registerDomainOperations();
  const [mode, folder] = process.argv.slice(2);
  if (mode !== 'compact-forever' || !folder) throw new Error('usage: storeChild.js compact-forever FOLDER');
  process.stdout.write('ready\n');
  for (;;) await compactStore(folder, sqlWasmPath);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
