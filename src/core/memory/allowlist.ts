import { parse } from 'yaml';

/**
 * The keys Engram may learn about its owner. Capture proposes nothing outside this list: a fact about
 * anything else is not remembered, however plainly it is said. The owner can edit the list (YAML).
 */
export type Cardinality = 'single' | 'multi';

export interface SlotDefinition {
  readonly key: string;
  /** single: a new confirmed value retires the old one. multi: values accumulate. */
  readonly cardinality: Cardinality;
  readonly description: string;
}

export type Allowlist = ReadonlyMap<string, SlotDefinition>;

export const defaultAllowlistYaml = `# Engram learns facts about you only for the keys below.
# cardinality: single (a new value replaces the old one) or multi (values add up).
# Remove a key to stop Engram learning it; add one to let it learn more (it will then ask you, never assume).
keys:
  name:            { cardinality: single, description: What to call you }
  pronouns:        { cardinality: single, description: Your pronouns }
  role:            { cardinality: single, description: Your job, e.g. backend engineer }
  employer:        { cardinality: single, description: Where you work }
  team:            { cardinality: single, description: The team you are on }
  location:        { cardinality: single, description: Where you live or work from }
  timezone:        { cardinality: single, description: Your time zone }
  os:              { cardinality: single, description: The operating system you use }
  editor:          { cardinality: single, description: Your editor }
  shell:           { cardinality: single, description: Your shell }
  package_manager: { cardinality: single, description: The package manager you use }
  test_framework:  { cardinality: single, description: The test framework you use }
  languages:       { cardinality: multi,  description: Programming languages you use }
  frameworks:      { cardinality: multi,  description: Frameworks and libraries you use }
  diet:            { cardinality: single, description: What you eat (for the rare question that needs it) }
  style:           { cardinality: multi,  description: Your coding preferences, e.g. early returns }
`;

const keyPattern = /^[a-z][a-z0-9_]{0,39}$/;

/** Parses an allowlist; throws an error naming the problem (and the key) when the file does not fit. */
export function parseAllowlist(text: string): Allowlist {
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    throw new Error(`the key allowlist is not valid YAML: ${(error as Error).message}`);
  }
  const keys = (document as { keys?: unknown } | null)?.keys;
  if (!keys || typeof keys !== 'object' || Array.isArray(keys)) throw new Error('the key allowlist needs a "keys:" mapping');
  const slots = new Map<string, SlotDefinition>();
  for (const [key, raw] of Object.entries(keys as Record<string, unknown>)) {
    if (!keyPattern.test(key)) throw new Error(`"${key}" is not a valid key (lower case letters, digits and _)`);
    const entry = (raw ?? {}) as { cardinality?: unknown; description?: unknown };
    const cardinality = entry.cardinality ?? 'single';
    if (cardinality !== 'single' && cardinality !== 'multi') throw new Error(`"${key}": cardinality must be single or multi`);
    const description = typeof entry.description === 'string' ? entry.description : '';
    slots.set(key, { key, cardinality, description });
  }
  return slots;
}

export const defaultAllowlist: Allowlist = parseAllowlist(defaultAllowlistYaml);
