import { randomUUID } from 'node:crypto';
import { agentCallReport, agentVia } from '../context/agentCalls';
import type { RetrievalEntry } from '../context/contextReport';
import type { ToolSpec } from '../llm/chatModel';
import { agentProposalReason } from '../memory/facts';
import { containsSecret, redactSecrets } from '../shared/secrets';
import { AgentLimits, PendingCounts, pendingProposalsOf } from './agentLimits';
import type { EngramMemory } from './engramMemory';
import { memoryToolNames, memoryToolSpecs, runMemorySearch, runRecall, type ToolOutcome } from './memoryTools';

/**
 * Engram's memory for other agents (the MCP server): the same two read tools as in VS Code, same engines, inputs
 * and outputs, plus `propose_fact`, which only ever queues a proposal for the owner's review. Every call that is
 * answered is recorded (see agentCalls.ts); a refused call writes nothing.
 */

export const proposeFactName = 'propose_fact';

export const agentToolNames = [memoryToolNames.memorySearch, memoryToolNames.recallConversation, proposeFactName] as const;

/** What propose_fact takes at most: a value is a short fact, evidence a sentence or two of the user's words. */
const limits = { key: 64, value: 200, evidence: 2_000 } as const;

export interface ProposeFactInput {
  readonly key: string;
  readonly value: string;
  readonly evidence?: string;
}

export function checkProposeFactInput(input: unknown): ProposeFactInput | string {
  const value = input as Partial<ProposeFactInput> | null;
  if (!value || typeof value.key !== 'string' || typeof value.value !== 'string') return 'propose_fact needs {"key": "<allowlisted key>", "value": "<the fact>"}.';
  if (value.key.length > limits.key) return `key is too long (at most ${limits.key} characters).`;
  if (value.value.trim() === '') return 'value must not be empty.';
  if (value.value.length > limits.value || /[\r\n]/.test(value.value)) return `value must be one line of at most ${limits.value} characters.`;
  if (value.evidence !== undefined && (typeof value.evidence !== 'string' || value.evidence.length > limits.evidence)) {
    return `evidence must be a string of at most ${limits.evidence} characters (the user's own words).`;
  }
  for (const field of ['key', 'value', 'evidence'] as const) {
    const text = value[field];
    const hidden = text === undefined ? undefined : hiddenCharacter(text, field === 'evidence');
    if (hidden) return `${field} holds ${hidden}, which could hide or disguise text in the user's review; send plain text.`;
    const markup = field === 'evidence' || text === undefined ? undefined : markupIn(text);
    if (markup) return `${field} holds markup (${markup}); a fact is plain text.`;
  }
  return value as ProposeFactInput;
}

/**
 * A character that shows as nothing or changes how the text around it shows: controls (NUL and the rest; evidence
 * may keep line breaks and tabs), a lone surrogate, bidi overrides and isolates, zero-width characters.
 */
export function hiddenCharacter(text: string, allowLineBreaks = false): string | undefined {
  if (!text.isWellFormed()) return 'a lone surrogate (half of a UTF-16 pair)';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (allowLineBreaks && (char === '\n' || char === '\r' || char === '\t')) continue;
    const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return `a control character (${hex})`;
    if ((code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069) || code === 0x200e || code === 0x200f || code === 0x061c) {
      return `a bidirectional control character (${hex})`;
    }
    if ((code >= 0x200b && code <= 0x200d) || code === 0x2060 || code === 0xfeff || code === 0x00ad || code === 0x180e) return `an invisible character (${hex})`;
  }
  return undefined;
}

/** HTML tags, comments and entities, Markdown links and images, and links that run commands or scripts. */
function markupIn(text: string): string | undefined {
  const found = /<[A-Za-z!/?][^>]*>?|&#?[A-Za-z0-9]+;|!?\[[^\]]*\]\([^)]*\)|\b(?:command|javascript|vbscript|data):/i.exec(text);
  return found ? `"${found[0].slice(0, 40)}"` : undefined;
}

export function proposeFactSpec(keys: readonly string[]): ToolSpec {
  return {
    name: proposeFactName,
    description:
      "Proposes a fact about the user to Engram, the user's confirmed memory. The fact is NOT confirmed by this call: it waits in " +
      "Engram's review list until the user approves or rejects it, and memory_search returns only confirmed facts. Propose only what " +
      'the user plainly said about themselves in this conversation, with their words as evidence; never guesses, never secrets. ' +
      `Keys: ${keys.join(', ')}.`,
    inputSchema: {
      type: 'object',
      properties: {
        key: { type: 'string', enum: [...keys], description: 'The kind of fact (one of the allowlisted keys)' },
        value: { type: 'string', description: 'The fact, short, e.g. "Calico" for employer' },
        evidence: { type: 'string', description: "The user's own words it comes from (optional, shown to the user when reviewing)" },
      },
      required: ['key', 'value'],
    },
  };
}

/** A tool call's answer as an agent gets it: the text, and whether it is an error. */
export interface AgentToolResult {
  readonly text: string;
  readonly isError: boolean;
}

