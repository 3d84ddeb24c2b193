import roles from './frames/roles.json';

const nouns = new Map(Object.entries(roles.nouns));

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const longestFirst = [...nouns.keys(), ...roles.sharedNouns].sort((a, b) => b.length - a.length);
/**
 * The nouns that end a job title in the languages capture reads besides English (roles.json). A long one may end a
 * compound ("Backend-Entwicklerin", "Softwareentwickler"); a short one ("dev", "eng") must be a word of its own.
 */
export const roleWords = new RegExp(
  String.raw`(?:${longestFirst.filter((noun) => noun.length >= 5).map(escape).join('|')})(?![\p{L}])|(?:^|[\s-])(?:${longestFirst.filter((noun) => noun.length < 5).map(escape).join('|')})(?![\p{L}])`,
  'iu',
);
/** Longest first, so "de dados" is read before "dados". */
const modifiers = Object.entries(roles.modifiers).sort(([a], [b]) => b.length - a.length);

/**
 * The key list's English term for a job title the owner wrote in another language ("développeuse backend" is backend
 * developer, "engenheiro de dados" data engineer, "Backend-Entwickler" backend developer), or undefined when its words
 * name no job the table knows. The value shown stays the owner's; this is what it is matched by.
 */
export function englishRole(value: string): string | undefined {
  let text = ` ${value.toLowerCase().replace(/-/g, ' - ')} `;
  const words = text.trim().split(/\s+/).filter((word) => word !== '-');
  // "Backend-Entwickler", "Softwareentwickler": the noun may end a compound.
  const noun = words.map((word) => nouns.get(word) ?? [...nouns.keys()].filter((known) => known.length >= 8 && word.endsWith(known)).map((known) => nouns.get(known))[0]).find(Boolean);
  if (!noun) return undefined;
  const found: string[] = [];
  for (const [phrase, english] of modifiers) {
    const at = text.indexOf(` ${phrase} `);
    if (at < 0) continue;
    found.push(english);
    text = `${text.slice(0, at)} ${text.slice(at + phrase.length + 2)}`;
  }
  const order = ['senior', 'junior', 'full stack', 'frontend', 'backend', 'mobile', 'web', 'iOS', 'Android', 'DevOps', 'QA', 'data', 'software'];
  found.sort((a, b) => order.indexOf(a) - order.indexOf(b));
  return [...found, noun].join(' ');
}
