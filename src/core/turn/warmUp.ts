import { defaultAllowlist } from '../memory/allowlist';
import { captureFacts } from '../capture/capture';
import { defaultProjectAllowlist } from '../memory/projectAllowlist';
import { captureProjectFacts } from '../capture/projectCapture';
import { warmUpTagger } from '../capture/wordTagger';
import { redactSecrets } from '../shared/secrets';
import type { StatementOp } from '../memory/statementOps';
import { applyOp } from '../store/operationRegistry';
import type { TurnOp } from '../store/operations';
import type { MemoryAccess } from './engramMemory';
import type { TurnEngine, TurnIo } from './turnEngine';

const captureSamples: readonly string[] = [
  'My name is Dana and I work at Fernhill. We use vitest here; why does this test hang?',
  'what does ECONNRESET mean in the Worker when I run it on Node?',
  "Hi! I'm Maya, she/her, a frontend engineer at Quillbox in Toronto. Since I use zsh, where should this alias go?",
  'Can you refactor this function to use early returns? I hate nested ifs.',
  "Getting this in CI:\n\nError: Cannot find module 'left-pad'\n    at Function.Module._resolveFilename (node:internal/modules/cjs/loader:1075:15)\n\nany idea?",
  'Ich heiße Jonas und arbeite bei Siemens in München.',
  // Short messages take the fragment shapes ("Emacs user here"): a first "how do I fix this here" cost 196 ms.
  'how do I fix this here',
  'Emacs user here, staff engineer, so skip the basics',
];

/**
 * What the first turn of a fresh window used to pay for and later turns find ready: gpt-tokenizer's encoding (about
 * 0.35 s to import), the NLP tagger (about 0.15 s), capture's compiled shapes, sql.js's first queries (slow until V8
 * optimises the WASM) and the assembly code itself. Each is one step, so a host can run them one per macrotask at a
 * quiet moment after activation: nothing here blocks the thread for longer than its one step, and nothing is written.
 */
export function warmUpSteps(engine: TurnEngine, memory: MemoryAccess, io: Pick<TurnIo, 'model' | 'tools'>): (() => void)[] {
  const sample = 'My name is Dana and I work at Fernhill. We use vitest here; why does this test hang?';
  return [
    () => warmUpTagger(),
    // Capture's shapes are large regular expressions. V8 runs a new one in its bytecode interpreter and compiles it to
    // machine code after a few runs: that compile (about 250 ms, measured on the third coding question of a fresh
    // process) is paid here, each kind of message three times over.
    ...[0, 1, 2].flatMap(() => captureSamples.map((text) => () => void captureFacts('user', text, defaultAllowlist))),
    () => captureProjectFacts('user', sample, defaultProjectAllowlist),
    // Every recorded turn is scanned for secrets first: its patterns compile on first use.
    () => redactSecrets(`${sample} token ghp_0123456789abcdefghijklmnopqrstuvwxyzAB`),
    () => {
      if (memory.state !== 'open') return;
      memory.retiredBeliefs();
      memory.searchMemory('test framework');
    },
    () => memory.state === 'open' && memory.store.read((db) => rehearseWrites(db, sample)),
    // The prompt of a message in a conversation that does not exist, assembled and counted, and the tool definitions
    // counted into the engine's own cache: the tokenizer loads here, and the first real turn finds its counts.
    () => engine.warmUp(sample, io),
  ];
}

/** Runs the steps one per macrotask (setImmediate), so other work on the thread runs between them; resolves with ms spent. */
export async function runWarmUp(steps: readonly (() => void)[], onError: (error: unknown) => void = () => undefined): Promise<number> {
  let spent = 0;
  for (const step of steps) {
    await new Promise((resolve) => setImmediate(resolve));
    const started = performance.now();
    try {
      step();
    } catch (error) {
      onError(error);
    }
    spent += performance.now() - started;
  }
  return spent;
}

/**
 * sql.js runs its first inserts several times slower than later ones (V8 has not optimised those WASM paths yet): the
 * writes of a turn (a turn and its search row, a fact proposed and confirmed) are applied inside a savepoint and rolled
 * back, so the paths are warm and nothing is kept, journaled or announced.
 */
function rehearseWrites(db: Parameters<typeof applyOp>[0], text: string): void {
  const at = new Date().toISOString();
  const turn: TurnOp = { kind: 'turn', id: 'engram-warm-up-turn', sessionId: 'engram-warm-up', role: 'user', text, at, tokens: 1, source: 'chat' };
  const statementId = 'engram-warm-up-statement';
  const propose: StatementOp = {
    kind: 'statement', action: 'propose', id: 'engram-warm-up-propose', statementId, at, reason: 'warm-up', key: 'name', value: 'Dana',
    cardinality: 'single', tier: 'A', origin: 'chat', words: text, tokens: 1, turnId: turn.id, sessionId: turn.sessionId,
  };
  const confirm: StatementOp = { kind: 'statement', action: 'confirm', id: 'engram-warm-up-confirm', statementId, at, reason: 'warm-up', supersede: false };
  db.exec('SAVEPOINT engram_warm_up');
  try {
    for (const op of [turn, propose, confirm]) applyOp(db, op);
  } finally {
    db.exec('ROLLBACK TO engram_warm_up; RELEASE engram_warm_up');
  }
}
