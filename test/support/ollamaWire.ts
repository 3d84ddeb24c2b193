/**
 * What the Ollama stand-in says on the wire, apart from the server itself: the bodies it reads and the scripted
 * answers it streams, how it describes a model in /api/tags and /api/show, and its deterministic embeddings.
 */

/** A model the stand-in advertises in /api/tags and accepts in /api/chat. */
export interface FakeModel {
  /** Model name; a name without a tag gets `:latest`, as real Ollama does. */
  name: string;
  /** Architecture family reported by /api/show (default `llama`). */
  family?: string;
  /** Context length in `model_info` (default: the server's `contextLength`). */
  contextLength?: number;
  /** Whether /api/show lists the `tools` capability (default true). */
  tools?: boolean;
  /** A thinking model (qwen3, gpt-oss, deepseek-r1): lists `thinking`, streams `message.thinking` before `content`. */
  thinking?: boolean;
  /** With `format` set, this thinking model leaves `content` empty and ends its thinking with the answer instead. */
  emptyContentWithFormat?: boolean;
}

/** One scripted answer to an /api/chat call. */
export interface ScriptedReply {
  /** Whole reply text; split into a few chunks unless `chunks` is given. */
  content?: string;
  /** Exact stream chunks, sent in order (wins over `content`). */
  chunks?: string[];
  /** Sent after the text as `message.tool_calls: [{ function: { name, arguments } }]`. */
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
  /** Pause before each streamed chunk, so tests can cancel mid-reply. */
  delayMsPerChunk?: number;
  /** Answer with this HTTP status and `{"error": message}` instead. */
  error?: { status: number; message: string };
  /** For a thinking model: what it thinks before it answers (streamed as `message.thinking`). */
  thinking?: string;
}

/** A chat message as the client sends it (`tool_calls`, `images`, … pass through untyped). */
export interface ChatMessageBody {
  role: string;
  content?: string;
  [field: string]: unknown;
}

/** The body of an /api/chat request (`format`, `keep_alive`, `think`, … pass through untyped). */
export interface ChatRequestBody {
  model: string;
  messages?: ChatMessageBody[];
  tools?: unknown[];
  stream?: boolean;
  options?: Record<string, unknown>;
  [field: string]: unknown;
}

/** Splits text at word boundaries into about `count` pieces that concatenate back to it. */
export function splitIntoChunks(text: string, count: number): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  const perChunk = Math.max(1, Math.ceil(words.length / count));
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += perChunk) chunks.push(words.slice(i, i + perChunk).join(''));
  return chunks.length > 0 ? chunks : [''];
}

/** FNV-1a: a tiny stable string hash, so embeddings are the same in every run. */
export function hashString(text: string, seed: number): number {
  let hash = 0x811c9dc5 ^ seed;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * A bag-of-words vector: every word adds weight to two hashed dimensions.
 * Weights are never negative, so texts that share a word always have a
 * positive cosine similarity, which retrieval tests can rely on.
 */
export function embedText(text: string, dims: number): number[] {
  const vector = new Array<number>(dims).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []) {
    vector[hashString(word, 0) % dims] += 1;
    vector[hashString(word, 0x9e3779b9) % dims] += 0.5;
  }
  const norm = Math.hypot(...vector);
  // A text without words still needs a unit vector; any fixed one will do.
  return norm === 0 ? vector.map(() => 1 / Math.sqrt(dims)) : vector.map((value) => value / norm);
}

/** The one date every stand-in model reports as its last change, so listings are the same in every run. */
export const MODIFIED_AT = '2025-01-01T00:00:00Z';

function modelDetails(model: Required<FakeModel>) {
  return { parent_model: '', format: 'gguf', family: model.family, families: [model.family], parameter_size: '7B', quantization_level: 'Q4_K_M' };
}

export function describeModel(model: Required<FakeModel>) {
  const digest = hashString(model.name, 0).toString(16).padStart(8, '0').repeat(8);
  return { name: model.name, model: model.name, modified_at: MODIFIED_AT, size: 4_683_087_332, digest, details: modelDetails(model) };
}

export function showModel(model: Required<FakeModel>) {
  return {
    modelfile: `# Stand-in modelfile for ${model.name}\nFROM ${model.name}\n`,
    parameters: 'stop "<|im_end|>"',
    template: '{{ .Prompt }}',
    details: modelDetails(model),
    model_info: { 'general.architecture': model.family, [`${model.family}.context_length`]: model.contextLength },
    capabilities: ['completion', ...(model.tools ? ['tools'] : []), ...(model.thinking ? ['thinking'] : [])],
    modified_at: MODIFIED_AT,
  };
}
