import * as vscode from 'vscode';
import type { BehaviorBook } from '../core/memory/behaviorBook';
import type { Facts } from '../core/memory/facts';
import { AllowlistHost } from './allowlistHost';
import { registerBehaviorCommands } from './behaviorCommands';
import { ContextPanel } from './contextPanel';
import { MemoryGraphPanel } from './memoryGraphPanel';
import { ContextReports } from './contextReports';
import { createContextStatusItem } from './contextStatus';
import { SummaryHost } from './summaryHost';
import { VectorHost } from './vectorHost';
import { MemorySearchTool } from './tools/memorySearchTool';
import { RecallConversationTool } from './tools/recallConversationTool';
import { toolNames } from './tools/toolNames';
import { cl100kTokenCounter } from '../core/shared/tokenCounter';
import { MemoryToolRunner } from '../core/turn/memoryTools';
import { TurnEngine } from '../core/turn/turnEngine';
import { TurnModels } from './vscodeTurnModel';
import { TurnToolCatalogue } from './turnTools';
import { registerReceiptCommands } from './receiptCommands';
import { MemoryDocuments, memoryScheme } from './memoryDocuments';
import { configuredShares } from './settings';
import { registerChatParticipant, type TurnOutcome } from './chatParticipant';
import { registerFactCommands } from './factCommands';
import { createMemoryTreeView, MemoryTreeProvider } from './memoryTree';
import { registerMemoryPanels } from './memoryPanels';
import { memoryOverview } from '../core/project/memoryOverview';
import { registerMemoryCommands } from './memoryCommands';
import { openMemory } from './memoryHost';
import { registerMcpServer } from './mcpServerProvider';
import { OllamaLanguageModelProvider, ollamaVendor } from './ollamaProvider';
import { affectsOllama } from './settings';
import { runWarmUp, warmUpSteps } from '../core/turn/warmUp';
import { answeringModel } from '../core/turn/turnModel';
import { ModelProposerHost } from './modelProposerHost';
import { ProjectScopes } from './projectScopes';
import { registerProjectCommands } from './projectCommands';
import { teamFileSummary } from '../core/project/projectMemory';

/** What activate() returns: used by the extension's own tests, and stable enough for other extensions. */
export interface EngramApi {
  readonly storeFolder: string;
  /** Saves the memory now (it is otherwise saved a moment after each change). */
  flush(): Promise<void>;
  readonly onDidFinishTurn: vscode.Event<TurnOutcome>;
  /** Beliefs about the owner (confirmed, proposed, retired) with their audit trail. */
  readonly facts: Facts | undefined;
  /** Lessons proposed from corrections, and the behaviours the owner approved. */
  readonly behaviors: BehaviorBook | undefined;
  /** Fires after anything in memory changed: the tree view and the panel refresh on it. */
  readonly onDidChangeMemory: vscode.Event<void>;
  /** The open context panel, if any (what it was sent, and its ready handshake). */
  contextPanel(): ContextPanel | undefined;
  /** The open memory graph, if any. */
  memoryGraph(): MemoryGraphPanel | undefined;
  /** What VS Code does after a window reload: hands a panel of one of Engram's view types to its serializer (tests). */
  restorePanel(panel: vscode.WebviewPanel): Promise<void>;
}

