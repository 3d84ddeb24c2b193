// Worker-thread entry: compacts the store off the extension host's thread, which every extension shares.
// It replays every journal, so every domain's operations are registered before anything else.
import { parentPort, workerData } from 'node:worker_threads';
import { registerDomainOperations } from './domains';
import { compactStore } from './store/compaction';

interface CompactionRequest {
  readonly folder: string;
  readonly wasmPath: string;
}

registerDomainOperations();
const request = workerData as CompactionRequest;
compactStore(request.folder, request.wasmPath).then(
  (result) => parentPort?.postMessage({ ok: true, result }),
  (error: unknown) => parentPort?.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) }),
);
