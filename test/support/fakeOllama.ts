/**
 * A scripted stand-in for the Ollama server: a real HTTP server speaking the
 * Ollama REST protocol, so tests exercise the real `ollama` client and the
 * real network path (streaming, aborts, refused connections) without a model.
 */
import { once } from 'events';
import * as http from 'http';
import type { AddressInfo, Socket } from 'net';
import { defaultTokenizer, truncateLikeOllama, type ModelTokenizer, type Truncation } from './fakeRuntime';
import { failedSummary, isSummaryRequest, sectionedSummary } from './fakeSummariser';

import { describeModel, embedText, MODIFIED_AT, showModel, splitIntoChunks, type ChatRequestBody, type FakeModel, type ScriptedReply } from './ollamaWire';

export { modelTokens, truncateLikeOllama, type ModelTokenizer, type Truncation } from './fakeRuntime';
export { embedText, type ChatMessageBody, type ChatRequestBody, type FakeModel, type ScriptedReply } from './ollamaWire';

/** Options for {@link FakeOllama}. */
export interface FakeOllamaOptions {
  models?: FakeModel[];
  /** Context length for models that do not set their own (default 8192). */
  contextLength?: number;
  /** Length of the vectors /api/embed returns (default 64). */
  embeddingDims?: number;
  /**
   * The runtime window when a chat sets no `options.num_ctx` (default 4096): what a real Ollama picks on a
   * machine with less than 24 GiB of VRAM, whatever the model's maximum.
   */
  defaultRuntimeContext?: number;
  /** The most a model can be given (default: its maximum): a real server allocates less when memory is short. */
  maxRuntimeContext?: number;
  /** How the "model" counts (default: cl100k × 1.15, template tokens per message and per tool). */
  tokenizer?: Partial<ModelTokenizer>;
  /**
   * Answer Engram's summary requests as a small model does: the sections and a few bullets. With `failEvery: 2`,
   * every other roll fails instead (text without the sections).
   */
  summariser?: { readonly failEvery?: number };
}

/** One request as the stand-in received it. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** Parsed JSON body (undefined for bodiless or unparsable requests). */
  body: unknown;
  /** True when the connection closed before a streamed reply finished (client cancelled, or stop()). */
  aborted?: boolean;
  /** Content chunks an /api/chat stream actually wrote (stops growing once the client leaves). */
  streamedChunks?: number;
  /** For /api/chat: the runtime window and what was kept of the messages. */
  truncation?: Truncation;
}

const DEFAULT_MODELS: FakeModel[] = [{ name: 'stand-in:latest', family: 'llama', contextLength: 8192, tools: true }];
const DEFAULT_REPLY_CHUNK_COUNT = 4;

function lastUserText(request: ChatRequestBody): string {
  return [...(request.messages ?? [])].reverse().find((message) => message.role === 'user')?.content ?? '';
}

/** The stand-in's canned answer: echoes the last user message, so tests can tell replies apart. */
function echoLastUserMessage(request: ChatRequestBody): ScriptedReply {
  return { content: `Stand-in reply to: ${lastUserText(request).slice(0, 200)}` };
}

/** Rough token count, the way prompt sizes are estimated everywhere: four characters a token. */
const roughTokens = (text: string): number => Math.ceil(text.length / 4);

/** Thrown inside handlers; becomes `{"error": message}` with this status, as Ollama answers errors. */
class HttpError extends Error {
  constructor(readonly status: number, message: string) { super(message); }
}

/** The scripted Ollama stand-in. See the file comment. */
export class FakeOllama {
  /** Every request received, in order. */
  readonly requests: RecordedRequest[] = [];
  /** Parsed /api/chat bodies, in order. */
  readonly chatRequests: ChatRequestBody[] = [];
  /** One line per chat: the window it ran with and what was kept, as `ollama serve` logs truncation. */
  readonly log: string[] = [];
  /** Models loaded by a chat, with the window they run with (what /api/ps lists). */
  private readonly loaded = new Map<string, number>();
  private readonly defaultRuntimeContext: number;
  private readonly maxRuntimeContext: number;
  private readonly models: Required<FakeModel>[];
  private readonly tokenizer: ModelTokenizer;
  private readonly summariser: FakeOllamaOptions['summariser'];
  /** Summary requests answered by the built-in summariser, failed ones included. */
  summaryRolls = 0;
  private readonly embeddingDims: number;
  private readonly replyQueue: ScriptedReply[] = [];
  private defaultReply: (request: ChatRequestBody) => ScriptedReply = echoLastUserMessage;
  private server: http.Server | undefined;
  private readonly sockets = new Set<Socket>();
  private baseUrl: string | undefined;

