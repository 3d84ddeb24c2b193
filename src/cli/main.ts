import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { cl100kTokenCounter } from '../core/shared/tokenCounter';
import { registerDomainOperations } from '../core/domains';
import { compactStore } from '../core/store/compaction';
import { describeLoss, MemoryStore, type MemoryStoreOptions } from '../core/store/memoryStore';
import { listFlag, parseArgs, requiredFlag, stringFlag, UsageError, type ParsedArgs } from './args';
import { attachFile } from './attachFile';
import { measureOpen, runBench } from './bench';
import { measureFirstTurn } from './benchFirstTurn';
import { runRecallOnlyBench } from './benchRecallOnly';
import { runBenchScale, scaleParts, type ScalePart } from './benchScale';
import { importTurns } from './importTurns';
import { gateEvalOutput, runGateEvalFile } from './gateEvalFile';
import { replayFile } from './replayFile';
import { evalRecallAtScale, evalRecallCommand, readCorpus } from './evalRecall';
import { EngramMemory } from '../core/turn/engramMemory';
import { runChat } from './chatCommand';
import { runMcp } from './mcpCommand';
import { whyNotAStore } from './storeCheck';
import { projectScopeOf, type ProjectScope } from '../core/project/projectScope';
import { teamFileSummary } from '../core/project/projectMemory';
import { blockTable, contextReports, recall, recallBatch, search } from './recallCommands';
import { memoryStats } from '../core/context/memoryStats';
import { runExport, runImportMemory, type Output } from './memoryFileCommands';

const usage = `engram: the Engram memory store from the command line

usage: engram <command> --db DIR [--json]

commands:
  import FILE.jsonl   add conversation history, one turn per line:
                      {"session": str, "role": "user"|"assistant", "text": str, "at"?: ISO-8601, "ref"?: str}
  stats               counts of what the store holds
  recall QUERY [--k N] [--session S]
  recall --queries FILE.jsonl
                      search earlier conversations (the engine of the recall_conversation tool); the batch form
                      prints one {"id","hits":[{"ref","session","role","text","score"}]} line per {"id","query"} line
  search QUERY [--scope facts|behaviors|summaries|all] [--k N] [--workspace DIR]
                      search confirmed memory (the engine of the memory_search tool); with --workspace, the facts
                      of that folder's project beside the owner's, each saying which it belongs to
  context --session S the blocks each prompt of a conversation carried: layer, tokens, included / truncated / absent, why
  replay FILE.jsonl --policy defer|consolidate|corrections|both [--broad-corrections] [--no-stale-marks]
                      replay a conversation against a throw-away store and count the wrong turns, and the
                      prompts that presented a retired belief as true (--no-stale-marks: without the marks)
  eval-recall [--corpus DIR] [--scale N[,N...]]
                      recall quality on a generated corpus (or DIR's turns.jsonl and questions.jsonl): evidence
                      recall@5 and @10, ours against plain BM25; with --scale, recall@10 of that evidence stored
                      under N newer distractor turns, beside plain BM25 and native FTS5 (when better-sqlite3 is there)
  gate-eval FILE.jsonl run the capture gates over labelled messages {"id","role","text","expect":[{"key","value"}]}
                      and report every proposal with its tier, and precision and recall
  chat --model NAME [--host URL] [--session ID] [--context-length N] [--attach FILE]... [--workspace DIR]
                      user messages on stdin, one per line (a literal \\n is a newline), each through the same turn
                      engine as @engram against Ollama at --host (default http://127.0.0.1:11434); yes, no and
                      "undo last learned" work as in the chat; --attach (repeatable) attaches a file to the first
                      message as #file does in VS Code; --workspace sets the project scope (that folder's
                      repository: its facts are learned and used there only); --json prints one line per turn
  mcp [--workspace DIR] [--allowlist FILE]
                      an MCP server on stdin/stdout (no network) for other agents: the tools memory_search and
                      recall_conversation (as in VS Code) and propose_fact (a proposal for your review, never a
                      confirmed fact); every call is recorded with the client's name (see stats)
  export [--out FILE] [--markdown]
                      the whole memory as JSON (format version 2: conversations, every fact of every scope and
                      status with its history, behaviours, what was forgotten), to FILE or stdout; --markdown: the
                      plain-file view instead (what Engram believes and no longer believes; never read back)
  import-memory FILE [--yes]
                      prints what an export holds and what importing it changes here, asks, then applies it
                      (--yes: without asking); importing the same file twice changes nothing
  compact             folds every journal into a new snapshot generation, so the next open reads one file
  bench [--turns N] [--facts F] [--samples M]
                      measure the per-turn memory work at N stored turns (default 10000) in a throw-away
                      store, beside a naive save per turn, recall latency and cold open
  bench --recall-only [--turns N] [--cache DIR]
                      only recall_conversation beside native FTS5 on the same generated store (with --cache,
                      the store is kept in DIR and reused by later runs of the same N)
  bench-scale [--turns N] [--only import,open,mcp] [--runs R] [--cache DIR]
                      the store at N turns (default 100000), in fresh processes: import rate (wall time), cold
                      open (ms, RSS beside the file's size), MCP spawn to tools/list and close; the history file
                      and the imported store are kept in DIR (default ~/.cache/engram-bench) for the next run

--db DIR (not used by bench) is a store folder laid out as the extension's globalStorage folder.
--json prints machine-readable output.`;

