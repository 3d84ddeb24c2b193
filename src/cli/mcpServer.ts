import { Transform, type Readable, type Writable, type TransformCallback } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { proposeFactName, UnknownToolError, type AgentToolResult, type AgentTools } from '../core/turn/agentTools';

/** One JSON-RPC message per line; a longer line is refused without being buffered whole (stdin is untrusted). */
export const maxMessageBytes = 4 * 1024 * 1024;

export interface McpServeOptions {
  /** The tools; a call may wait for the store, which opens while `tools/list` is already answered. */
  readonly tools: Pick<AgentTools, 'specs'> & { call(client: string, tool: string, args: unknown): AgentToolResult | Promise<AgentToolResult> };
  readonly version: string;
  readonly input: Readable;
  readonly output: Writable;
  /** Diagnostics for people: stderr (stdout belongs to the protocol). */
  readonly log: (line: string) => void;
  /** Aborted on SIGINT / SIGTERM: the server closes as if the client had gone. */
  readonly signal?: AbortSignal;
}

const instructions =
  "Engram is the user's memory, kept on the user's machine. memory_search returns the user's confirmed facts (reviewed and approved by the " +
  'user in Engram, not notes in files), approved behaviours and conversation summaries; recall_conversation searches what was said in ' +
  "earlier conversations with Engram. propose_fact only proposes: the user reviews every proposal, and what an agent says about the user " +
  "is never a confirmed fact by itself.";

/**
 * Serves Engram's memory over MCP on a pair of streams (stdio in practice) with the SDK's server and transport.
 * Resolves when the client goes away (end of input, a closed pipe) or the server is closed.
 */
export async function serveMcp(options: McpServeOptions): Promise<string> {
  const server = new Server({ name: 'engram', title: 'Engram memory', version: options.version }, { capabilities: { tools: {} }, instructions });
  const client = (): string => clientName(server.getClientVersion()?.name);

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: options.tools.specs().map((spec) => ({
      name: spec.name,
      description: spec.description,
      inputSchema: spec.inputSchema as { type: 'object' },
      annotations: spec.name === proposeFactName ? { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false } : { readOnlyHint: true, openWorldHint: false },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name } = request.params;
    try {
      const result = await options.tools.call(client(), name, request.params.arguments ?? {});
      return { content: [{ type: 'text', text: result.text }], isError: result.isError };
    } catch (error) {
      if (error instanceof UnknownToolError) throw new McpError(ErrorCode.InvalidParams, error.message);
      const message = error instanceof Error ? error.message : String(error);
      options.log(`${name} failed: ${message}`);
      return { content: [{ type: 'text', text: `Error: Engram could not run ${name} (${message}).` }], isError: true };
    }
  });

  const reply = (line: object): void => {
    options.output.write(`${JSON.stringify(line)}\n`);
  };
  const guard = new MessageGuard((code, message, id) => {
    options.log(message);
    reply({ jsonrpc: '2.0', ...(id === undefined ? {} : { id }), error: { code, message } });
  });
  // What gets past the guard is JSON with "jsonrpc": "2.0"; the SDK validates the rest (its errors come here).
  server.onerror = (error) => options.log(`protocol: ${error.message}`);

  const transport = new StdioServerTransport(guard, options.output);
  let done: (reason: string) => void = () => undefined;
  const finished = new Promise<string>((resolve) => (done = resolve));
  const stop = (reason: string): void => {
    done(reason);
    options.input.unpipe(guard);
    void server.close().catch(() => undefined);
  };
  options.input.on('end', () => stop('the client closed its end of the connection'));
  options.input.on('error', (error) => stop(`reading from the client failed: ${error.message}`));
  options.output.on('error', (error) => stop(`the client is gone (${(error as NodeJS.ErrnoException).code ?? error.message})`));
  server.onclose = () => done('the connection was closed');
  options.signal?.addEventListener('abort', () => stop(String(options.signal?.reason ?? 'stopped')));
  options.input.pipe(guard);
  await server.connect(transport);
  return finished;
}

/** A client's name as the records keep it: short, printable, never empty. */
export function clientName(name: string | undefined): string {
  const cleaned = (name ?? '').replace(/[^A-Za-z0-9._ -]/g, '').trim().slice(0, 64);
  return cleaned || 'unknown-client';
}

/**
 * Lets through only lines that are JSON objects claiming JSON-RPC 2.0, each at most maxMessageBytes; anything
 * else gets a JSON-RPC error (parse error, invalid request, too large) and never reaches the server.
 */
class MessageGuard extends Transform {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private discarding = false;

  constructor(private readonly refuse: (code: number, message: string, id?: string | number) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
      this.keep(chunk.subarray(start, newline));
      this.endLine();
      start = newline + 1;
    }
    this.keep(chunk.subarray(start));
    callback();
  }

  override _flush(callback: TransformCallback): void {
    if (this.pendingBytes > 0 || this.discarding) this.endLine();
    callback();
  }

  private keep(part: Buffer): void {
    if (this.discarding || part.length === 0) return;
    this.pendingBytes += part.length;
    if (this.pendingBytes > maxMessageBytes) {
      this.pending = [];
      this.pendingBytes = 0;
      this.discarding = true;
      return;
    }
    this.pending.push(part);
  }

  private endLine(): void {
    if (this.discarding) {
      this.discarding = false;
      this.refuse(ErrorCode.InvalidRequest, `a message longer than ${maxMessageBytes} bytes was refused (one JSON-RPC message per line, at most 4 MiB)`);
      return;
    }
    const line = Buffer.concat(this.pending).toString('utf8').replace(/\r$/, '');
    this.pending = [];
    this.pendingBytes = 0;
    if (line.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch (error) {
      this.refuse(ErrorCode.ParseError, `parse error: a line that is not JSON was refused (${(error as Error).message})`);
      return;
    }
    const problem = notJsonRpc(message);
    if (problem) {
      const id = (message as { id?: unknown } | null)?.id;
      this.refuse(ErrorCode.InvalidRequest, `invalid request: ${problem}`, typeof id === 'string' || typeof id === 'number' ? id : undefined);
      return;
    }
    this.push(`${line}\n`);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Why a parsed line is not one JSON-RPC 2.0 message (request, notification or response), or undefined when it is. */
function notJsonRpc(message: unknown): string | undefined {
  if (!isObject(message)) return 'one JSON-RPC 2.0 object per line is expected (batches are not supported)';
  if (message.jsonrpc !== '2.0') return '"jsonrpc" must be "2.0"';
  const id = message.id;
  const idOk = typeof id === 'string' || typeof id === 'number';
  if (typeof message.method === 'string') {
    if (id !== undefined && !idOk) return '"id" must be a string or a number';
    if (message.params !== undefined && !isObject(message.params)) return '"params" must be an object';
    return undefined;
  }
  if (idOk && (isObject(message.result) || isObject(message.error))) return undefined;
  return 'a message needs a "method" (or, for a response, an "id" and a "result" or "error")';
}
