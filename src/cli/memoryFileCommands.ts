import { createInterface } from 'node:readline';
import { describeImportPlan, describeImportResult } from '../core/backup/describeImport';
import { exportMemory } from '../core/backup/exportMemory';
import { importMemory, planImport, type ImportPlan } from '../core/backup/importMemory';
import { count, summarizeMemoryFile } from '../core/backup/memoryFile';
import { memoryMarkdown } from '../core/backup/memoryMarkdown';
import { largestMemoryFileBytes, readMemoryFile } from '../core/backup/readMemoryFile';
import type { TokenCounter } from '../core/shared/tokenCounter';
import type { MemoryStore } from '../core/store/memoryStore';
import { writeFileAtomically } from '../core/store/snapshotFile';

/** `engram export` and `engram import-memory`: the same core as the VS Code commands Export / Import Memory. */
export interface Output {
  readonly json: boolean;
  readonly write: (text: string) => void;
  readonly warn: (line: string) => void;
}

/** Writes the whole memory (or its Markdown view) to `out`, or to stdout without one. */
export function runExport(store: MemoryStore, options: { out?: string; markdown: boolean }, output: Output): number {
  const data = options.markdown ? undefined : exportMemory(store);
  const text = data ? `${JSON.stringify(data, null, 2)}\n` : memoryMarkdown(store);
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.byteLength > largestMemoryFileBytes && data) {
    output.warn(`the export is ${Math.round(bytes.byteLength / 1024 / 1024)} MB, more than Import Memory reads (${largestMemoryFileBytes / 1024 / 1024} MB)`);
  }
  if (!options.out) {
    output.write(text.endsWith('\n') ? text.slice(0, -1) : text);
    return 0;
  }
  writeFileAtomically(options.out, bytes);
  const holds = data ? summarizeMemoryFile(data) : undefined;
  const human = data
    ? `exported ${count(data.sessions.length, 'conversation')}, ${count(data.statements.length, 'fact')} (every status) and ${count(data.behaviors.length, 'behaviour')} to ${options.out}`
    : `wrote the Markdown view of the memory to ${options.out} (a view: Engram never reads it back)`;
  output.write(output.json ? JSON.stringify({ out: options.out, format: data ? 'json' : 'markdown', bytes: bytes.byteLength, ...(holds ? { holds } : {}) }) : human);
  return 0;
}

/** The plan as `--json` prints it: what the file holds and what importing it changes here. */
function planJson(file: string, plan: ImportPlan): Record<string, unknown> {
  return {
    file,
    holds: plan.holds,
    new: { turns: plan.turns.add, conversations: plan.conversations.add.length, facts: plan.facts.add.length, behaviors: plan.behaviors.add.length },
    updated: { conversations: plan.conversations.update.length, facts: plan.facts.update.length, behaviors: plan.behaviors.update.length },
    forgottenHere: { turns: plan.turns.forgottenHere, facts: plan.facts.forgottenHere },
    removesHere: plan.forget.removesHere,
    conflicts: plan.conflicts,
    nothingNew: plan.nothingNew,
  };
}

/** One line from stdin, or undefined when it ends first. */
function readAnswer(input: NodeJS.ReadableStream): Promise<string | undefined> {
  return new Promise((resolve) => {
    const lines = createInterface({ input });
    let answered = false;
    lines.once('line', (line) => {
      answered = true;
      lines.close();
      resolve(line);
    });
    lines.once('close', () => {
      if (!answered) resolve(undefined);
    });
  });
}

/**
 * Reads and checks the file whole before the store is opened (a bad file writes nothing, not even a journal), prints
 * what it holds and what importing changes here, asks on stdin unless `yes`, then applies it.
 */
export async function runImportMemory(
  file: string,
  options: { yes: boolean; open: () => Promise<MemoryStore>; tokens: TokenCounter; input: NodeJS.ReadableStream },
  output: Output,
): Promise<number> {
  const data = readMemoryFile(file);
  const store = await options.open();
  try {
    const plan = planImport(store, data);
    output.write(output.json ? JSON.stringify(planJson(file, plan)) : describeImportPlan(plan));
    if (!options.yes && !plan.nothingNew) {
      output.warn('import it? [y/N] ');
      const answer = await readAnswer(options.input);
      if (answer === undefined) {
        output.warn('no answer on stdin, so nothing was imported (pass --yes to import without asking)');
        return 1;
      }
      if (!/^\s*y(es)?\s*$/i.test(answer)) {
        output.write(output.json ? JSON.stringify({ applied: false }) : 'Nothing was imported.');
        return 0;
      }
    }
    const result = await importMemory(store, data, options.tokens, { plan });
    output.write(output.json ? JSON.stringify({ applied: true, ...result }) : describeImportResult(result));
    return 0;
  } finally {
    await store.close({ snapshot: true });
  }
}
