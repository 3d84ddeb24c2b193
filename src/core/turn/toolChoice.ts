import type { ToolSpec } from '../llm/chatModel';

/** VS Code's limit on the tools one request may carry. */
export const toolLimit = 128;
/** What a small local model copes with: past a handful of tools it picks wrong ones or none. */
export const defaultToolCap = 8;

/**
 * Words in a message that make a kind of tool likely to help, matched against words of the tool's name. A small
 * model offered thirty tools picks badly, so a turn offers the few this message is about.
 */
const intents: readonly { readonly message: RegExp; readonly tool: RegExp; readonly why: string; readonly weight?: number }[] = [
  // Most coding questions are about some code: reading counts, but less than a word that names a job.
  { message: /\b(read|open|show|look|file|files|code|explain|summari[sz]e|review|why|how|what|does|this|function|class|method)\b/, tool: /\bread\b|\bopen\b/, why: 'the message is about code or a file', weight: 0.5 },
  { message: /\b(errors?|diagnostics?|warnings?|problems?|compile|lint|type ?check|fails?|failing|broken|red)\b/, tool: /error|diagnostic|problem/, why: 'the message mentions errors' },
  { message: /\b(find|where|search|locate|grep|which|defined|definition|declared)\b/, tool: /find|search|grep|symbol/, why: 'the message asks where something is' },
  { message: /\b(usages?|uses|used|references?|callers?|calls|called|implementations?)\b/, tool: /usage|reference|caller/, why: 'the message asks about usages' },
  { message: /\b(tests?|specs?|coverage)\b/, tool: /test/, why: 'the message mentions tests' },
  { message: /\b(folders?|directory|directories|structure|tree|layout|list)\b/, tool: /list|dir|folder/, why: 'the message asks about the layout' },
  { message: /\b(edit|change|fix|rename|replace|refactor|apply|patch|write|create|add)\b/, tool: /edit|replace|patch|write|create|rename|insert/, why: 'the message asks for a change' },
  { message: /\b(run|terminal|command|execute|install|build|npm|shell)\b/, tool: /terminal|run|task|command/, why: 'the message asks to run something' },
  // Whatever the message, the everyday tools of a coding question come before the rest.
  { message: /[\s\S]*/, tool: /\bread\b|\bfind\b|\bsearch\b|\berrors?\b|\busages?\b/, why: 'an everyday tool of a coding question', weight: 0.25 },
  { message: /\b(remember|recall|earlier|before|last time|previous|said|told|we|my|me|i)\b/, tool: /memory|recall/, why: 'the message refers to memory or earlier conversations' },
];

/** Splits a tool name into lowercase words: "copilot_readFile" → "copilot read file". */
function nameWords(name: string): string {
  return name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_\-.]+/g, ' ').toLowerCase();
}

export interface ToolChoiceInput {
  /** Every tool the runner can run this turn. */
  readonly available: readonly ToolSpec[];
  readonly message: string;
  /** Tools the user referenced with a chip (`#memory`): offered whatever the cap, and first. */
  readonly required: readonly string[];
  readonly cap?: number;
  /** Offered whenever available, after the required ones (Engram's memory tools: small, and Engram's point). */
  readonly always?: readonly string[];
  /**
   * Tokens the definitions of the ranked tools may take, and what one costs: VS Code's tools carry long descriptions
   * (one is 400 tokens), and every request of the turn sends them all.
   */
  readonly definitions?: { readonly budget: number; readonly cost: (spec: ToolSpec) => number };
}

export interface ToolChoice {
  /** In the order offered: required first, then always-offered, then by relevance. */
  readonly offered: readonly ToolSpec[];
  readonly required: readonly ToolSpec[];
  /** Chips naming a tool no runner has (another extension's, since uninstalled). */
  readonly missing: readonly string[];
  /** Why each offered tool was offered. */
  readonly reasons: ReadonlyMap<string, string>;
  /** The tools left out, and why. */
  readonly left: readonly { readonly name: string; readonly why: string }[];
}

/**
 * Chooses the tools one turn offers: the required ones, Engram's memory tools, then the rest ranked by how much
 * the message is about what they do, up to the cap (and VS Code's 128). Ties keep the runner's order.
 */
export function chooseTools(input: ToolChoiceInput): ToolChoice {
  const cap = Math.max(1, Math.min(input.cap ?? defaultToolCap, toolLimit));
  const message = input.message.toLowerCase();
  const byName = new Map(input.available.map((spec) => [spec.name, spec]));
  const required = input.required.filter((name, i, all) => byName.has(name) && all.indexOf(name) === i).map((name) => byName.get(name)!);
  const missing = input.required.filter((name) => !byName.has(name));
  const reasons = new Map<string, string>();
  for (const spec of required) reasons.set(spec.name, 'required: you referenced it in the message');
  const always = (input.always ?? []).filter((name) => byName.has(name) && !reasons.has(name));
  for (const name of always) reasons.set(name, "Engram's memory");
  const scored = input.available
    .filter((spec) => !reasons.has(spec.name))
    .map((spec, order) => {
      const words = nameWords(spec.name);
      const matched = intents.filter((intent) => intent.message.test(message) && intent.tool.test(words));
      const score = matched.reduce((sum, intent) => sum + (intent.weight ?? 1), 0);
      const best = [...matched].sort((a, b) => (b.weight ?? 1) - (a.weight ?? 1))[0];
      return { spec, order, score, why: best?.why };
    })
    .sort((a, b) => b.score - a.score || a.order - b.order);
  const offered = [...required, ...always.map((name) => byName.get(name)!)];
  const left: { name: string; why: string }[] = [];
  let spent = offered.reduce((sum, spec) => sum + (input.definitions?.cost(spec) ?? 0), 0);
  for (const candidate of scored) {
    if (offered.length >= Math.max(cap, required.length)) {
      left.push({ name: candidate.spec.name, why: `beyond the ${cap} tools offered per turn${candidate.score ? '' : ' (not related to the message)'}` });
      continue;
    }
    const cost = input.definitions?.cost(candidate.spec) ?? 0;
    if (input.definitions && spent + cost > input.definitions.budget) {
      left.push({ name: candidate.spec.name, why: `its definition would pass the ${input.definitions.budget} tokens tool definitions may take` });
      continue;
    }
    spent += cost;
    offered.push(candidate.spec);
    reasons.set(candidate.spec.name, candidate.why ?? 'within the cap');
  }
  return { offered, required, missing, reasons, left };
}
