import type { Allowlist } from './allowlist';
import { gateMessage } from './gates';
import { candidatesOf, type Candidate } from './slotPatterns';

export type { Candidate, Tier } from './slotPatterns';

export interface CaptureResult {
  /** Facts the message states about its owner, on allowlisted keys only. */
  readonly candidates: Candidate[];
  /** Why nothing was taken from the message at all, when a gate closed. */
  readonly blocked?: string;
}

/** From one message to the facts it proposes: gates, then the shapes of each allowlisted key. */
export function captureFacts(role: 'user' | 'assistant', text: string, allowlist: Allowlist): CaptureResult {
  const verdict = gateMessage(role, text);
  if (verdict.blocked) return { candidates: [], blocked: verdict.blocked };
  const candidates: Candidate[] = [];
  for (const clause of verdict.clauses) {
    for (const candidate of candidatesOf(clause)) {
      if (!allowlist.has(candidate.key)) continue;
      if (candidate.value.length > 60) continue;
      const duplicate = candidates.find((c) => c.key === candidate.key && c.value.toLowerCase() === candidate.value.toLowerCase());
      if (!duplicate) candidates.push(candidate);
    }
  }
  return { candidates };
}
