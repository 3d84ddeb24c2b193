import type { OwnerClause } from './clauses';
import { findKnown, knownEditors, knownLanguages, knownOperatingSystems, knownPackageManagers, knownShells, caseSensitiveLanguages } from './knownNames';
import { compiled } from './compiledPatterns';
import { properNoun, type Candidate } from './slotPatterns';

/**
 * Self-statements in German, Spanish and Portuguese. The English tagger cannot read them, so they are read
 * by their plainest shapes only ("ich heiße…", "me llamo…", "moro em…"), and never confirmed without the owner
 * except a name said in the language's own "my name is".
 */
type Language = 'de' | 'es' | 'pt';

const openings: Record<Language, RegExp> = {
  de: /(?:^|[\s,])(?:ich (?:heiße|heisse|bin|arbeite|wohne|lebe|nutze|benutze|verwende|schreibe|programmiere)|mein name ist|meine pronomen)\b/iu,
  es: /(?:^|[\s,¡¿])(?:me llamo|mi nombre es|soy|trabajo (?:en|para|como)|vivo en|uso|programo en|mi editor es|mis pronombres)(?![\p{L}])/iu,
  pt: /(?:^|[\s,])(?:me chamo|meu nome é|sou|trabalho (?:na|no|em|para|como)|moro (?:em|no|na)|uso|programo em|meu editor é|pronomes)(?![\p{L}])/iu,
};
/** Words that show which language a sentence is in, when its opening is shared ("uso", "sou"/"soy"). */
const markers: Record<Language, RegExp> = {
  de: /\b(?:ich|und|bei|mein|meine|nicht|ist)\b/i,
  es: /\b(?:y|en|para|como|mi|soy|con|el|la)\b|¿|¡/i,
  pt: /\b(?:e|na|no|em|meu|minha|sou|é|com|então|dados)\b|ã|õ|ç/i,
};

