/**
 * Failures of the model server, phrased for the person who has to fix them.
 * Each carries a `kind` so callers can react without parsing messages.
 */

export type ModelErrorKind = 'notRunning' | 'modelMissing' | 'timeout' | 'cancelled' | 'server';

export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ModelError';
  }
}

export function notRunning(endpoint: string, cause?: unknown): ModelError {
  return new ModelError(
    'notRunning',
    `Ollama isn't running at ${endpoint}. Start it with \`ollama serve\`, ` +
      'or point the setting `engram.ollama.host` at the server you use.',
    { cause },
  );
}

export function modelMissing(model: string, cause?: unknown): ModelError {
  return new ModelError(
    'modelMissing',
    `The model "${model}" isn't available in Ollama. Download it with \`ollama pull ${model}\`, ` +
      'or choose another model in the chat model picker (or the setting `engram.model`).',
    { cause },
  );
}

export function timedOut(endpoint: string, seconds: number, cause?: unknown): ModelError {
  return new ModelError(
    'timeout',
    `Ollama at ${endpoint} did not answer within ${seconds} seconds. A large model may still be loading: ` +
      'try again in a moment, or raise `engram.ollama.timeoutSeconds`.',
    { cause },
  );
}

export function cancelled(): ModelError {
  return new ModelError('cancelled', 'The request was cancelled.');
}

/** True when an error (or any error in its cause chain) is a refused or unreachable connection. */
export function isConnectionFailure(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 6; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && ['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN'].includes(code)) {
      return true;
    }
    const message = (current as { message?: unknown }).message;
    if (typeof message === 'string' && /ECONNREFUSED|fetch failed|socket hang up/.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export function isAbort(error: unknown): boolean {
  const name = (error as { name?: unknown } | undefined)?.name;
  return name === 'AbortError';
}
