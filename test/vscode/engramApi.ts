// Shared by the tests that run inside the extension host: the extension's API, and waiting for a chat turn.
import * as vscode from 'vscode';
import type { TurnOutcome } from '../../src/host/chatParticipant';
import type { EngramApi } from '../../src/host/extension';

export const extensionId = 'engram-dev.engram';

export async function activeEngram(): Promise<EngramApi> {
  const extension = vscode.extensions.getExtension<EngramApi>(extensionId);
  if (!extension) throw new Error(`${extensionId} is not loaded in this host`);
  return extension.isActive ? extension.exports : extension.activate();
}

/** Sends a message through the real chat pipeline and resolves with the participant's outcome. */
export async function chat(api: EngramApi, query: string, timeoutMs = 30_000): Promise<TurnOutcome> {
  const outcome = new Promise<TurnOutcome>((resolve, reject) => {
    const timer = setTimeout(() => {
      listener.dispose();
      reject(new Error(`no reply from @engram to ${JSON.stringify(query)} within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = api.onDidFinishTurn((turn) => {
      clearTimeout(timer);
      listener.dispose();
      resolve(turn);
    });
  });
  await vscode.commands.executeCommand('workbench.action.chat.open', { query, isPartialQuery: false });
  return outcome;
}

export async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