const valuedFlags = new Set(['out', 'db', 'turns', 'samples', 'k', 'session', 'queries', 'scope', 'policy', 'model', 'host', 'context-length', 'facts', 'workspace', 'allowlist', 'attach', 'scale', 'corpus', 'only', 'cache', 'runs']);
const switchFlags = new Set(['json', 'help', 'broad-corrections', 'no-stale-marks', 'markdown', 'yes', 'warm', 'recall-only']);

/** sql.js's wasm sits beside the bundled CLI in dist/; compiled tests find it in node_modules. */
function wasmPath(): string {
  const bundled = join(__dirname, 'sql-wasm.wasm');
  return existsSync(bundled) ? bundled : require.resolve('sql.js/dist/sql-wasm.wasm');
}

/** `--workspace DIR`: the project scope of that folder (its repository's remote, root commit, or the folder). */
function workspaceScope(args: ParsedArgs): ProjectScope | undefined {
  const folder = stringFlag(args, 'workspace');
  if (folder === undefined) return undefined;
  if (!existsSync(folder)) throw new UsageError(`no such folder: ${folder}`);
  return projectScopeOf(folder);
}

function positiveInteger(args: ParsedArgs, name: string, fallback: number): number {
  const text = stringFlag(args, name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new UsageError(`--${name} must be a positive whole number`);
  return value;
}

async function openStore(args: ParsedArgs, access: 'read' | 'write', extra: Partial<MemoryStoreOptions> = {}): Promise<MemoryStore> {
  const store = await MemoryStore.open({
    ...extra,
    folder: requiredFlag(args, 'db'),
    wasmPath: wasmPath(),
    tokens: cl100kTokenCounter,
    readOnly: access === 'read',
    onWriteError: (error) => process.stderr.write(`engram: ${error.message}\n`),
  });
  reportProblems(store);
  return store;
}

/** Damage and skipped journal lines, said on stderr so a person learns of them whatever the command prints. */
function reportProblems(store: MemoryStore): void {
  const damage = store.damage;
  if (damage) {
    const kept = damage.keptAt ? `it was kept at ${damage.keptAt}` : 'it will be set aside by the next snapshot (another process is writing one)';
    const from = damage.fromPrevious > 0 ? `${damage.fromPrevious} from the previous snapshot and ${damage.fromJournals} from the journals` : `all from the journals`;
    process.stderr.write(`engram: the store file was unreadable (${damage.reason}); ${kept}. ${damage.recoveredTurns} turns came back (${from}).${describeLoss(damage)}\n`);
  }
  const bad = store.skippedJournalLines;
  if (bad.length > 0) {
    const where = bad.slice(0, 5).map((line) => `${line.journal} at byte ${line.offset}: ${line.reason}`).join('; ');
    process.stderr.write(`engram: ${bad.length} journal line(s) did not verify and were skipped, none applied (${where}${bad.length > 5 ? '; …' : ''}).\n`);
  }
}

function print(args: ParsedArgs, value: unknown, human: string): void {
  process.stdout.write(args.flags.has('json') ? `${JSON.stringify(value)}\n` : `${human}\n`);
}

function output(args: ParsedArgs): Output {
  return { json: args.flags.has('json'), write: (text) => process.stdout.write(`${text}\n`), warn: (line) => process.stderr.write(`engram: ${line}\n`) };
}

async function run(argv: readonly string[]): Promise<number> {
  // Every journal may hold any domain's operations: all of them are known before a store is opened.
  registerDomainOperations();
  const args = parseArgs(argv, valuedFlags, switchFlags);
  if (!args.command || args.flags.has('help') || args.command === 'help') {
    process.stdout.write(`${usage}\n`);
    return args.command || args.flags.has('help') ? 0 : 2;
  }
  switch (args.command) {
    case 'import': {
      const file = args.positionals[0];
      if (!file) throw new UsageError('import needs a FILE.jsonl');
      if (!existsSync(file)) throw new UsageError(`no such file: ${file}`);
      const store = await openStore(args, 'write');
      let report;
      try {
        // Every turn counted is durable in our journal; the snapshot at close folds it in for fast loading later.
        report = await importTurns(store, file, (line) => process.stderr.write(`engram: ${line}\n`));
      } catch (error) {
        await store.close().catch(() => undefined);
        throw error;
      }
      try {
        await store.close({ snapshot: true });
      } catch (error) {
        process.stderr.write(`engram: the turns are saved in the journal, but the snapshot was not written: ${(error as Error).message}\n`);
      }
      const problems = report.rejected.map((r) => `\n  line ${r.line}: ${r.reason}`).join('');
      print(args, report, `imported ${report.imported} turns (${report.alreadyStored} already stored, ${report.rejected.length} rejected)${problems}`);
      return report.rejected.length > 0 ? 1 : 0;
    }
    case 'stats': {
      const store = await openStore(args, 'read');
      try {
        const memory = new EngramMemory(store, cl100kTokenCounter);
        const agents = memory.agentUse();
        const stats = { ...memoryStats(store), factsByScope: memory.factsByScope(), agents };
        const perScope = Object.entries(stats.factsByScope).map(([scope, n]) => `${scope}: ${n.confirmed} confirmed, ${n.proposed} proposed`).join('; ');
        print(
          args,
          stats,
          `${stats.turns} turns in ${stats.sessions} sessions; facts: ${stats.facts.confirmed} confirmed, ` +
            `${stats.facts.proposed} proposed, ${stats.facts.retired} retired; ${stats.behaviors} behaviours${perScope ? `\nby scope: ${perScope}` : ''}` +
            agents.map((agent) => `\n${agent.client} (MCP): ${agent.calls} calls (${Object.entries(agent.tools).map(([tool, n]) => `${tool} ${n}`).join(', ')}), ${agent.memoriesUsed} memories used`).join(''),
        );
        return 0;
      } finally {
        await store.close();
      }
    }
    case 'recall': {
      const store = await openStore(args, 'read');
      try {
        const k = positiveInteger(args, 'k', 10);
        const session = stringFlag(args, 'session');
        const queries = stringFlag(args, 'queries');
        if (queries) {
          if (!existsSync(queries)) throw new UsageError(`no such file: ${queries}`);
          for (const line of recallBatch(new EngramMemory(store, cl100kTokenCounter), queries, k, session)) process.stdout.write(`${line}\n`);
          return 0;
        }
        const query = args.positionals.join(' ').trim();
        if (!query) throw new UsageError('recall needs a QUERY or --queries FILE.jsonl');
        const hits = recall(new EngramMemory(store, cl100kTokenCounter), query, k, session);
        print(args, { query, hits }, hits.map((hit) => `${hit.score.toFixed(2)}  ${hit.session.slice(0, 12)}  ${hit.role}: ${hit.text.slice(0, 120)}`).join('\n') || 'no matches');
        return 0;
      } finally {
        await store.close();
      }
    }
    case 'search': {
      const project = workspaceScope(args);
      // With a workspace, the repository and its team file are read as the extension reads them when the folder
      // opens (their proposals are written), so the store is opened for writing then.
      const store = await openStore(args, project ? 'write' : 'read');
      try {
        const memory = new EngramMemory(store, cl100kTokenCounter);
        const opened = project ? await memory.projects.readOnOpen(project) : undefined;
        if (opened && !args.flags.has('json')) process.stderr.write(`engram: ${teamFileSummary(opened.teamFile)}\n`);
        const hits = search(memory, args.positionals.join(' '), stringFlag(args, 'scope'), positiveInteger(args, 'k', 10), project?.scope);
        const read = opened && { derived: opened.derived.length, teamFile: { ...opened.teamFile, proposed: opened.teamFile.proposed.length, refused: opened.teamFile.refused.length } };
        print(args, { hits, ...(project ? { project: project.scope, ...read } : {}) }, hits.map((hit) => `[${hit.kind}${hit.belongsTo ? `, ${hit.belongsTo}` : ''}] ${hit.label}`).join('\n') || 'no matches');
        return 0;
      } finally {
        // Proposals just written are folded into a snapshot, so the next command loads them instead of replaying them.
        await store.close({ snapshot: project !== undefined });
      }
    }
    case 'context': {
      const store = await openStore(args, 'read');
      try {
        const reports = contextReports(new EngramMemory(store, cl100kTokenCounter), requiredFlag(args, 'session'));
        print(args, { reports }, reports.map(blockTable).join('\n\n') || 'no context reports for that conversation');
        return 0;
      } finally {
        await store.close();
      }
    }
    case 'replay': {
      const file = args.positionals[0];
      if (!file) throw new UsageError('replay needs a FILE.jsonl');
      if (!existsSync(file)) throw new UsageError(`no such file: ${file}`);
      const result = await replayFile(file, requiredFlag(args, 'policy'), args.flags.has('broad-corrections'), wasmPath(), !args.flags.has('no-stale-marks'));
      print(
        args,
        result,
        `${result.policy}: ${result.wrongTurns} wrong turns of ${result.userTurns}, ${result.falseRetirements} true beliefs retired, ${result.live} live; ` +
          `${result.runs} consolidation runs, ${result.cosine} comparisons; ${result.staleTurns} prompts presented a retired belief as true`,
      );
      return 0;
    }
    case 'eval-recall': {
      const folder = stringFlag(args, 'corpus');
      if (folder && !existsSync(folder)) throw new UsageError(`no such folder: ${folder}`);
      const corpus = folder ? readCorpus(folder) : undefined;
      const scale = stringFlag(args, 'scale');
      if (scale !== undefined) {
        const sizes = scale.split(',').map((size) => Number(size.trim()));
        if (sizes.some((size) => !Number.isInteger(size) || size < 0)) throw new UsageError('--scale takes whole numbers of turns, e.g. --scale 0,60000,300000');
        const result = await evalRecallAtScale(wasmPath(), sizes, corpus, (line) => process.stderr.write(`engram eval-recall: ${line}\n`));
        print(args, result, result.table);
        return 0;
      }
      const result = await evalRecallCommand(wasmPath(), corpus);
      print(args, result, result.table);
      return 0;
    }
    case 'gate-eval': {
      const file = args.positionals[0];
      if (!file) throw new UsageError('gate-eval needs a FILE.jsonl');
      if (!existsSync(file)) throw new UsageError(`no such file: ${file}`);
      const { json, human } = gateEvalOutput(runGateEvalFile(file));
      print(args, json, human);
      return 0;
    }
    case 'chat': {
      const model = requiredFlag(args, 'model');
      const attachments = listFlag(args, 'attach').map(attachFile);
      const store = await openStore(args, 'write');
      try {
        return await runChat({
          store,
          model,
          host: stringFlag(args, 'host') ?? 'http://127.0.0.1:11434',
          session: stringFlag(args, 'session'),
          contextLength: stringFlag(args, 'context-length') === undefined ? undefined : positiveInteger(args, 'context-length', 8192),
          attachments,
          json: args.flags.has('json'),
          projectScope: workspaceScope(args),
          input: process.stdin,
          write: (line) => process.stdout.write(`${line}\n`),
          warn: (line) => process.stderr.write(`engram: ${line}\n`),
        });
      } finally {
        await store.close({ snapshot: true });
      }
    }
    case 'mcp':
      return runMcp({
        db: requiredFlag(args, 'db'),
        workspace: stringFlag(args, 'workspace'),
        allowlistFile: stringFlag(args, 'allowlist'),
        open: async (folder) => openStore({ ...args, flags: new Map([...args.flags, ['db', folder]]) }, 'read', { writeOnDemand: true }),
        compactLater: (folder) => spawn(process.execPath, [process.argv[1], 'compact', '--db', folder], { detached: true, stdio: 'ignore' }).unref(),
        log: (line) => process.stderr.write(`engram mcp: ${line}\n`),
      });
    case 'compact': {
      const folder = requiredFlag(args, 'db');
      const notAStore = whyNotAStore(folder);
      if (notAStore) throw new UsageError(`--db must be an Engram store folder: ${notAStore}`);
      // The snapshot lock keeps two compactions apart; one already running makes this one a no-op.
      const result = await compactStore(folder, wasmPath());
      print(args, result, result.done ? `generation ${result.generation}: ${result.turns} turns, ${result.snapshotBytes} bytes in ${result.ms} ms` : 'another process is writing a snapshot; nothing to do');
      return 0;
    }
    case 'export': {
      const store = await openStore(args, 'read');
      try {
        return runExport(store, { out: stringFlag(args, 'out'), markdown: args.flags.has('markdown') }, output(args));
      } finally {
        await store.close();
      }
    }
    case 'import-memory': {
      const file = args.positionals[0];
      if (!file) throw new UsageError('import-memory needs a FILE (an export of Engram\'s memory)');
      if (!existsSync(file)) throw new UsageError(`no such file: ${file}`);
      return runImportMemory(file, { yes: args.flags.has('yes'), open: () => openStore(args, 'write'), tokens: cl100kTokenCounter, input: process.stdin }, output(args));
    }
    case 'bench': {
      if (args.flags.has('recall-only')) {
        const cache = stringFlag(args, 'cache');
        const measured = await runRecallOnlyBench({ turns: positiveInteger(args, 'turns', 10_000), wasmPath: wasmPath(), tokens: cl100kTokenCounter, cache, log: (line) => process.stderr.write(`engram bench: ${line}\n`) });
        print(args, measured, JSON.stringify(measured, null, 2));
        return 0;
      }
      const result = await runBench({
        turns: positiveInteger(args, 'turns', 10_000),
        facts: positiveInteger(args, 'facts', 1_000),
        samples: positiveInteger(args, 'samples', 300),
        wasmPath: wasmPath(),
        workerPath: join(__dirname, 'snapshotWorker.js'),
        cliPath: process.argv[1],
        tokens: cl100kTokenCounter,
        log: (line) => process.stderr.write(`engram bench: ${line}\n`),
      });
      print(args, result, JSON.stringify(result, null, 2));
      return 0;
    }
    case 'bench-scale': {
      const only = (stringFlag(args, 'only') ?? scaleParts.join(',')).split(',').map((part) => part.trim());
      const unknown = only.find((part) => !scaleParts.includes(part as ScalePart));
      if (unknown) throw new UsageError(`--only takes ${scaleParts.join(', ')} (comma-separated), not "${unknown}"`);
      const result = await runBenchScale({
        turns: positiveInteger(args, 'turns', 100_000),
        cacheFolder: stringFlag(args, 'cache') ?? join(homedir(), '.cache', 'engram-bench'),
        only: new Set(only as ScalePart[]),
        runs: positiveInteger(args, 'runs', 3),
        cliPath: process.argv[1],
        log: (line) => process.stderr.write(`engram bench-scale: ${line}\n`),
      });
      print(args, result, JSON.stringify(result, null, 2));
      return 0;
    }
    case 'bench-first-turn': {
      const measured = await measureFirstTurn(requiredFlag(args, 'db'), wasmPath(), cl100kTokenCounter, args.flags.has('warm'));
      process.stdout.write(`firstTurn=${JSON.stringify(measured)}\n`);
      return 0;
    }
    case 'bench-open': {
      const measured = await measureOpen(requiredFlag(args, 'db'), wasmPath(), cl100kTokenCounter);
      process.stdout.write(`open=${JSON.stringify(measured)}\n`);
      return 0;
    }
    default:
      throw new UsageError(`unknown command "${args.command}"`);
  }
}

run(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(error instanceof UsageError ? `engram: ${message}\n\n${usage}\n` : `engram: ${message}\n`);
    if (process.env.ENGRAM_DEBUG) process.stderr.write(`${(error as Error).stack}\n`);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  },
);