  constructor(options: FakeOllamaOptions = {}) {
    const contextLength = options.contextLength ?? 8192;
    this.embeddingDims = options.embeddingDims ?? 64;
    this.defaultRuntimeContext = options.defaultRuntimeContext ?? 4096;
    this.maxRuntimeContext = options.maxRuntimeContext ?? Number.MAX_SAFE_INTEGER;
    this.models = (options.models ?? DEFAULT_MODELS).map((model) => ({
      name: model.name.includes(':') ? model.name : `${model.name}:latest`,
      family: model.family ?? 'llama',
      contextLength: model.contextLength ?? contextLength,
      tools: model.tools ?? true,
      thinking: model.thinking ?? false,
      emptyContentWithFormat: model.emptyContentWithFormat ?? false,
    }));
    this.tokenizer = { ...defaultTokenizer, ...options.tokenizer };
    this.summariser = options.summariser;
  }

  /** Base URL of the running server, e.g. `http://127.0.0.1:43121`. */
  get url(): string {
    if (!this.baseUrl) throw new Error('FakeOllama is not running; call start() first');
    return this.baseUrl;
  }

  /** Names as /api/tags lists them (tag included). */
  get modelNames(): string[] {
    return this.models.map((model) => model.name);
  }

  /** How many streamed chats lost their connection before the reply finished. */
  get abortedChats(): number {
    return this.requests.filter((request) => request.aborted).length;
  }

  /** Starts listening on 127.0.0.1 (port 0 picks a free port) and resolves to the base URL. */
  async start(port = 0): Promise<string> {
    if (this.server) throw new Error('FakeOllama is already running');
    const server = http.createServer((req, res) => void this.handle(req, res));
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    server.listen(port, '127.0.0.1');
    await once(server, 'listening'); // rejects on 'error', e.g. EADDRINUSE
    this.server = server;
    this.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.baseUrl;
  }

  /** Stops listening and cuts open connections, so pooled keep-alive sockets cannot keep it reachable. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    this.baseUrl = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await closed;
  }

  /** Queues a reply for the next /api/chat call that names a known model (first in, first out). */
  enqueue(reply: ScriptedReply): void {
    this.replyQueue.push(reply);
  }

  /** Replaces the reply used when the queue is empty. */
  setDefaultReply(makeReply: (request: ChatRequestBody) => ScriptedReply): void {
    this.defaultReply = makeReply;
  }

  /** Drops queued replies and restores the built-in echo reply. */
  clearScript(): void {
    this.replyQueue.length = 0;
    this.defaultReply = echoLastUserMessage;
  }

  /** Clears the request logs and the script. */
  reset(): void {
    this.requests.length = 0;
    this.chatRequests.length = 0;
    this.log.length = 0;
    this.loaded.clear();
    this.summaryRolls = 0;
    this.clearScript();
  }

