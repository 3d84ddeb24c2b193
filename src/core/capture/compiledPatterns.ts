/**
 * Capture builds its shapes from pieces (a shared name pattern, the role nouns) and runs dozens of them on every
 * clause: compiling each once keeps a message's capture well under a millisecond.
 */
const cache = new Map<string, Map<string, RegExp>>();

/**
 * The compiled pattern for a source and flags, built on first use (one map per flags, so no key is built by joining
 * strings on every call). Never pass the `y` flag, and use a `g` pattern only through `matchAll` (which copies it):
 * the result is shared.
 */
export function compiled(source: string, flags: string): RegExp {
  let byFlags = cache.get(flags);
  if (!byFlags) cache.set(flags, (byFlags = new Map()));
  let pattern = byFlags.get(source);
  if (!pattern) {
    pattern = new RegExp(source, flags);
    byFlags.set(source, pattern);
  }
  return pattern;
}
