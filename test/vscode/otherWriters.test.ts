// One change stream: what another window (or a CLI import) journals reaches this window's views without a prompt.
import * as assert from 'node:assert';
import { JournalWriter } from '../../src/core/store/journal';
import type { EngramApi } from '../../src/host/extension';
import { activeEngram } from './engramApi';

describe('Engram and other writers', () => {
  let api: EngramApi;
  before(async () => {
    api = await activeEngram();
  });

  it('refreshes its views when another writer journals a turn', async () => {
    const changed = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no memory change event within 10 s of another writer’s turn')), 10_000);
      const listener = api.onDidChangeMemory(() => {
        clearTimeout(timer);
        listener.dispose();
        resolve();
      });
    });
    const other = JournalWriter.create(api.storeFolder, (error) => assert.fail(error));
    await other.append({ kind: 'turn', id: `other-window-${Date.now()}`, sessionId: 'other-window', role: 'user', text: 'written by another window', at: new Date().toISOString(), tokens: 4, source: 'chat' });
    await other.close();
    await changed;
  });
});