  /** Resolves once at least `count` chats were cancelled by the client; rejects after `timeoutMs`. */
  async waitForAbortedChats(count = 1, timeoutMs = 2000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.abortedChats < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} aborted chat(s), saw ${this.abortedChats}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://stand-in').pathname;
    const record: RecordedRequest = { method: req.method ?? 'GET', path, body: undefined };
    this.requests.push(record);
    try {
      const rawBody = await readBody(req);
      if (record.method === 'POST') record.body = parseJsonBody(rawBody);
      await this.route(record, res);
    } catch (error) {
      const status = error instanceof HttpError ? error.status : 500;
      if (!res.headersSent) sendJson(res, status, { error: error instanceof Error ? error.message : String(error) });
      else res.destroy();
    }
  }

  private async route(record: RecordedRequest, res: http.ServerResponse): Promise<void> {
    const body = (record.body ?? {}) as Record<string, unknown>;
    switch (`${record.method} ${record.path}`) {
      case 'GET /':
      case 'HEAD /':
        res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Ollama is running');
        return;
      case 'GET /api/version':
        return sendJson(res, 200, { version: '0.12.0-stand-in' });
      case 'GET /api/tags':
        return sendJson(res, 200, { models: this.models.map(describeModel) });
      case 'GET /api/ps':
        return sendJson(res, 200, {
          models: this.models
            .filter((model) => this.loaded.has(model.name))
            .map((model) => ({ ...describeModel(model), expires_at: MODIFIED_AT, size_vram: 4_683_087_332, context_length: this.loaded.get(model.name) })),
        });
      case 'POST /api/show': {
        const name = String(body.model ?? body.name ?? '');
        const model = this.findModel(name);
        if (!model) throw new HttpError(404, `model '${name}' not found`);
        return sendJson(res, 200, showModel(model));
      }
      case 'POST /api/chat':
        return this.chat(record, res);
      case 'POST /api/embed': {
        const inputs = Array.isArray(body.input) ? body.input.map(String) : [String(body.input ?? '')];
        this.requireModel(body.model);
        const embeddings = inputs.map((text) => embedText(text, this.embeddingDims));
        const promptEvalCount = inputs.reduce((sum, text) => sum + roughTokens(text), 0);
        return sendJson(res, 200, { model: body.model, embeddings, total_duration: 1_000_000, load_duration: 100_000, prompt_eval_count: promptEvalCount });
      }
      case 'POST /api/embeddings':
        this.requireModel(body.model);
        return sendJson(res, 200, { embedding: embedText(String(body.prompt ?? ''), this.embeddingDims) });
      default:
        throw new HttpError(404, 'not found');
    }
  }

  private async chat(record: RecordedRequest, res: http.ServerResponse): Promise<void> {
    const request = record.body as ChatRequestBody;
    this.chatRequests.push(request);
    this.requireModel(request.model);
    if (request.messages !== undefined && !Array.isArray(request.messages)) throw new HttpError(400, 'messages must be an array');
    const model = request.model;
    if (!request.messages?.length) {
      // Real Ollama treats a chat without messages as "load the model" (with its num_ctx) and answers at once.
      const loading = this.findModel(model);
      if (loading) this.loaded.set(loading.name, this.runtimeWindow(loading, request));
      return sendJson(res, 200, { model, created_at: now(), message: { role: 'assistant', content: '' }, done_reason: 'load', done: true });
    }
    const found = this.findModel(model);
    if (found) {
      const truncation = truncateLikeOllama(request, this.runtimeWindow(found, request), this.tokenizer);
      record.truncation = truncation;
      this.loaded.set(found.name, truncation.window);
      this.log.push(
        `chat ${found.name}: window ${truncation.window}, sent ${truncation.sentTokens} tokens in ${request.messages.length} messages, ` +
          (truncation.dropped.length ? `truncated: dropped messages ${truncation.dropped.join(',')}, kept ${truncation.keptTokens} tokens` : 'nothing cut') +
          (truncation.cutTokens ? `; truncating input prompt limit=${truncation.window}: cut ${truncation.cutTokens} tokens after the first ${this.tokenizer.numKeep}` : ''),
      );
      // The model only sees what survived: scripted replies and the echo read the kept messages.
      request.messages = request.messages.filter((_, index) => !truncation.dropped.includes(index));
    }
    const reply = this.replyQueue.shift() ?? this.summary(request) ?? this.defaultReply(request);
    if (reply.error) throw new HttpError(reply.error.status, reply.error.message);
    const thinks = !!found?.thinking && request.think !== false;
    let chunks = reply.chunks ?? splitIntoChunks(reply.content ?? '', DEFAULT_REPLY_CHUNK_COUNT);
    let thought = thinks ? (reply.thinking ?? `The user asks: ${lastUserText(request).slice(0, 80)}. Let me think about it.`) : '';
    if (thinks && found?.emptyContentWithFormat && request.format !== undefined) {
      // Some thinking models put a structured answer at the end of their thinking and leave content empty.
      thought = `${thought}\n${chunks.join('')}`;
      chunks = [''];
    }
    const thinkingChunks = thought ? splitIntoChunks(thought, DEFAULT_REPLY_CHUNK_COUNT) : [];
    const toolCalls = (reply.toolCalls ?? []).map((call) => ({ function: { name: call.name, arguments: call.arguments } }));
    const promptText = request.messages.map((message) => message.content ?? '').join('\n') + JSON.stringify(request.tools ?? []);
    const outputText = chunks.join('') + JSON.stringify(toolCalls);
    const finalFields = {
      done: true, done_reason: 'stop', total_duration: 5_000_000, load_duration: 1_000_000,
      prompt_eval_count: record.truncation?.keptTokens ?? roughTokens(promptText), prompt_eval_duration: 1_000_000,
      eval_count: roughTokens(outputText), eval_duration: 3_000_000,
    };
    if (request.stream === false) {
      const message = { role: 'assistant', content: chunks.join(''), ...(thought ? { thinking: thought } : {}), ...(toolCalls.length ? { tool_calls: toolCalls } : {}) };
      return sendJson(res, 200, { model, created_at: now(), message, ...finalFields });
    }
    // Ollama streams by default: one JSON object per line.
    res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
    res.flushHeaders();
    res.on('close', () => {
      if (!res.writableFinished) record.aborted = true;
    });
    const writeLine = (value: object): void => void res.write(`${JSON.stringify({ model, created_at: now(), ...value })}\n`);
    for (const piece of thinkingChunks) writeLine({ message: { role: 'assistant', content: '', thinking: piece }, done: false });
    for (const chunk of chunks) {
      if (reply.delayMsPerChunk) await new Promise((resolve) => setTimeout(resolve, reply.delayMsPerChunk));
      // The client cancelled: stop writing, as a real server stops generating.
      if (record.aborted || res.destroyed) {
        record.aborted = true;
        return;
      }
      writeLine({ message: { role: 'assistant', content: chunk }, done: false });
      record.streamedChunks = (record.streamedChunks ?? 0) + 1;
    }
    if (toolCalls.length) writeLine({ message: { role: 'assistant', content: '', tool_calls: toolCalls }, done: false });
    writeLine({ message: { role: 'assistant', content: '' }, ...finalFields });
    res.end();
  }

  /** The built-in summariser's answer to a summary request, when it is on (see FakeOllamaOptions.summariser). */
  private summary(request: ChatRequestBody): ScriptedReply | undefined {
    if (!this.summariser || !isSummaryRequest(request.messages)) return undefined;
    this.summaryRolls++;
    const every = this.summariser.failEvery ?? 0;
    if (every > 0 && this.summaryRolls % every === 0) return { content: failedSummary };
    return { content: sectionedSummary(lastUserText(request)) };
  }

  /** num_ctx when the chat sets it, else the server's default; never more than the model or the server allows. */
  private runtimeWindow(model: Required<FakeModel>, request: ChatRequestBody): number {
    const asked = Number(request.options?.num_ctx);
    const wanted = Number.isInteger(asked) && asked > 0 ? asked : this.defaultRuntimeContext;
    return Math.min(wanted, model.contextLength, this.maxRuntimeContext);
  }

  private findModel(name: string): Required<FakeModel> | undefined {
    return this.models.find((model) => model.name === name || model.name === `${name}:latest`);
  }

  private requireModel(name: unknown): void {
    if (typeof name !== 'string' || name === '') throw new HttpError(400, 'model is required');
    if (!this.findModel(name)) throw new HttpError(404, `model "${name}" not found, try pulling it first`);
  }
}

const now = (): string => new Date().toISOString();

function sendJson(res: http.ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify(value));
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

function parseJsonBody(rawBody: string): unknown {
  if (rawBody.trim() === '') throw new HttpError(400, 'missing request body');
  let parsed: unknown;
  try { parsed = JSON.parse(rawBody); } catch (error) { throw new HttpError(400, `invalid JSON body: ${(error as Error).message}`); }
  // Every endpoint takes a JSON object; anything else would only fail later with a confusing 500.
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new HttpError(400, 'request body must be a JSON object');
  return parsed;
}