export class UnknownToolError extends Error {
  constructor(readonly tool: string) {
    super(`Engram has no tool named "${tool.slice(0, 80)}"; its tools are ${agentToolNames.join(', ')}.`);
    this.name = 'UnknownToolError';
  }
}

export class AgentTools {
  constructor(
    private readonly memory: EngramMemory,
    private readonly keys: () => readonly string[],
    private readonly now: () => Date = () => new Date(),
    private readonly limits = new AgentLimits(),
  ) {
    this.pending = new PendingCounts((listener) => memory.store.onDidChange(listener));
  }

  private readonly pending: PendingCounts;

  specs(): readonly ToolSpec[] {
    return [...memoryToolSpecs, proposeFactSpec(this.keys())];
  }

  /**
   * Runs one call for `client`; throws UnknownToolError for a name that is not one of the three tools. Resolves once
   * what the call wrote is on disk: a proposal is answered "Proposed" only when it is stored.
   */
  async call(client: string, tool: string, args: unknown): Promise<AgentToolResult> {
    if (!(agentToolNames as readonly string[]).includes(tool)) throw new UnknownToolError(tool);
    const refused = this.limits.refuse(client, tool === proposeFactName, this.now());
    if (refused) return { text: `Error: ${refused}`, isError: true };
    // Another process (a VS Code window) may have confirmed, retired or forgotten something since the last call.
    this.memory.store.syncFromOtherWriters();
    if (tool === memoryToolNames.memorySearch) return this.answered(client, tool, runMemorySearch(this.memory.store, args), describeQuery(args));
    if (tool === memoryToolNames.recallConversation) return this.answered(client, tool, runRecall(this.memory, args), describeQuery(args));
    if (tool === proposeFactName) return this.propose(client, args);
    throw new UnknownToolError(tool);
  }

  private async propose(client: string, args: unknown): Promise<AgentToolResult> {
    const input = checkProposeFactInput(args);
    if (typeof input === 'string') return { text: `Error: ${input}`, isError: true };
    const pending = this.pending.of(client, () => this.memory.store.read((db) => pendingProposalsOf(db, redactSecrets(agentProposalReason(client)))));
    const capped = this.limits.refusePending(client, pending);
    if (capped) return { text: `Error: ${capped}`, isError: true };
    const store = this.memory.store;
    let proposal;
    try {
      // Earlier changes that could not be written mean this one would not be either: say so before making it.
      await store.flush();
      proposal = this.memory.facts.proposeFromAgent({ ...input, client });
      await store.flush();
    } catch (error) {
      store.discardUnwritten();
      return { text: `Error: ${error instanceof Error ? error.message : String(error)}. Nothing was stored.`, isError: true };
    }
    const { statement, outcome } = proposal;
    const text =
      outcome === 'proposed'
        ? `Proposed ${statement.key} = ${statement.value} for the user's review. It is not a confirmed fact: the user approves or rejects it in Engram.`
        : outcome === 'already confirmed'
          ? `The user has already confirmed ${statement.key} = ${statement.value}; nothing new was proposed.`
          : `${statement.key} = ${statement.value} is already waiting for the user's review; nothing new was proposed.`;
    this.record(client, proposeFactName, text, `${outcome} ${statement.key} = ${statement.value}`, []);
    return { text, isError: false };
  }

  private answered(client: string, tool: string, found: ToolOutcome, asked: string): AgentToolResult {
    if (found.isError) return { text: found.text, isError: true };
    // The store redacts secrets as it records; an answer leaving the machine's editor is redacted once more, in case
    // an older store or an import holds one from before.
    const outcome = { ...found, text: redactSecrets(found.text) };
    const retrieval = outcome.retrieval.map((entry): RetrievalEntry => ({
      ...entry,
      via: agentVia(client, tool),
      // A turn's words stay with its conversation (forgetting it must remove them): the record names the turn only.
      label: entry.kind === 'turn' ? turnLabel(entry.label) : entry.label.slice(0, 120),
    }));
    this.record(client, tool, outcome.text, asked, retrieval);
    return { text: outcome.text, isError: false };
  }

  private record(client: string, tool: string, text: string, asked: string, retrieval: readonly RetrievalEntry[]): void {
    this.memory.saveReport(
      agentCallReport({ id: randomUUID(), client, tool, at: this.now().toISOString(), tokens: this.memory.tokens.count(text), asked, retrieval }),
    );
  }
}

/** "user 2026-11-01: the words…" becomes "user turn of 2026-11-01". */
function turnLabel(label: string): string {
  const match = /^(user|assistant) (\d{4}-\d{2}-\d{2})/.exec(label);
  return match ? `${match[1]} turn of ${match[2]}` : 'a conversation turn';
}

/** The query as the record keeps it: short, and never a secret the agent pasted. */
function describeQuery(args: unknown): string {
  // Redacted before it is cut: a secret cut in half is no longer found.
  const query = String((args as { query?: unknown } | null)?.query ?? '');
  return `query "${(containsSecret(query) ? redactSecrets(query) : query).slice(0, 200)}"`;
}
