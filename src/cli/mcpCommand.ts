import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cl100kTokenCounter } from '../core/shared/tokenCounter';
import { defaultAllowlist, parseAllowlist, type Allowlist } from '../core/memory/allowlist';
import type { MemoryStore } from '../core/store/memoryStore';
import { releaseSnapshotLockIfOurs } from '../core/store/snapshotLock';
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
  /** Opens the store for writing (proposals and call records go to this process's own journal). */
  readonly open: (folder: string) => Promise<MemoryStore>;
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
  // The store opens while the client starts: `tools/list` needs none of it, and the first call waits for it.
  const opening = options.open(options.db);
  opening.catch(() => undefined);
  // One AgentTools for the whole run, made once the store is open: its limits count every call of every client, so
  // calls that arrive while the store opens must not each make their own.
  const agentTools = opening.then((store) => new AgentTools(new EngramMemory(store, cl100kTokenCounter, { allowlist: () => allowlist }), () => [...allowlist.keys()]));
  agentTools.catch(() => undefined);
  const tools = {
    specs: () => [...memoryToolSpecs, proposeFactSpec([...allowlist.keys()])],
    call: async (client: string, tool: string, args: unknown) => (await agentTools).call(client, tool, args),
  };
  const stopping = new AbortController();
  const closing = { signalled: false, durable: false };
  // A first signal stops serving. The client's SIGTERM while the closing snapshot is written (every change is durable
  // by then) leaves the snapshot to the next writer, releases the lock and exits at once.
  const onSignal = (signal: NodeJS.Signals): void => {
    if (closing.durable) {
      options.log(`stopped by ${signal} while writing the closing snapshot; every change is in the journal, the snapshot is left to the next writer`);
      releaseSnapshotLockIfOurs(options.db);
      process.exit(0);
    }
    closing.signalled = true;
    stopping.abort(`stopped by ${signal}`);
  };
  process.on('SIGINT', onSignal).on('SIGTERM', onSignal);
  try {
    options.log(`serving the store at ${options.db} over MCP on stdio${options.workspace ? ` (workspace ${options.workspace})` : ''}`);
    const reason = await serveMcp({ tools, version: packageVersion(), input: process.stdin, output: process.stdout, log: options.log, signal: stopping.signal });
    options.log(`${reason}; stopping`);
    return 0;
  } finally {
    await closeSoon(await opening, closing, options.log);
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    process.stdin.destroy();
  }
}

/**
 * Makes every change durable in our journal first; then, unless a signal already asked us to go, folds it into a
 * snapshot (in a worker when the store compacts in one, so a signal is still heard).
 */
async function closeSoon(store: MemoryStore, closing: { signalled: boolean; durable: boolean }, log: (line: string) => void): Promise<void> {
  await store.flush().catch(() => undefined);
  closing.durable = true;
  if (closing.signalled) log('the closing snapshot is left to the next writer; every change is in the journal');
  await store.close({ snapshot: !closing.signalled });
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
