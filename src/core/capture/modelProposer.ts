import type { ChatModelPort } from '../llm/chatModel';
import { readOwnerClauses, type OwnerClause } from './clauses';
import { closedGate, type AllowedKeys } from './gates';
import { ownWords } from './pastedText';
import { containsSecret } from '../shared/secrets';
import type { Candidate } from './candidate';
import { plausibility } from './valueChecks';

/**
 * The optional model-assisted proposer: the turn's model reads the owner's own words and proposes facts as
 * structured output (a JSON schema through Ollama's `format`). Extraction proposes; confidence never
 * confirms: every candidate must then pass the same deterministic checks as capture (its value written in
 * one of the owner's own first-person, present, un-negated, unquoted, un-pasted clauses; an allowed key; no
 * secret; a value the tagger accepts), and it is queued for the owner (tier C), never confirmed on the
 * model's word. Runs off the reply path; not measured here with a real model.
 */
export interface ModelProposerOptions {
  readonly model: string;
  readonly allowlist: AllowedKeys;
  readonly signal?: AbortSignal;
}

/** What the model proposed and what the checks made of it, for the log and the tests. */
export interface ModelProposals {
  readonly accepted: Candidate[];
  readonly rejected: { readonly key: string; readonly value: string; readonly why: string }[];
}

const instructions = [
  'You extract facts a developer states about themselves, for a memory they review.',
  'Only facts the writer states about themselves, now, in the first person. Nothing about other people, nothing past, planned, hypothetical, negated, quoted or joked about.',
  'Each value must be copied exactly as written in the message. Propose nothing when unsure. Keys are limited to the schema.',
].join(' ');

/** The JSON schema the model's reply must follow: facts on the allowlist's keys only. */
export function proposalSchema(allowlist: AllowedKeys): object {
  return {
    type: 'object',
    properties: {
      facts: {
        type: 'array',
        items: {
          type: 'object',
          properties: { key: { type: 'string', enum: [...allowlist.keys()] }, value: { type: 'string' } },
          required: ['key', 'value'],
        },
      },
    },
    required: ['facts'],
  };
}

function parseFacts(reply: string): { key: string; value: string }[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(reply);
  } catch {
    return [];
  }
  const facts = (parsed as { facts?: unknown } | null)?.facts;
  if (!Array.isArray(facts)) return [];
  return facts
    .filter((fact): fact is { key: string; value: string } => !!fact && typeof fact.key === 'string' && typeof fact.value === 'string')
    .slice(0, 20)
    .map((fact) => ({ key: fact.key.trim(), value: fact.value.trim() }));
}

/** The JSON object a thinking model ended its thinking with ({"facts": …}), or ''. */
function structuredTail(thinking: string): string {
  const start = thinking.lastIndexOf('{"facts"');
  return start < 0 ? '' : thinking.slice(start).trim();
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The owner's clause that carries the value as written (whole words), if any. */
function clauseWith(value: string, clauses: readonly OwnerClause[]): OwnerClause | undefined {
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escape(value)}(?![\\p{L}\\p{N}])`, 'iu');
  return clauses.find((clause) => pattern.test(clause.text));
}

/** Checks one proposal against the owner's words; returns why it is refused, or undefined. */
function refusal(fact: { key: string; value: string }, allowlist: AllowedKeys, clauses: readonly OwnerClause[]): string | undefined {
  if (!allowlist.has(fact.key)) return 'not a key of the allowlist';
  if (!fact.value || fact.value.length > 60) return 'no value, or a value too long';
  if (containsSecret(`${fact.key} ${fact.value}`)) return 'looks like a secret';
  const clause = clauseWith(fact.value, clauses);
  if (!clause) return 'not in the owner’s own present, first-person words';
  if (plausibility(fact.key, fact.value, clause.words, clause.text) === 'no') return 'not a value of its key';
  return undefined;
}

/** Asks the model for candidate facts in one user message and keeps those the deterministic checks allow. */
export async function proposeWithModel(port: ChatModelPort, role: 'user' | 'assistant', text: string, options: ModelProposerOptions): Promise<ModelProposals> {
  if (closedGate(role, text)) return { accepted: [], rejected: [] };
  // The model sees only the owner's own words: pasted mail, logs and quotes never reach it.
  const own = ownWords(text).text.trim();
  if (!own) return { accepted: [], rejected: [] };
  let reply = '';
  const stream = port.chat(
    options.model,
    [
      { role: 'system', content: instructions },
      { role: 'user', content: own },
    ],
    { format: proposalSchema(options.allowlist), signal: options.signal },
  );
  let thinking = '';
  for await (const chunk of stream) {
    if (chunk.kind === 'text') reply += chunk.text;
    else if (chunk.kind === 'thinking') thinking += chunk.text;
  }
  // A thinking model given a format may leave the answer empty and end its thinking with the JSON instead.
  if (!reply.trim()) reply = structuredTail(thinking);
  const clauses = readOwnerClauses(own);
  const accepted: Candidate[] = [];
  const rejected: ModelProposals['rejected'] = [];
  for (const fact of parseFacts(reply)) {
    const why = refusal(fact, options.allowlist, clauses);
    if (why) rejected.push({ ...fact, why });
    else if (!accepted.some((c) => c.key === fact.key && c.value.toLowerCase() === fact.value.toLowerCase())) accepted.push({ ...fact, tier: 'C' });
  }
  return { accepted, rejected };
}
