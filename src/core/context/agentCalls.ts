import type { Database } from 'sql.js';
import { selectAll } from '../store/rows';
import type { ContextReport, RetrievalEntry } from './contextReport';
import { settleReports } from './reportRepository';

/**
 * The record of one call another agent made over MCP. It is kept as a context report of its own (vendor `mcp`,
 * session `mcp:<client>`), so the retrieval log, the context panel and `stats` show which agent used which memory
 * with no new table: the report holds the call, and the retrieval_log table a row per memory it returned.
 */
export interface AgentCall {
  readonly id: string;
  /** The MCP client's own name (from its initialize request), cleaned to a short label. */
  readonly client: string;
  readonly tool: string;
  readonly at: string;
  /** Tokens of the text handed back. */
  readonly tokens: number;
  /** What was asked, in words ("query \"employer\"", "proposed employer = Calico"). */
  readonly asked: string;
  readonly retrieval: readonly RetrievalEntry[];
}

export const agentVendor = 'mcp';
const sessionPrefix = 'mcp:';

export function agentSessionId(client: string): string {
  return `${sessionPrefix}${client}`;
}

export function agentVia(client: string, tool: string): `mcp:${string}` {
  return `mcp:${client}:${tool}`;
}

export function agentCallReport(call: AgentCall): ContextReport {
  return {
    turnId: `mcp:${call.id}`,
    sessionId: agentSessionId(call.client),
    at: call.at,
    model: { id: call.client, name: `${call.client} (MCP)`, vendor: agentVendor },
    window: 0,
    budget: 0,
    totalTokens: call.tokens,
    blocks: [
      {
        id: `tool.${call.tool}.1`,
        layer: 'L2',
        title: `${call.tool}, called by ${call.client} over MCP`,
        state: 'included',
        tokens: call.tokens,
        fullTokens: call.tokens,
        why: call.asked,
        text: '',
      },
    ],
    retrieval: call.retrieval,
    health: { fill: 0, nextToGo: '' },
  };
}

/** A call by another agent, not a prompt of @engram: it has no window, budget or health. */
export function isAgentCall(report: Pick<ContextReport, 'model' | 'sessionId'>): boolean {
  return report.model.vendor === agentVendor && report.sessionId.startsWith(sessionPrefix);
}

/** What one agent used, for `stats`: its calls per tool, and the memories handed to it, most used first. */
export interface AgentUse {
  readonly client: string;
  readonly calls: number;
  readonly tools: Record<string, number>;
  readonly lastAt: string;
  readonly memoriesUsed: number;
  readonly memories: readonly { readonly kind: RetrievalEntry['kind']; readonly memoryId: string; readonly label: string; readonly uses: number }[];
}

/** At most this many memories per agent in `stats`; `memoriesUsed` counts them all. */
const memoriesListed = 20;

export function agentUse(db: Database): AgentUse[] {
  settleReports(db);
  // The range keeps to the (session_id, at) index: every agent's session id starts with "mcp:" (";" follows ":").
  const rows = selectAll(db, "SELECT report FROM context_reports WHERE session_id >= 'mcp:' AND session_id < 'mcp;' ORDER BY at");
  type Tally = { calls: number; tools: Record<string, number>; lastAt: string; memories: Map<string, AgentUse['memories'][number]> };
  const byClient = new Map<string, Tally>();
  for (const row of rows) {
    const report = JSON.parse(String(row.report)) as ContextReport;
    if (!isAgentCall(report)) continue;
    const client = report.model.id;
    const use: Tally = byClient.get(client) ?? { calls: 0, tools: {}, lastAt: report.at, memories: new Map() };
    const tool = /^tool\.(.+)\.1$/.exec(report.blocks[0]?.id ?? '')?.[1] ?? 'unknown';
    use.calls++;
    use.tools[tool] = (use.tools[tool] ?? 0) + 1;
    use.lastAt = report.at;
    for (const entry of report.retrieval) {
      const key = `${entry.kind}:${entry.memoryId}`;
      const known = use.memories.get(key);
      use.memories.set(key, { kind: entry.kind, memoryId: entry.memoryId, label: entry.label, uses: (known?.uses ?? 0) + 1 });
    }
    byClient.set(client, use);
  }
  return [...byClient].map(([client, use]) => ({
    client,
    calls: use.calls,
    tools: use.tools,
    lastAt: use.lastAt,
    memoriesUsed: use.memories.size,
    memories: [...use.memories.values()].sort((a, b) => b.uses - a.uses).slice(0, memoriesListed),
  }));
}
