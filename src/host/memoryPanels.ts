import * as vscode from 'vscode';
import { memoryOverview } from '../core/project/memoryOverview';
import type { EngramMemory } from '../core/turn/engramMemory';
import { ContextPanel, type ContextSource } from './contextPanel';
import type { MemoryHost } from './memoryHost';
import { MemoryGraphPanel, type GraphSource } from './memoryGraphPanel';
import type { ProjectScopes } from './projectScopes';

export interface MemoryPanelDeps {
  readonly extensionUri: vscode.Uri;
  readonly memory: MemoryHost;
  readonly reports: ContextSource;
  readonly projects: ProjectScopes;
  readonly onDidChangeMemory: vscode.Event<void>;
  readonly log: vscode.LogOutputChannel;
}

/**
 * The graph's reading of memory: a view, not a store, so every read goes to the memory as it is now. The owner's
 * facts and the window's project, from memoryOverview, so the graph counts exactly what the tree and `/help` count.
 */
export function graphSource(memory: EngramMemory, projects: ProjectScopes, onDidChange: vscode.Event<void>): GraphSource {
  const { facts, behaviors, store } = memory;
  return {
    read: () => {
      const project = projects.current();
      const overview = memoryOverview(facts, project && { memory: memory.projects, scopes: [project] });
      return {
        confirmed: [...overview.owner.confirmed, ...(overview.projects[0]?.now.current ?? [])],
        project: project && { scope: project.scope, label: project.label },
        retired: [...overview.owner.retired],
        behaviors: behaviors.list('approved'),
        sessions: store.listSessions(),
        reasonOf: (id) => facts.history(id).filter((event) => event.statusAfter === 'retired').at(-1)?.reason,
      };
    },
    history: (id) => facts.history(id),
    onDidChange,
  };
}

/**
 * The Context and Memory Graph panels: their commands, and their serializers, so a window reload brings them back
 * (VS Code keeps the tab and hands the empty panel to the serializer; `onWebviewPanel:` activates Engram for it).
 */
export function registerMemoryPanels(deps: MemoryPanelDeps): { disposables: vscode.Disposable[]; serializers: ReadonlyMap<string, vscode.WebviewPanelSerializer> } {
  const { extensionUri, memory, reports, log } = deps;
  const graph = (): GraphSource | undefined => {
    const access = memory.access;
    if (access.state === 'open') return graphSource(access, deps.projects, deps.onDidChangeMemory);
    void vscode.window.showErrorMessage(access.reason);
    return undefined;
  };
  const serializers = new Map<string, vscode.WebviewPanelSerializer>([
    [
      ContextPanel.viewType,
      {
        deserializeWebviewPanel: async (panel) => {
          ContextPanel.restore(panel, extensionUri, reports, log);
        },
      },
    ],
    [
      MemoryGraphPanel.viewType,
      {
        deserializeWebviewPanel: async (panel) => {
          const source = graph();
          // Without a memory there is nothing to draw: the restored tab closes rather than sit empty.
          if (source) MemoryGraphPanel.restore(panel, extensionUri, source, log);
          else panel.dispose();
        },
      },
    ],
  ]);
  const disposables = [
    vscode.commands.registerCommand('engram.showContext', (turnId?: unknown) => ContextPanel.show(extensionUri, reports, log, typeof turnId === 'string' ? turnId : undefined)),
    vscode.commands.registerCommand('engram.showMemoryGraph', () => {
      const source = graph();
      return source && MemoryGraphPanel.show(extensionUri, source, log);
    }),
    ...[...serializers].map(([viewType, serializer]) => vscode.window.registerWebviewPanelSerializer(viewType, serializer)),
    { dispose: () => ContextPanel.current?.dispose() },
    { dispose: () => MemoryGraphPanel.current?.dispose() },
  ];
  return { disposables, serializers };
}
