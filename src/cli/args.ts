/** A small, strict argument parser: unknown flags are errors, so a typo never silently changes behaviour. */

export interface ParsedArgs {
  readonly command: string | undefined;
  readonly positionals: string[];
  readonly flags: Map<string, string | true>;
  /** Every value of each valued flag, in order: a repeatable flag (`--attach A --attach B`) reads them all. */
  readonly lists: Map<string, string[]>;
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** `valued` names the flags that take a value (`--db DIR`); every other flag is a switch. */
export function parseArgs(argv: readonly string[], valued: ReadonlySet<string>, switches: ReadonlySet<string>): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  const lists = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--') || arg === '--') {
      positionals.push(arg);
      continue;
    }
    const [name, inlineValue] = splitOnce(arg.slice(2), '=');
    if (valued.has(name)) {
      const value = inlineValue ?? argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      flags.set(name, value);
      lists.set(name, [...(lists.get(name) ?? []), value]);
    } else if (switches.has(name)) {
      flags.set(name, true);
    } else {
      throw new UsageError(`unknown option --${name}`);
    }
  }
  const [command, ...rest] = positionals;
  return { command, positionals: rest, flags, lists };
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const value = args.flags.get(name);
  return typeof value === 'string' ? value : undefined;
}

export function requiredFlag(args: ParsedArgs, name: string): string {
  const value = stringFlag(args, name);
  if (value === undefined) throw new UsageError(`--${name} is required`);
  return value;
}

/** Every value given for a repeatable flag, in order (none: an empty list). */
export function listFlag(args: ParsedArgs, name: string): string[] {
  return args.lists.get(name) ?? [];
}
