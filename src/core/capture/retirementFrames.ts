/**
 * The owner's own retirement frames ("I left X", "ich bin nicht mehr bei X", "Troquei o X pelo Y"), and the value
 * named in the clause after one ("… agora trabalho na Y"), read from each language's frame file (`retire`,
 * `replacedBy`) with the same compiled frames and slot readers as the other frames.
 */
import { byLanguage, compile, isKnownToolName, isPlaceName, slotValue, type CompiledFrame } from './frames';

export interface Retirement {
  /** What the owner says is no longer true ("Northwind" in "I left Northwind"). */
  readonly old: string;
  /** What took its place, when the same frame names it ("I moved from Jest to Vitest"). */
  readonly replacement?: string;
  /** The key the frame names, when it names one ("I moved from {old} to {new}" names none: the value's name decides). */
  readonly key?: string;
  readonly language: string;
}

const compiledRetirements = new Map<string, (CompiledFrame & { readonly key?: string; readonly literal: string })[]>();

/**
 * The longest run of plain words a frame always contains ("nicht mehr bei" in "ich bin nicht mehr bei {old}"), outside
 * its groups and slots: a clause without it is not tested against the frame (every clause meets every language's
 * retirement frames, so the test must be cheap). Empty when the frame has none.
 */
function literalOf(frame: string): string {
  let flat = frame;
  for (let previous = ''; previous !== flat; ) {
    previous = flat;
    flat = flat.replace(/\([^()]*\)[?*+]?|\[[^\]]*\][?*+]?/g, '\u0000');
  }
  // A letter a quantifier makes optional ("passée?") is no part of what is always there.
  flat = flat.replace(/\\?.[?*]/gu, '\u0000');
  const pieces = flat.split(/\{[a-z_]+\}|\\\S|[\u0000.^$|?*+]/u).map((piece) => piece.trim().toLowerCase());
  return pieces.filter((piece) => /^[\p{L}'’ ]{3,}$/u.test(piece)).sort((a, b) => b.length - a.length)[0] ?? '';
}

/** "I left X", "I'm not at X any more", "I no longer use X", "I moved from X to Y", in each language's frames. */
export function retirementIn(clause: string, language: string): Retirement | undefined {
  let frames = compiledRetirements.get(language);
  if (!frames) {
    frames = (byLanguage.get(language)?.retire ?? []).map((entry) => {
      const frame = typeof entry === 'string' ? entry : entry.frame;
      return { ...compile(frame, 'B'), literal: literalOf(frame), ...(typeof entry === 'string' ? {} : { key: entry.key }) };
    });
    // A frame that names its key ("me mudé de {old} a {new}": a place) is read before one that leaves it to the value.
    frames.sort((a, b) => Number(b.key !== undefined) - Number(a.key !== undefined));
    compiledRetirements.set(language, frames);
  }
  const lower = clause.toLowerCase();
  for (const frame of frames) {
    if (frame.literal && !lower.includes(frame.literal)) continue;
    const match = frame.pattern.exec(clause.trim());
    if (!match) continue;
    const file = byLanguage.get(language);
    // "I'm no longer a manager": a role is read as one, not as a name.
    const old = slotValue(frame.key === 'role' ? 'role' : 'old', match[frame.keys.indexOf('old') + 1] ?? '', file);
    const at = frame.keys.indexOf('new');
    const replacement = at >= 0 ? slotValue('new', match[at + 1] ?? '', file) : undefined;
    // "Mudei do Vim para o Neovim": a move between tools' names is no move between places, nor between employers
    // ("Już nie pracuję w Javie" is no employer left).
    if (placeOrEmployer.has(frame.key ?? '') && [old, replacement].some((value) => value && isKnownToolName(value))) continue;
    if (old) return { old, replacement, language, ...(frame.key ? { key: frame.key } : {}) };
  }
  return undefined;
}

const placeOrEmployer = new Set(['location', 'employer']);

const compiledReplacements = new Map<string, (CompiledFrame & { readonly key?: string; readonly orPlace?: boolean })[]>();

/**
 * What the clause after a retirement names in the retired value's place, in the language's `replacedBy` frames.
 * `placeLeft`: the retirement was of a place ("Ya no vivo en Valencia"), so a frame whose "at" is also "in" ("ahora
 * estoy en Zaragoza") names the new one.
 */
export function replacementAfter(clause: string, language: string, placeLeft = false): { readonly value: string; readonly key?: string } | undefined {
  let frames = compiledReplacements.get(language);
  if (!frames) {
    frames = (byLanguage.get(language)?.replacedBy ?? []).map((entry) => (typeof entry === 'string' ? compile(entry, 'B') : { ...compile(entry.frame, 'B'), key: entry.key, orPlace: entry.orPlace === true }));
    compiledReplacements.set(language, frames);
  }
  for (const frame of frames) {
    const match = frame.pattern.exec(clause.trim());
    const value = match ? slotValue('new', match[frame.keys.indexOf('new') + 1] ?? '', byLanguage.get(language)) : undefined;
    if (!value) continue;
    // "Deixei o Windows, agora estou no Linux": a tool's name after a frame of a place or an employer is the tool, its
    // key the lists'; "Ya no vivo en Quito, ahora estoy en Guayaquil": where the language's "at" is also "in", a town's
    // name is where the owner is now, not who they work for.
    if (placeOrEmployer.has(frame.key ?? '') && isKnownToolName(value)) return { value };
    if (frame.orPlace && (placeLeft || isPlaceName(value))) return { value, key: 'location' };
    return { value, ...(frame.key ? { key: frame.key } : {}) };
  }
  return undefined;
}
