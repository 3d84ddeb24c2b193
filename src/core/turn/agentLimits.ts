import type { Database } from 'sql.js';

/**
 * What one agent may ask of Engram over MCP, so an agent in a loop cannot flood the owner's review or the journal:
 * a rate for all calls and a slower one for proposals (token buckets: a burst, then a steady refill), and a cap on
 * the proposals from one client still waiting for the owner. A refused call is answered with the reason and what
 * to do, and writes nothing.
 */
export interface AgentLimitSettings {
  /** Calls of any tool: a burst of `burst`, then `perMinute` a minute. */
  readonly calls: { readonly burst: number; readonly perMinute: number };
  /** propose_fact calls, counted on top of the above. */
  readonly proposals: { readonly burst: number; readonly perMinute: number };
  /** Proposals from one client waiting for the owner's review at most. */
  readonly pendingPerClient: number;
}

export const defaultAgentLimits: AgentLimitSettings = {
  calls: { burst: 120, perMinute: 120 },
  proposals: { burst: 50, perMinute: 10 },
  pendingPerClient: 50,
};

class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly burst: number,
    private readonly perMs: number,
    now: number,
  ) {
    this.tokens = burst;
    this.at = now;
  }

  /** Takes one token if there is one; otherwise returns how many seconds until there is. */
  take(now: number): number | undefined {
    this.tokens = Math.min(this.burst, this.tokens + Math.max(0, now - this.at) * this.perMs);
    this.at = Math.max(this.at, now);
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return undefined;
    }
    return Math.ceil((1 - this.tokens) / this.perMs / 1000);
  }
}

export class AgentLimits {
  private readonly buckets = new Map<string, { calls: TokenBucket; proposals: TokenBucket }>();

  constructor(private readonly settings: AgentLimitSettings = defaultAgentLimits) {}

  /** Why this call is refused, or undefined when it may run. `proposal` calls count against both rates. */
  refuse(client: string, proposal: boolean, now: Date): string | undefined {
    const at = now.getTime();
    let buckets = this.buckets.get(client);
    if (!buckets) {
      const { calls, proposals } = this.settings;
      buckets = { calls: new TokenBucket(calls.burst, calls.perMinute / 60_000, at), proposals: new TokenBucket(proposals.burst, proposals.perMinute / 60_000, at) };
      this.buckets.set(client, buckets);
    }
    const wait = buckets.calls.take(at);
    if (wait !== undefined) {
      return `too many calls from "${client}": Engram answers at most ${this.settings.calls.perMinute} a minute per client. Wait ${wait} s before the next call.`;
    }
    const waitToPropose = proposal ? buckets.proposals.take(at) : undefined;
    if (waitToPropose !== undefined) {
      return `too many proposals from "${client}": Engram takes at most ${this.settings.proposals.perMinute} a minute per client. Wait ${waitToPropose} s before proposing again.`;
    }
    return undefined;
  }

  /** Why one more proposal from the client is refused: too many of its proposals already wait for the owner. */
  refusePending(client: string, pending: number): string | undefined {
    if (pending < this.settings.pendingPerClient) return undefined;
    return (
      `"${client}" already has ${pending} proposals waiting for the user's review (at most ${this.settings.pendingPerClient}); ` +
      'Engram takes no more from it until the user has reviewed them (in VS Code: Engram: Review Proposed Facts).'
    );
  }
}

/** How many proposals the client made that still wait for the owner (its proposals are marked with this reason). */
export function pendingProposalsOf(db: Database, proposalReason: string): number {
  const rows = db.exec(
    `SELECT COUNT(*) FROM statement_events e JOIN statements s ON s.id = e.statement_id
      WHERE e.action = 'proposed' AND e.reason = ? AND s.status = 'proposed' AND s.origin = 'agent'`,
    [proposalReason],
  );
  return Number(rows[0]?.values[0]?.[0] ?? 0);
}

/**
 * The pending counts per client, counted again only after the store changed (a proposal, or the owner's review in
 * another window): a client refused a thousand times in a row costs one count, not a thousand.
 */
export class PendingCounts {
  private readonly counts = new Map<string, number>();

  constructor(onDidChange: (listener: () => void) => void) {
    onDidChange(() => this.counts.clear());
  }

  of(client: string, count: () => number): number {
    let pending = this.counts.get(client);
    if (pending === undefined) {
      pending = count();
      this.counts.set(client, pending);
    }
    return pending;
  }
}