export function languageOf(sentence: string): Language | undefined {
  const scores = (['pt', 'es', 'de'] as const).filter((language) => openings[language].test(sentence));
  if (scores.length === 0) return undefined;
  if (/\b(?:i|i'm|im|my)\b/i.test(sentence) && !/\b(?:ich|mein|yo|mi|eu|meu)\b/i.test(sentence)) return undefined;
  return scores.find((language) => markers[language].test(sentence)) ?? scores[0];
}

export function looksForeign(sentence: string): boolean {
  return languageOf(sentence) !== undefined;
}

const pastOrElse: Record<Language, RegExp> = {
  de: /\b(?:früher|damals|war|habe \w+ gearbeitet|gearbeitet|gewohnt|ehemals|bald|nächste[nrs]?|werde|möchte|würde|soll ich|nicht|kein)\b/iu,
  es: /\b(?:antes|trabajaba|vivía|era|fui|solía|dejé|voy a|quiero|pronto|próxim[oa]|no)\b/iu,
  pt: /\b(?:antes|trabalhava|morava|era|fui|costumava|vou|quero|em breve|próxim[oa]|não|procurando)\b/iu,
};
const someoneElse = /^(?:mein(?:e)?|mi|mis|meu|minha)\s+(?:kollege|kollegin|chef|chefin|freund|freundin|bruder|schwester|jefe|jefa|amigo|amiga|hermano|hermana|colega|chefe|irmão|irmã|mãe|pai|madre|padre|mutter|vater)\b/iu;

const questionClause = /\?\s*$|^(?:pode|podes|podia|kannst|können|könntest|puedes|podrías|me ayudas|você|voce|debería|deveria|soll|hast|tienes|alguna|alguém|alguien)\b/iu;

/** The clauses of a German, Spanish or Portuguese sentence that may state a fact about the owner. */
export function foreignClauses(sentence: string): OwnerClause[] {
  // What follows an opening "¿" is a question; the statements before it stand.
  const statement = sentence.split('¿')[0];
  const language = languageOf(statement);
  if (!language || pastOrElse[language].test(statement)) return [];
  return statement
    .replace(/[\p{Extended_Pictographic}\u{FE0F}\u{200D}]/gu, ' ')
    .replace(/^(?:hallo|servus|moin|hola|buenas|oi|olá|ola)\b[!,.\s]*/iu, '')
    .split(/\s*[,;:.!]\s+|\s+(?:und|y|e)\s+(?=(?:ich|wohne|arbeite|lebe|nutze|benutze|vivo|trabajo|uso|soy|programo|moro|trabalho|sou|eu|mi|meu|minha|mein|meine|estoy|estou|tô|to|tengo|tenho|quiero|quero|bin|habe|hab|me|es|está|esta)\b)/iu)
    .map((clause) => clause.trim().replace(/[.!]+$/, '').replace(/^(?:und|y|e|pero|mas|aber)\s+/iu, ''))
    .filter((clause) => clause && !someoneElse.test(clause) && !questionClause.test(clause))
    .map((clause) => (/^(?:wohne|arbeite|lebe|nutze|benutze|verwende|schreibe|heiße|heisse|bin)\b/iu.test(clause) ? `ich ${clause}` : clause))
    // Tiers are set by the shapes themselves (foreignCandidates): only the language's own "my name is" is A.
    .map((text) => ({ text, weaker: [], words: [], language }));
}

const name = String.raw`(\p{Lu}[\p{Ll}'’]+(?:\s+\p{Lu}[\p{Ll}'’]+)?|\p{Ll}[\p{Ll}'’]+)`;
const properWords = String.raw`(\p{L}[\p{L}\d&.'’-]*(?:\s+(?:de\s+)?\p{Lu}[\p{L}\d&.'’-]*){0,2}?)`;
const roleWords =
  /(?:entwickler(?:in)?|engineer|ingenieur(?:in)?|architekt(?:in)?|berater(?:in)?|student(?:in)?|desarrollador(?:a)?|ingenier[oa]|programador(?:a)?|diseñador(?:a)?|analista|desenvolvedor(?:a)?|engenheir[oa]|dev)\b/iu;
const diets = /^(vegetarian[oa]|vegan[oa]|vegetarisch|veganer(?:in)?|vegetarier(?:in)?)$/iu;

function match(text: string, pattern: string): RegExpExecArray | null {
  return compiled(pattern, 'iu').exec(text);
}

function tools(text: string): Candidate[] {
  const pairs: [string, readonly string[]][] = [['editor', knownEditors], ['os', knownOperatingSystems], ['shell', knownShells], ['package_manager', knownPackageManagers]];
  return pairs.flatMap(([key, names]) => findKnown(text, names).slice(0, 1).map((value) => ({ key, value, tier: 'B' as const })));
}

/** Candidates from one foreign clause: tier A only for the language's own "my name is". */
export function foreignCandidates(clause: OwnerClause): Candidate[] {
  const text = clause.text;
  const found: Candidate[] = [];
  const add = (key: string, value: string | undefined, tier: 'A' | 'B' | 'C' = 'B'): void => {
    // A place or a company is written with a capital ("moro em Recife"); "una app de recetas" names neither.
    if ((key === 'employer' || key === 'location') && value && !/^\p{Lu}|^\p{Ll}+\p{Lu}/u.test(value.trim())) return;
    const kept = value && (key === 'employer' || key === 'location' ? properNoun(value.replace(/\s+(?:de|do|da)\s+/giu, ' \u0000 '), 4)?.replace(/ \u0000 /g, ' de ') : value.trim());
    if (kept) found.push({ key, value: kept, tier });
  };
  const plainName = match(text, String.raw`^(?:ich heiße|ich heisse|mein name ist|me llamo|mi nombre es|me chamo|meu nome é)\s+${name}$`);
  if (plainName) add('name', plainName[1], /^\p{Lu}/u.test(plainName[1]) ? 'A' : 'B');
  const roleAt = match(text, String.raw`^(?:ich bin|soy|sou)(?:\s+(?:der|die|el|la|o|a|ein|eine|un|una|um|uma))?\s+(.+?)\s+(?:bei|en|na|no|em|para)\s+${properWords}$`);
  const iAm = roleAt && roleWords.test(roleAt[1]) ? null : match(text, String.raw`^(?:ich bin|soy|sou)(?:\s+(?:der|die|el|la|o|a))?\s+(.+?)(?:\s+(?:aus|de|da|do|em|en)\s+${properWords})?$`);
  if (roleAt && !iAm) {
    add('role', roleAt[1]);
    add('employer', roleAt[2]);
  }
  if (iAm) {
    const what = iAm[1];
    if (roleWords.test(what)) add('role', what);
    else if (diets.test(what)) add('diet', what);
    else if (/^\p{Lu}[\p{Ll}]+(?:\s+\p{Lu}[\p{Ll}]+)?$/u.test(what)) add('name', what, 'C');
    if (iAm[2]) add('location', iAm[2]);
  }
  const works = match(text, String.raw`^(?:ich arbeite|trabajo|trabalho)(?:\s+(?:als|como)\s+(.+?))?\s+(?:bei|für|en|para|na|no|em)\s+${properWords}(?:\s+(?:als|como)\s+(.+?))?(?:\s+(?:in|en|em)\s+${properWords})?$`);
  if (works) {
    add('employer', works[2]);
    add('role', works[1] ?? works[3]);
    add('location', works[4]);
  }
  const asRole = match(text, String.raw`^(?:ich arbeite|trabajo|trabalho)\s+(?:als|como)\s+(.+)$`);
  if (asRole && !works) add('role', asRole[1]);
  const lives = match(text, String.raw`^(?:ich wohne|ich lebe|vivo|moro)\s+(?:in|en|em|no|na)\s+${properWords}$`);
  if (lives) add('location', lives[1]);
  const pronouns = match(text, String.raw`^(?:meine pronomen sind|mis pronombres son|pronomes|meus pronomes são)\s+(\p{L}+\/\p{L}+)$`);
  if (pronouns) add('pronouns', pronouns[1]);
  const editor = match(text, String.raw`^(?:mi editor es|meu editor é|mein editor ist)\s+(.+)$`);
  if (editor) add('editor', findKnown(editor[1], knownEditors)[0]);
  const uses = match(text, String.raw`^(?:ich nutze|ich benutze|ich verwende|uso)\s+(.+)$`);
  if (uses) found.push(...tools(uses[1]));
  const codes = match(text, String.raw`^(?:programo en|programo em|ich programmiere in)\s+(.+)$`);
  if (codes) for (const value of findKnown(codes[1], knownLanguages, caseSensitiveLanguages)) add('languages', value);
  return found;
}
