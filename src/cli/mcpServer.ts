import { Transform, type Readable, type Writable, type TransformCallback } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { proposeFactName, UnknownToolError, type AgentToolResult, type AgentTools } from '../core/turn/agentTools';

/** One JSON-RPC message per line; a longer line is refused without being buffered whole (stdin is untrusted). */
export const maxMessageBytes = 4 * 1024 * 1024;

export interface McpServeOptions {
  /** The tools; a call may wait for the store, which opens while `tools/list` is already answered. */
  readonly tools: Pick<AgentTools, 'specs'> & { call(client: string, tool: string, args: unknown): Promise<AgentToolResult> };
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
  // Calls still running when the client goes: the store stays open until they are answered (a proposal being written).
  const inFlight = new Set<Promise<unknown>>();
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name } = request.params;
    try {
      const call = options.tools.call(client(), name, request.params.arguments ?? {});
      inFlight.add(call);
      void call.finally(() => inFlight.delete(call)).catch(() => undefined);
      const result = await call;
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
  // JSON-RPC 2.0: an error whose request id could not be read carries "id": null.
  const guard = new MessageGuard((code, message, id) => {
    options.log(message);
    reply({ jsonrpc: '2.0', id: id ?? null, error: { code, message } });
  });
  // What gets past the guard is JSON with "jsonrpc": "2.0"; the SDK validates the rest (its errors come here).
  server.onerror = (error) => options.log(`protocol: ${error.message}`);

  const transport = new StdioServerTransport(guard, options.output);
  let done: (reason: string) => void = () => undefined;
  const finished = new Promise<string>((resolve) => (done = resolve));
  const stop = (reason: string): void => {
    options.input.unpipe(guard);
    void Promise.allSettled([...inFlight]).then(() => {
      done(reason);
      void server.close().catch(() => undefined);
    });
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

/** How much of a refused line's start and end is kept to find its id in (clients put it first or last). */
const idWindowBytes = 512;

/** JSON-RPC's "not initialized" answer: MCP allows nothing but initialize and ping before initialize. */
const notInitialized = -32002;

/**
 * Lets through only lines that are JSON objects claiming JSON-RPC 2.0, each at most maxMessageBytes, and before an
 * `initialize` request only that request (and pings); anything else gets a JSON-RPC error (parse error, invalid
 * request, too large, not initialized) with the request's id whenever it can be read, and never reaches the server.
 */
class MessageGuard extends Transform {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private discarding = false;
  /** The first and the latest bytes of a line too long to keep: where its id is. */
  private head: Buffer = Buffer.alloc(0);
  private tail: Buffer = Buffer.alloc(0);
  private initialized = false;

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
    if (part.length === 0) return;
    if (this.discarding) {
      this.tail = Buffer.concat([this.tail, part]).subarray(-idWindowBytes);
      return;
    }
    this.pendingBytes += part.length;
    if (this.pendingBytes > maxMessageBytes) {
      const kept = Buffer.concat([...this.pending, part]);
      this.head = kept.subarray(0, idWindowBytes);
      this.tail = kept.subarray(-idWindowBytes);
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
      const id = readId(this.head.toString('utf8'), this.tail.toString('utf8'));
      this.head = this.tail = Buffer.alloc(0);
      this.refuse(ErrorCode.InvalidRequest, `a message longer than ${maxMessageBytes} bytes was refused (one JSON-RPC message per line, at most 4 MiB)`, id);
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
      this.refuse(ErrorCode.ParseError, `parse error: a line that is not JSON was refused (${(error as Error).message})`, readId(line, line));
      return;
    }
    const problem = notJsonRpc(message);
    const id = (message as { id?: unknown } | null)?.id;
    const knownId = typeof id === 'string' || typeof id === 'number' ? id : undefined;
    if (problem) {
      this.refuse(ErrorCode.InvalidRequest, `invalid request: ${problem}`, knownId);
      return;
    }
    const method = (message as { method?: unknown }).method;
    if (!this.initialized && method !== 'initialize' && method !== 'ping') {
      // A notification before initialize is dropped; a request is answered.
      if (knownId !== undefined) this.refuse(notInitialized, `not initialized: send "initialize" first (${String(method).slice(0, 60)} was refused)`, knownId);
      return;
    }
    if (method === 'initialize') this.initialized = true;
    this.push(`${line}\n`);
  }
}

/**
 * The id of a request too long (or too broken) to parse, read off its start ({"jsonrpc":"2.0","id":7,…}) or its end
 * (…,"id":7}), where clients put it; undefined when it is not there.
 */
function readId(head: string, tail: string): string | number | undefined {
  const value = String.raw`(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")`;
  const atStart = new RegExp(String.raw`^\s*\{(?:\s*"(?:jsonrpc|method)"\s*:\s*"[^"]{0,100}"\s*,)*\s*"id"\s*:\s*${value}`).exec(head);
  const atEnd = new RegExp(String.raw`[,{]\s*"id"\s*:\s*${value}\s*\}\s*$`).exec(tail);
  const found = atStart?.[1] ?? atEnd?.[1];
  if (found === undefined) return undefined;
  try {
    return JSON.parse(found) as string | number;
  } catch {
    return undefined;
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
