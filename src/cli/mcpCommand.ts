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
  let agentTools: AgentTools | undefined;
  const tools = {
    specs: () => [...memoryToolSpecs, proposeFactSpec([...allowlist.keys()])],
    call: async (client: string, tool: string, args: unknown) => {
      agentTools ??= new AgentTools(new EngramMemory(await opening, cl100kTokenCounter, { allowlist: () => allowlist }), () => [...allowlist.keys()]);
      return agentTools.call(client, tool, args);
    },
  };
  const stopping = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => stopping.abort(`stopped by ${signal}`);
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  try {
    options.log(`serving the store at ${options.db} over MCP on stdio${options.workspace ? ` (workspace ${options.workspace})` : ''}`);
    const reason = await serveMcp({ tools, version: packageVersion(), input: process.stdin, output: process.stdout, log: options.log, signal: stopping.signal });
    options.log(`${reason}; stopping`);
    return 0;
  } finally {
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    // Our journal is sealed, and folded into the snapshot if this server wrote anything (proposals, call records).
    await (await opening).close({ snapshot: true });
    process.stdin.destroy();
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
