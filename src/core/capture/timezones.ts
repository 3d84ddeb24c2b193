/**
 * What counts as a time zone when the owner names one: an offset ("UTC+2", "GMT-5"), an IANA name ("Europe/Berlin"),
 * a common abbreviation ("CET", "PST", "IST") or a North American zone by name ("Eastern time"). Kept as written.
 */
const abbreviations = new Set([
  'UTC', 'GMT', 'CET', 'CEST', 'EET', 'EEST', 'WET', 'BST', 'IST', 'JST', 'KST', 'PST', 'PDT', 'PT', 'MST', 'MDT', 'CST', 'CDT', 'EST',
  'EDT', 'ET', 'AEST', 'AEDT', 'ACST', 'AWST', 'NZST', 'NZDT', 'HKT', 'SGT', 'BRT', 'MEZ', 'MESZ', 'WIB', 'PHT', 'ICT', 'SAST', 'MSK',
  'PKT', 'NPT', 'AKST', 'HST', 'COT', 'PET', 'CLT', 'UYT', 'VET', 'AST', 'ADT', 'NST', 'WAT', 'EAT', 'CAT',
  // Argentina, Malaysia, the Gulf, Turkey, Iran, Bangladesh, Bolivia, Paraguay, Ecuador, central and eastern Indonesia.
  'ART', 'MYT', 'GST', 'TRT', 'IRST', 'BDT', 'BOT', 'PYT', 'ECT', 'WITA', 'WIT',
]);
/** Abbreviations that are no English word, so typed in lower case ("im on pst") they still name a zone. */
const lowerCaseAbbreviations = new Set(['utc', 'gmt', 'cet', 'cest', 'pst', 'pdt', 'est', 'edt', 'cst', 'cdt', 'mst', 'mdt', 'ist', 'jst', 'kst', 'bst', 'aest', 'aedt', 'nzst', 'sgt', 'hkt', 'eet']);
const offset = /^((?:UTC|GMT)\s?[+-−]\s?\d{1,2}(?::\d{2})?)$/i;
const iana = /^((?:Europe|America|Asia|Africa|Australia|Pacific|Atlantic|Indian|Antarctica)\/[A-Za-z_]+(?:\/[A-Za-z_]+)?)$/;
const named = /^(Eastern|Pacific|Central|Mountain)(?: time| standard time)?$/i;

/** The time zone a short phrase names ("pst", "UTC+5:30", "Australia/Sydney time"), as the owner wrote it, if any. */
export function timezoneIn(phrase: string): string | undefined {
  const text = phrase.trim().replace(/[.,;:!?)]+$/, '');
  const word = text.replace(/\s+(?:time|standard time|hours)$/i, '');
  const shifted = offset.exec(word);
  if (shifted) return shifted[1].replace(/\s+/g, '').replace('−', '-').toUpperCase();
  const area = iana.exec(word);
  if (area) return area[1];
  if (abbreviations.has(word) || lowerCaseAbbreviations.has(word)) return word.toUpperCase();
  // "Pacific time", "Mountain Time": a zone named in words is kept with the words the owner gave it.
  const zone = named.exec(text);
  if (zone) return zone[0][0].toUpperCase() + zone[0].slice(1);
  return undefined;
}
