/**
 * The mocha hooks every test against the Ollama stand-in repeats: one stand-in server for the file, reset before
 * each test, and a fresh folder (with, when asked, a fresh store counting tokens as cl100k does) per test.
 */
import { OllamaChatModel } from '../../src/core/llm/ollamaChatModel';
import { cl100kTokenCounter } from '../../src/core/shared/tokenCounter';
import { MemoryStore } from '../../src/core/store/memoryStore';
import { EngramMemory } from '../../src/core/turn/engramMemory';
import { OllamaTurnModel } from '../../src/core/turn/ollamaTurnModel';
import { TurnEngine } from '../../src/core/turn/turnEngine';
import { FakeOllama, type FakeOllamaOptions } from './fakeOllama';
import { sqlWasmPath, tempFolder } from './tempStore';

export interface StandInTest {
  readonly standIn: FakeOllama;
  /** This test's own folder, removed after it. */
  readonly folder: string;
  /** This test's store in `folder` (only with `store: true`). */
  readonly store: MemoryStore;
}

export interface StandInSetup {
  /** Open a store in each test's folder (the index brought up to date by hand, as the extension's idle timer would). */
  readonly store?: boolean;
  /** Runs after the stand-in's reset, before each test (a default reply, for example). */
  readonly beforeEach?: (standIn: FakeOllama) => void;
}

/** Registers the hooks in the calling `describe` and returns the running test's stand-in, folder and store. */
export function useStandIn(options: FakeOllamaOptions, setup: StandInSetup = {}): StandInTest {
  const standIn = new FakeOllama(options);
  let temp: ReturnType<typeof tempFolder> | undefined;
  let store: MemoryStore | undefined;
  before(() => standIn.start());
  after(() => standIn.stop());
  beforeEach(async () => {
    standIn.reset();
    setup.beforeEach?.(standIn);
    temp = tempFolder();
    if (setup.store) store = await MemoryStore.open({ folder: temp.folder, wasmPath: sqlWasmPath, tokens: cl100kTokenCounter, indexDelayMs: 3_600_000 });
  });
  afterEach(async () => {
    await store?.close();
    store = undefined;
    temp?.remove();
  });
  return {
    standIn,
    get folder(): string {
      if (!temp) throw new Error('the folder exists only while a test runs');
      return temp.folder;
    },
    get store(): MemoryStore {
      if (!store) throw new Error(setup.store ? 'the store exists only while a test runs' : 'useStandIn was called without store: true');
      return store;
    },
  };
}

/** A turn engine over the test's store, talking to the stand-in's `modelName` with a window of `contextLength`. */
export function engineFor(test: StandInTest, modelName: string, contextLength: number): { engine: TurnEngine; model: OllamaTurnModel; memory: EngramMemory } {
  const memory = new EngramMemory(test.store, cl100kTokenCounter);
  const engine = new TurnEngine({ memory, tokens: cl100kTokenCounter });
  const model = new OllamaTurnModel(new OllamaChatModel({ host: test.standIn.url }), modelName, contextLength);
  return { engine, model, memory };
}
