/**
 * Capture builds its shapes from pieces (a shared name pattern, the role nouns) and runs dozens of them on every
 * clause: compiling each once keeps a message's capture well under a millisecond.
 */
const cache = new Map<string, RegExp>();

/** The compiled pattern for a source and flags, built on first use. Never pass the `g` or `y` flags: the result is shared. */
export function compiled(source: string, flags: string): RegExp {
  const key = `${flags}/${source}`;
  let pattern = cache.get(key);
  if (!pattern) {
    pattern = new RegExp(source, flags);
    cache.set(key, pattern);
  }
  return pattern;
}
