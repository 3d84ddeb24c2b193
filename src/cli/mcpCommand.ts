import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cl100kTokenCounter } from '../core/shared/tokenCounter';
import { defaultAllowlist, parseAllowlist, type Allowlist } from '../core/memory/allowlist';
import type { MemoryStore } from '../core/store/memoryStore';
import { AgentTools, proposeFactSpec } from '../core/turn/agentTools';
import { memoryToolSpecs } from '../core/turn/memoryTools';
import { EngramMemory } from '../core/turn/engramMemory';
import { UsageError } from './args';
import { serveMcp } from './mcpServer';
import { whyNotAStore } from './storeCheck';

export interface McpCommandOptions {
  readonly db: string;
  readonly workspace?: string;
  readonly allowlistFile?: string;
  /** Opens the store read-only, writing on demand (proposals and call records go to this process's own journal). */
  readonly open: (folder: string) => Promise<MemoryStore>;
  /** Starts a compaction of the store that outlives this process (a detached `engram compact`). */
  readonly compactLater: (folder: string) => void;
  readonly log: (line: string) => void;
}

/**
 * `engram mcp --db DIR`: Engram's memory for other agents, over MCP on stdin/stdout (no network at all). Refuses a
 * folder that is not a store before opening anything; runs until the client goes away, then makes its writes durable.
 */
export async function runMcp(options: McpCommandOptions): Promise<number> {
  const notAStore = whyNotAStore(options.db);
  if (notAStore) throw new UsageError(`--db must be an Engram store folder: ${notAStore}`);
  if (options.workspace !== undefined && !(existsSync(options.workspace) && statSync(options.workspace).isDirectory())) {
    throw new UsageError(`--workspace must be a folder: ${options.workspace}`);
  }
  const allowlist = readAllowlist(options.allowlistFile);
  // The store opens at the first call, not at spawn: `tools/list` needs none of it, and loading a large store would hold
  // the answer back (the load runs on this thread). It opens read-only; the first write (a call's record, a proposal)
  // starts this process's journal, so a session that only lists the tools leaves nothing behind.
  let opening: Promise<MemoryStore> | undefined;
  const openOnce = (): Promise<MemoryStore> => (opening ??= options.open(options.db));
  // One AgentTools for the whole run, made once the store is open: its limits count every call of every client, so
  // calls that arrive while the store opens must not each make their own.
  let agentTools: Promise<AgentTools> | undefined;
  const agentToolsOnce = (): Promise<AgentTools> =>
    (agentTools ??= openOnce().then((store) => new AgentTools(new EngramMemory(store, cl100kTokenCounter, { allowlist: () => allowlist }), () => [...allowlist.keys()])));
  const tools = {
    specs: () => [...memoryToolSpecs, proposeFactSpec([...allowlist.keys()])],
    call: async (client: string, tool: string, args: unknown) => (await agentToolsOnce()).call(client, tool, args),
  };
  const stopping = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => stopping.abort(`stopped by ${signal}`);
  process.on('SIGINT', onSignal).on('SIGTERM', onSignal);
  try {
    options.log(`serving the store at ${options.db} over MCP on stdio${options.workspace ? ` (workspace ${options.workspace})` : ''}`);
    const reason = await serveMcp({ tools, version: packageVersion(), input: process.stdin, output: process.stdout, log: options.log, signal: stopping.signal });
    options.log(`${reason}; stopping`);
    return 0;
  } finally {
    const store = await opening?.catch(() => undefined);
    if (store) await closeWithoutBlocking(store, options);
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    process.stdin.destroy();
  }
}

/** Past this many journal bytes, the session's writes are folded into a snapshot after it ends (as a window does). */
const snapshotAfterBytes = 2 * 1024 * 1024;

/**
 * Makes every change durable in our journal and seals it; the client is not kept waiting for a snapshot (at 100k turns
 * it took seconds). A small journal is folded in by the next writer's snapshot; a large one by a compaction in a
 * detached process, off the client's path.
 */
async function closeWithoutBlocking(store: MemoryStore, options: McpCommandOptions): Promise<void> {
  const unsnapshotted = store.unsnapshottedBytes;
  await store.close();
  if (unsnapshotted > snapshotAfterBytes) {
    options.compactLater(options.db);
    options.log(`${unsnapshotted} journal bytes are being folded into a snapshot by a separate process`);
  }
}

function readAllowlist(file: string | undefined): Allowlist {
  if (!file) return defaultAllowlist;
  try {
    return parseAllowlist(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`--allowlist ${file} could not be used: ${(error as Error).message}`);
  }
}

/** The package's version, from the package.json beside dist/ (the bundle's home); tests run without it. */
function packageVersion(): string {
  try {
    return String((JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version?: unknown }).version ?? '0.0.0');
  } catch {
    return '0.0.0';
  }
}