/** The composition root: builds every part once and hands it what it needs. */
export async function activate(context: vscode.ExtensionContext): Promise<EngramApi> {
  const log = vscode.window.createOutputChannel('Engram', { log: true });
  context.subscriptions.push(log);
  try {
    const allowlist = new AllowlistHost(context.globalStorageUri.fsPath, log);
    const memory = await openMemory(context, log, () => allowlist.allowlist);
    context.subscriptions.push(allowlist, memory);
    // One change stream: the store's write path and the sync with other writers fire it; every view refreshes on it.
    const memoryChanged = new vscode.EventEmitter<void>();
    context.subscriptions.push(memoryChanged);
    const access = memory.access;
    if (access.state === 'open') access.onDidChange(() => memoryChanged.fire());
    // deactivate() awaits this, so pending changes are saved before the host exits.
    closeMemory = () => memory.close();

    const provider = new OllamaLanguageModelProvider();
    context.subscriptions.push(provider, vscode.lm.registerLanguageModelChatProvider(ollamaVendor, provider));
    context.subscriptions.push(vscode.workspace.onDidChangeConfiguration((event) => affectsOllama(event) && provider.refresh()));
    // Resolving our models once makes them available to the chat without any other AI extension.
    void vscode.lm.selectChatModels({ vendor: ollamaVendor }).then(undefined, (error: unknown) => log.warn(`model listing: ${String(error)}`));


    const vectors = new VectorHost(memory, log);
    const projects = new ProjectScopes();
    const summaries = new SummaryHost(memory);
    const reports = new ContextReports(memory, async () => vscode.commands.executeCommand('engram.compactNow'));
    context.subscriptions.push(
      reports,
      vscode.lm.registerTool(toolNames.memorySearch, new MemorySearchTool(memory, () => projects.current()?.scope)),
      vectors,
      vscode.lm.registerTool(toolNames.recallConversation, new RecallConversationTool(memory, vectors)),
      // The same memory for VS Code's other agents and harnesses, which reach local tools only through MCP.
      registerMcpServer(context, memory, log),
    );
    const engine = new TurnEngine({
      memory: memory.access,
      tokens: cl100kTokenCounter,
      shares: configuredShares,
      afterReply: (turns) => vectors.afterTurn(turns),
      log: (level, message) => log[level](message),
    });
    const memoryTools = new MemoryToolRunner(
      () => (access.state === 'open' ? access.store : undefined),
      (query) => vectors.meaningOf(query),
      () => (access.state === 'open' ? access.retiredBeliefs() : []),
      cl100kTokenCounter,
    );
    // What the repository says about itself, and what the team shared: proposals only, for the owner to review.
    // Read just after activation, the team file asynchronously within its caps, so activation never waits on git.
    const readProjects = setTimeout(async () => {
      if (access.state !== 'open') return;
      for (const project of projects.all()) {
        try {
          const read = await access.projects.readOnOpen(project);
          if (read.teamFile.lines > 0 || read.teamFile.notRead) log.info(`team file of ${project.label}: ${teamFileSummary(read.teamFile)}`);
        } catch (error) {
          log.warn(`project facts of ${project.label} not read: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    }, 0);
    context.subscriptions.push({ dispose: () => clearTimeout(readProjects) });
    const tools = new TurnToolCatalogue(memoryTools, new Set(Object.values(toolNames)), log);
    // The first message used to load the tokenizer, the NLP tagger, capture's shapes and sql.js's cold paths (about 3 s
    // on a busy machine): a second after activation they load instead, one step per macrotask, so the host stays free.
    const warmUp = setTimeout(() => {
      const io = { model: answeringModel('warm-up', () => ''), tools: tools.forWarmUp() };
      void runWarmUp(warmUpSteps(engine, access, io), (error) => log.warn(`warm-up step: ${String(error)}`)).then((ms) => log.info(`warm-up done: ${Math.round(ms)} ms of steps`));
    }, 1_000);
    context.subscriptions.push({ dispose: () => clearTimeout(warmUp) });
    const finishedTurns = new vscode.EventEmitter<TurnOutcome>();
    const proposer = new ModelProposerHost(memory, () => allowlist.allowlist, log);
    context.subscriptions.push(
      finishedTurns,
      finishedTurns.event((outcome) => proposer.afterTurn(outcome)),
      registerChatParticipant({ memory, engine, models: new TurnModels(), tools, onDidFinishTurn: finishedTurns, reports, summaries, extensionUri: context.extensionUri, projectScope: () => projects.current(), projectScopes: () => projects.all() }),
      ...registerReceiptCommands(memory, log),
      createContextStatusItem(reports, () => (access.state === 'open' ? memoryOverview(access.facts, { memory: access.projects, scopes: projects.all() }).counts : undefined)),
      vscode.commands.registerCommand('engram.compactNow', async (sessionId?: string) => {
        try {
          const message = await summaries.compactNow(sessionId);
          void vscode.window.showInformationMessage(message);
          return message;
        } catch (error) {
          const message = `Engram could not compact the conversation: ${error instanceof Error ? error.message : String(error)}`;
          log.error(message);
          void vscode.window.showErrorMessage(message);
          return message;
        }
      }),
    );

    const tree = new MemoryTreeProvider(
      () => (access.state === 'open' ? access.facts : undefined),
      memoryChanged.event,
      () => (access.state === 'unavailable' ? access.reason : undefined),
      () => (access.state === 'open' ? access.behaviors : undefined),
      () => (access.state === 'open' ? { memory: access.projects, scopes: projects.all() } : undefined),
    );
    context.subscriptions.push(tree, createMemoryTreeView(tree));
    const panels = registerMemoryPanels({ extensionUri: context.extensionUri, memory, reports, projects, onDidChangeMemory: memoryChanged.event, log });
    context.subscriptions.push(...panels.disposables);
    context.subscriptions.push(...registerProjectCommands({ memory, projects, log }));
    const documents = new MemoryDocuments(() => (access.state === 'open' ? access.facts : undefined), memoryChanged.event);
    context.subscriptions.push(documents, vscode.workspace.registerFileSystemProvider(memoryScheme, documents, { isReadonly: true, isCaseSensitive: true }));

    context.subscriptions.push(
      ...registerMemoryCommands(memory, log),
      ...registerBehaviorCommands(memory, log),
      ...registerFactCommands({ memory, allowlist: () => allowlist.allowlist, log, projectScopes: () => projects.all() }),
      vscode.commands.registerCommand('engram.openChat', () =>
        // Ask mode: @engram answers in Agent mode too (VS Code 1.139), but there the built-in agent takes any message
        // without the mention and asks for a Copilot sign-in; Ask mode with @engram typed is the plainest start.
        vscode.commands.executeCommand('workbench.action.chat.open', { mode: 'ask', query: '@engram ', isPartialQuery: true }),
      ),
      vscode.commands.registerCommand('engram.refreshModels', () => provider.refresh()),
      vscode.commands.registerCommand('engram.openStoreFolder', () => openFolder(memory.folder)),
      vscode.commands.registerCommand('engram.showLog', () => log.show()),
    );

    return {
      storeFolder: memory.folder,
      flush: () => (access.state === 'open' ? access.store.flush() : Promise.resolve()),
      onDidFinishTurn: finishedTurns.event,
      facts: access.state === 'open' ? access.facts : undefined,
      behaviors: access.state === 'open' ? access.behaviors : undefined,
      onDidChangeMemory: memoryChanged.event,
      contextPanel: () => ContextPanel.current,
      memoryGraph: () => MemoryGraphPanel.current,
      restorePanel: async (panel) => {
        const serializer = panels.serializers.get(panel.viewType);
        if (!serializer) throw new Error(`Engram has no serializer for ${panel.viewType}`);
        await serializer.deserializeWebviewPanel(panel, undefined);
      },
    };
  } catch (error) {
    // Shown, then rethrown: a failed activation must never be silent.
    const message = error instanceof Error ? error.message : String(error);
    log.error(`activation failed: ${message}`);
    void vscode.window.showErrorMessage(`Engram failed to start: ${message}`, 'Show Log').then((choice) => choice && log.show());
    throw error;
  }
}

let closeMemory: (() => Promise<void>) | undefined;

export async function deactivate(): Promise<void> {
  await closeMemory?.();
  closeMemory = undefined;
}

/**
 * The memory folder, where the person can reach it. On the desktop the OS file manager shows it. A browser-hosted
 * VS Code has none, and opening the folder as a workspace (as this once did) opened a new window that then became
 * the default folder of every later visit: instead the path is shown, with a copy button and a terminal there.
 */
async function openFolder(folder: string): Promise<string> {
  const uri = vscode.Uri.file(folder);
  if (vscode.env.uiKind === vscode.UIKind.Desktop) {
    await vscode.commands.executeCommand('revealFileInOS', uri);
    return 'revealed';
  }
  void vscode.window
    .showInformationMessage(`Engram's memory is in ${folder} (on the machine VS Code runs on).`, 'Copy Path', 'Open in Terminal')
    .then(async (choice) => {
      if (choice === 'Copy Path') await vscode.env.clipboard.writeText(folder);
      if (choice === 'Open in Terminal') vscode.window.createTerminal({ name: 'Engram memory', cwd: uri }).show();
    });
  return 'shown';
}
