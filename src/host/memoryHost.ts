import { mkdirSync, watch } from 'node:fs';
import * as vscode from 'vscode';
import { cl100kTokenCounter } from '../core/shared/tokenCounter';
import type { Allowlist } from '../core/memory/allowlist';
import { EngramMemory, type MemoryAccess } from '../core/turn/engramMemory';
import { compactInWorker } from '../core/store/compactInWorker';
import { JournalWriteError, journalFolder } from '../core/store/journal';
import { registerDomainOperations } from '../core/domains';
import { describeLoss, MemoryStore, type DamageReport } from '../core/store/memoryStore';
import { StoreTooNewError } from '../core/store/migrations';

/**
 * Opens the memory store in the extension's globalStorage folder, keeps its snapshot fresh at idle, and
 * tells the person about anything that went wrong. When the store cannot be opened, Engram still chats,
 * without memory, and says so.
 */
export interface MemoryHost extends vscode.Disposable {
  /** The memory, or why there is none (the chat still works, and says so). */
  readonly access: MemoryAccess;
  readonly folder: string;
  /** Called after each write: schedules a snapshot once the window has been quiet for a while. */
  noteWrite(): void;
  /** Saves everything: journal durable, then a snapshot (on deactivate). */
  close(): Promise<void>;
}

/** A quiet window this long gets its journal folded into a snapshot. */
const idleSnapshotMs = 30_000;
/** Past this many journal bytes, snapshot at the next quiet moment regardless. */
const snapshotAfterBytes = 2 * 1024 * 1024;

export async function openMemory(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, allowlist: () => Allowlist): Promise<MemoryHost> {
  const folder = context.globalStorageUri.fsPath;
  const dist = vscode.Uri.joinPath(context.extensionUri, 'dist');
  const wasmPath = vscode.Uri.joinPath(dist, 'sql-wasm.wasm').fsPath;
  const workerPath = vscode.Uri.joinPath(dist, 'snapshotWorker.js').fsPath;
  let reportedWriteError = false;
  registerDomainOperations();
  try {
    const store = await MemoryStore.open({
      folder,
      wasmPath,
      tokens: cl100kTokenCounter,
      compact: (storeFolder, wasm) => compactInWorker(workerPath, storeFolder, wasm),
      onDamage: (damage) => reportDamage(damage, log),
      onWriteError: (error) => {
        log.error(error.message);
        if (reportedWriteError) return;
        reportedWriteError = true;
        const diskFull = error instanceof JournalWriteError && error.diskFull;
        void vscode.window.showErrorMessage(
          diskFull
            ? 'The disk holding Engram\'s memory is full. What you said since is kept in this window only, and written as soon as ' +
                'there is room again: free some disk space. Everything saved before stays safe.'
            : `Engram could not save to its memory folder: ${error.message}. What you said is kept in this window and written ` +
                'again when saving works (check the disk space of the folder).',
          'Open Folder',
        ).then((choice) => choice && vscode.commands.executeCommand('engram.openStoreFolder'));
      },
    });
    log.info(`memory store opened at ${folder} (schema ${store.schemaVersion}, ${store.stats().turns} turns)`);
    if (store.damage) reportDamage(store.damage, log);
    reportSkippedLines(store, log);
    const memory = new EngramMemory(store, cl100kTokenCounter, { allowlist });
    const host = new StoreHost(memory, folder, log);
    // Every write, ours or another window's, schedules a snapshot at the next quiet moment.
    memory.onDidChange(() => host.noteWrite());
    host.scheduleRetention();
    host.watchOtherWriters();
    return host;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log.error(`memory store unavailable: ${message}`);
    const reason = error instanceof StoreTooNewError ? error.message : `Engram could not open its memory at ${folder}: ${message}`;
    void vscode.window.showErrorMessage(reason, 'Open Folder').then((choice) => choice && vscode.commands.executeCommand('engram.openStoreFolder'));
    return {
      access: { state: 'unavailable', reason },
      folder,
      noteWrite: () => undefined,
      close: async () => undefined,
      dispose: () => undefined,
    };
  }
}

