/**
 * The type-guard basics both page protocols are built from. Messages cross a trust boundary (the page, the host),
 * so every guard checks own fields only and refuses what it does not expect.
 */

/** A plain object: not null, not an array, and not something whose fields come from a prototype. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** A count (of tokens, nodes, facts): a finite, non-negative number. */
export function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

export function isOptionalString(value: unknown): value is string | undefined {
  return value === undefined || typeof value === 'string';
}

/** Own keys only, all of them expected: an object with a `type` on its prototype, or with extras, is refused. */
export function hasOnlyKeys(value: Record<string, unknown>, allowed: readonly string[]): boolean {
  const keys = Object.keys(value);
  return keys.includes('type') && keys.every((key) => allowed.includes(key));
}

/** Escapes the five characters that matter in HTML text and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => htmlEntities[char] ?? char);
}

const htmlEntities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
