// How the parts of a sentence are told apart before frames read them: a mark inside a name splits nothing, and a
// place after a comma is a part of its own.

/** A part of a sentence that is only a place after its preposition ("desde Valencia", "w Krakowie", "à Lille"). */
export const placeAfterComma = /^(?:en|em|a|à|in|w|we|desde|da|de|aus|no|na|nel|nella|au|ao|do|z|ze)\s+\p{Lu}[\p{L}'’.-]*(?:\s+\p{Lu}[\p{L}'’.-]*){0,2}$/u;

/**
 * A full stop or "!" inside a name ("Next.js", "Pop!_OS": a letter before it, a small letter, a digit or "_" after it;
 * "ASP.NET", ".NET": capitals on both sides, or a space before)
 * splits nothing: hidden before a sentence is split at its marks (withNameMarks), put back in each part after.
 */
const nameMark = /(?<=[\p{L}\d])[.!](?=[\p{Ll}\d_])|(?<=\p{Lu})\.(?=\p{Lu}{2})|(?<=\s)\.(?=\p{Lu}{2})/gu;
export function withNameMarks(text: string): string {
  return text.replace(nameMark, (mark) => (mark === '.' ? '\u0001' : '\u0002'));
}
export function nameMarksBack(part: string): string {
  return part.replace(/\u0001/g, '.').replace(/\u0002/g, '!');
}
