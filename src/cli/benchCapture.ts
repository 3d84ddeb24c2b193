import { performance } from 'node:perf_hooks';
import { defaultAllowlist } from '../core/memory/allowlist';
import { captureFacts } from '../core/capture/capture';

/**
 * Messages of the kinds capture meets (written for the benchmark, not taken from a gate-eval corpus): plain and
 * compound introductions, facts said in passing, pasted mail, logs and shell sessions, long requests, other languages.
 */
const messages: readonly string[] = [
  'My name is Dana, by the way — use that in the commit trailer template.',
  'Hi! I’m Maya, she/her, a frontend engineer on the growth team at Quillbox in Toronto. Can you help me untangle this React context mess?',
  'hey, im raj (he/him), backend dev at tallyho, working from pune. first time using this thing',
  'I’m on Windows so the path separators in this script break, can you fix it?',
  'Since I use zsh, where should this alias go?',
  'why does this test hang when I run it with --watch?',
  'Can you refactor this function to use early returns? It is getting hard to read.',
  'Help me reply to this:\n\nHi Sam,\nI’m Leah, the new platform lead at Corbel. I’m based in Denver.\nBest,\nLeah',
  'Getting this in CI:\n\nError: Cannot find module \'left-pad\'\n    at Function.Module._resolveFilename (node:internal/modules/cjs/loader:1075:15)\n\nany idea?',
  '$ npm test\n> engram@0.1.0 test\nFAIL src/app.test.ts\n\nI use fish so maybe the env is not loaded?',
  'Okay, long one, sorry. I’m a backend engineer at Palisade and I’ve been fighting this for two days. We have a Node service that consumes from SQS, and every few hours the consumer just stops pulling messages without any error. CPU is flat, memory is flat, the health check passes. Restarting the pod fixes it immediately. Any ideas on how to instrument this better?',
  'Ich heiße Jonas und arbeite bei Siemens in München.',
  'Oi! Meu nome é Thiago, sou engenheiro de software na Nubank e moro em São Paulo.',
  'I basically live in Vim these days, so terminal-only answers please.',
  'I’ll be joining Stripe in January, so I want to brush up on Ruby.',
  'Notes for you so you stop asking: I use Neovim, my shell is zsh, I’m on macOS, I use pnpm, and I test with vitest.',
];

export interface CaptureBench {
  /** The first capture in a process: it loads the NLP library (compromise) and compiles the shapes. */
  readonly loadMs: number;
  readonly samples: number;
  readonly perMessageMs: number[];
  /** Median of five captures of each 1 MB message: a pasted log, binary junk, prose. */
  readonly largeMs: { readonly log: number; readonly junk: number; readonly prose: number };
}

/** 1 MB of a pasted log, of binary junk (a fixed pseudo-random sequence) and of prose, the sizes a paste reaches. */
function largeMessages(): { log: string; junk: string; prose: string } {
  const line = "I'm on Windows and my name is Dana; ERROR 2026-12-01T10:00:00Z worker[42]: connection reset by peer\n";
  let seed = 12345;
  const bytes = Buffer.alloc(1_000_000);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 256;
  return { log: `Here is the log:\n${line.repeat(Math.ceil(1_000_000 / line.length))}`, junk: bytes.toString('latin1'), prose: 'I am a backend engineer and I like this. '.repeat(25_000) };
}

function medianMs(run: () => void, times = 5): number {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    run();
    samples.push(performance.now() - t0);
  }
  return samples.sort((a, b) => a - b)[Math.floor(times / 2)];
}

/** Capture of each message, `rounds` times, after the one call that loads the library. */
export function benchCapture(rounds = 20): CaptureBench {
  const started = performance.now();
  captureFacts('user', messages[0], defaultAllowlist);
  const loadMs = performance.now() - started;
  for (const message of messages) captureFacts('user', message, defaultAllowlist);
  const perMessageMs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const message of messages) {
      const t0 = performance.now();
      captureFacts('user', message, defaultAllowlist);
      perMessageMs.push(performance.now() - t0);
    }
  }
  const large = largeMessages();
  const largeMs = {
    log: medianMs(() => captureFacts('user', large.log, defaultAllowlist)),
    junk: medianMs(() => captureFacts('user', large.junk, defaultAllowlist)),
    prose: medianMs(() => captureFacts('user', large.prose, defaultAllowlist)),
  };
  return { loadMs, samples: perMessageMs.length, perMessageMs, largeMs };
}
