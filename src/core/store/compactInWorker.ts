import { Worker } from 'node:worker_threads';
import type { CompactionResult } from './compaction';

/** Runs a compaction in a worker thread and resolves with its result; the caller's thread only waits. */
export function compactInWorker(workerPath: string, folder: string, wasmPath: string): Promise<CompactionResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerPath, { workerData: { folder, wasmPath } });
    let settled = false;
    worker.once('message', (message: { ok: true; result: CompactionResult } | { ok: false; error: string }) => {
      settled = true;
      if (message.ok) resolve(message.result);
      else reject(new Error(`Writing the memory snapshot failed: ${message.error}`));
      void worker.terminate();
    });
    worker.once('error', (error) => {
      if (!settled) reject(error);
      settled = true;
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`The snapshot worker stopped (exit code ${code}) before it finished`));
      settled = true;
    });
  });
}
