/**
 * Text from someone else's file, made plain: no control characters (newlines and tabs become spaces), no format
 * characters (the bidi overrides and isolates that make a review show other text than the file holds, zero-width
 * spaces and joiners, the byte-order mark, soft hyphens), no line or paragraph separators, no lone surrogates;
 * runs of spaces become one.
 */
export function plainText(text: string): string {
  return text
    .toWellFormed()
    .replace(/[\p{Cc}\p{Zl}\p{Zp}]/gu, ' ')
    .replace(/\p{Cf}/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Whether text holds anything plainText would remove or change (besides spaces at its ends). */
export function hasHiddenCharacters(text: string): boolean {
  return /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(text) || !text.isWellFormed();
}