/** Says what was damaged, where it was kept, and how many turns came back from where: the counts are the rebuilt memory's. */
function reportDamage(damage: DamageReport, log: vscode.LogOutputChannel): void {
  const kept = damage.keptAt ? `It was kept, untouched, at ${damage.keptAt}.` : 'It will be set aside by the next snapshot.';
  const from =
    damage.fromPrevious > 0
      ? `${damage.fromPrevious} from the previous snapshot and ${damage.fromJournals} from the journals`
      : 'all from the journals';
  log.warn(`store file damaged: ${damage.reason}; kept at ${damage.keptAt ?? '(not yet moved)'}; ${damage.recoveredTurns} turns came back (${from})${describeLoss(damage)}`);
  void vscode.window
    .showWarningMessage(
      `Engram's memory file could not be read (${damage.reason}). ${kept} ` +
        `${damage.recoveredTurns} turns came back (${from}) into a new memory.${describeLoss(damage)}`,
      'Open Folder',
    )
    .then((choice) => choice && vscode.commands.executeCommand('engram.openStoreFolder'));
}

/** Journal lines that failed their checksum were skipped, never applied: the person is told, once, in the log. */
function reportSkippedLines(store: MemoryStore, log: vscode.LogOutputChannel): void {
  const bad = store.skippedJournalLines;
  if (bad.length === 0) return;
  for (const line of bad.slice(0, 20)) log.warn(`journal line skipped: ${line.journal} at byte ${line.offset}: ${line.reason}`);
  void vscode.window.showWarningMessage(
    `Engram skipped ${bad.length} damaged line(s) in its memory journals; nothing damaged was applied. The log (Engram: Show Log) names them.`,
  );
}

class StoreHost implements MemoryHost {
  private idleTimer: NodeJS.Timeout | undefined;
  private snapshotting: Promise<unknown> | undefined;
  private readonly retentionTimers: NodeJS.Timeout[] = [];
  private readonly watchers: { close(): void }[] = [];

  constructor(
    readonly access: EngramMemory,
    readonly folder: string,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  private get store(): MemoryStore {
    return this.access.store;
  }

  /**
   * Another window or a CLI import appends to its own journal: read it soon after, so the Memory view, the panels
   * and the status bar change without waiting for this window's next prompt (every prompt syncs anyway).
   */
  watchOtherWriters(): void {
    let pending: NodeJS.Timeout | undefined;
    try {
      const journals = journalFolder(this.folder);
      mkdirSync(journals, { recursive: true });
      const watcher = watch(journals, (_event, name) => {
        if (!name || !String(name).endsWith('.jsonl') || String(name) === this.store.journalName) return;
        if (pending) clearTimeout(pending);
        pending = setTimeout(() => {
          try {
            this.store.syncFromOtherWriters();
          } catch (error) {
            this.log.warn(`reading other windows' changes: ${error instanceof Error ? error.message : String(error)}`);
          }
        }, 300);
      });
      watcher.on('error', () => watcher.close());
      this.watchers.push({ close: () => { if (pending) clearTimeout(pending); watcher.close(); } });
    } catch (error) {
      this.log.warn(`not watching for other windows' changes: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Retention runs a little after start (never during activation) and then once a day. */
  scheduleRetention(): void {
    const run = (): void => {
      const days = vscode.workspace.getConfiguration('engram').get<number>('retention.days', 90);
      if (!days || days <= 0) return;
      this.store
        .applyRetention(days)
        .then((cooled) => cooled.length && this.log.info(`retention: ${cooled.length} conversations older than ${days} days cooled to their summaries`))
        .catch((error: unknown) => this.log.warn(`retention skipped: ${String(error)}`));
    };
    this.retentionTimers.push(setTimeout(run, 60_000), setInterval(run, 86_400_000));
  }

  noteWrite(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const delay = this.store.unsnapshottedBytes > snapshotAfterBytes ? 1_000 : idleSnapshotMs;
    this.idleTimer = setTimeout(() => void this.snapshot(), delay);
  }

  private snapshot(): Promise<unknown> {
    this.snapshotting ??= this.store
      .snapshot()
      .then((result) => {
        if (result.done) this.log.info(`snapshot written: ${result.turns} turns, ${result.snapshotBytes} bytes in ${result.ms} ms`);
      })
      .catch((error: unknown) => this.log.warn(`snapshot skipped: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => (this.snapshotting = undefined));
    return this.snapshotting;
  }

  async close(): Promise<void> {
    this.dispose();
    await this.snapshotting;
    await this.store.close({ snapshot: true }).catch((error: unknown) => this.log.error(`closing the memory store: ${String(error)}`));
  }

  dispose(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    for (const timer of this.retentionTimers) clearTimeout(timer);
    for (const watcher of this.watchers.splice(0)) watcher.close();
  }
}
