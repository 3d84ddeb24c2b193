/**
 * `npm run fake-ollama`: runs the Ollama stand-in by hand, so a person can try
 * Engram's UI without installing Ollama or downloading a model.
 *
 *   node out/test/support/fakeOllamaMain.js [--port N] [--model NAME]...
 */
import { FakeOllama, type FakeModel } from './fakeOllama';

/** Ollama's own default port, so Engram's default `engram.ollama.host` reaches the stand-in. */
const OLLAMA_DEFAULT_PORT = 11434;

interface CommandLine {
  port: number;
  modelNames: string[];
}

const USAGE = 'usage: npm run fake-ollama -- [--port N] [--model NAME]...';

function parseCommandLine(args: string[]): CommandLine {
  const commandLine: CommandLine = { port: OLLAMA_DEFAULT_PORT, modelNames: [] };
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    const value = args[i + 1];
    if (flag === '--help' || flag === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else if (flag === '--port' && value !== undefined) {
      const port = Number(value);
      if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port needs a number from 0 to 65535, got "${value}"`);
      commandLine.port = port;
      i++;
    } else if (flag === '--model' && value !== undefined) {
      commandLine.modelNames.push(value);
      i++;
    } else {
      fail(`unexpected argument "${flag}"\n${USAGE}`);
    }
  }
  return commandLine;
}

function fail(message: string): never {
  console.error(`fake-ollama: ${message}`);
  process.exit(1);
}

async function main(): Promise<void> {
  const { port, modelNames } = parseCommandLine(process.argv.slice(2));
  const models: FakeModel[] | undefined = modelNames.length > 0 ? modelNames.map((name) => ({ name })) : undefined;
  const standIn = new FakeOllama({ models });
  let url: string;
  try {
    url = await standIn.start(port);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      fail(
        `port ${port} is already in use (a real Ollama may be running there).\n` +
          `Stop it, or pick another port: npm run fake-ollama -- --port 11500`,
      );
    }
    throw error;
  }

  const hostSetting = port === OLLAMA_DEFAULT_PORT
    ? `"engram.ollama.host": "${url}"   (the default already points here)`
    : `"engram.ollama.host": "${url}"`;
  console.log(
    [
      '',
      '  STAND-IN for Ollama — for trying Engram without a model.',
      '  Replies are canned (it echoes your message); no model runs, nothing is generated.',
      '',
      `  Listening on  ${url}`,
      `  Models        ${standIn.modelNames.join(', ')}`,
      `  Setting       ${hostSetting}`,
      '',
      '  Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );

  let stopping = false;
  const stop = (): void => {
    // A second Ctrl-C while stopping means "now", not "again".
    if (stopping) process.exit(130);
    stopping = true;
    console.log('\nStopping the Ollama stand-in.');
    void standIn.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => fail(error instanceof Error ? error.stack ?? error.message : String(error)));
