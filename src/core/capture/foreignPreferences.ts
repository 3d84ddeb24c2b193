import type { Candidate } from './candidate';

/**
 * A list of coding preferences said in another language ("Prefiero tabs en vez de espacios y siempre comillas simples",
 * "Preferisco righe da massimo 100 caratteri e niente punti e virgola") is kept in the owner's words, one value per
 * item: the owner reads them back as written, and a translation ("single quotes") would put words in their mouth. A
 * lone preference keeps its known concept (styleConcepts.ts). Never confirmed without the owner: tier B.
 */
const preferenceVerb =
  /^(?:eu |yo |io |je |ich |ik )?(?:prefiro|prefiero|preferisco|préfère|je préfère|bevorzuge|schreibe lieber|schrijf liever|mag liever)\s+/iu;
/** A habit word before the item ("sempre comillas simples") or an article says nothing of the preference itself. */
const leadingFiller = /^(?:(?:sempre|siempre|toujours|immer|altijd|sobretudo|surtout|les|los|las|os|as|il|gli|le|la|die|der|das|de)\s+)+/iu;
/** "no JavaScript", "in TypeScript": where the owner applies it, not the preference. */
const trailingPlace = /\s+(?:no|na|nos|en|em|in|im|nel|dans|op)\s+(?:le\s+|el\s+|o\s+)?\p{Lu}[\p{L}.#+]*$/u;
/** "frühe Returns als verschachtelte ifs": what it is preferred to is left out; "instead of" stays (it names both). */
const comparedTo = /\s+(?:als|que|di|than|plutôt que)\s+.*$/iu;
/** Words a coding preference is made of, so "Prefiero café y té" is not one. */
const codingWord =
  /\b(?:tabs?|espa[çc]os|espacios|spazi|espaces|leerzeichen|comillas|aspas|virgolette|guillemets|anführungszeichen|v[íi]rgula|virgola|coma|virgule|semikolon\w*|righe|linhas|l[íi]neas|lignes|zeilen|caracteres|caratteri|caractères|zeichen|fun[çc][õo]es|funciones|funzioni|fonctions|funktionen|functies|nomes|nombres|nomi|noms|namen|vari[áa]veis|variables|variabili|variablen|returns?|indent\w*|ternar\w*|commits?|tipos|types?|classes?|clases|classi|klassen|imports?|exports?|testes|tests?)\b/iu;
/** "ponto e vírgula", "punto y coma": one word with a conjunction inside, never two items. */
const joinedWords = /\b(pont[oi]|punt[oi]) (e|y) (v[íi]rgula|virgola|coma)\b/giu;

function itemsOf(clause: string): string[] {
  const guarded = clause.replace(joinedWords, '$1\u0000$2\u0000$3');
  return guarded.split(/\s*,\s*|\s+(?:e|y|et|und)\s+/u).map((item) => item.replace(/\u0000/g, ' ').trim());
}

function cleanItem(item: string): string {
  return item.replace(preferenceVerb, '').replace(leadingFiller, '').replace(trailingPlace, '').replace(comparedTo, '').trim();
}

/** Style values in the owner's words from each foreign sentence that lists two or more preferences. */
export function foreignPreferenceList(ownText: string): Candidate[] {
  const found: Candidate[] = [];
  for (const sentence of ownText.split(/(?<=[.!?])\s+|\n+/)) {
    const plain = sentence.trim().replace(/[.!]+$/, '');
    if (!plain || /\?$/.test(plain)) continue;
    const items = itemsOf(plain);
    // The list is the owner's when one of its items opens with the preference verb ("Prefiro …", "… und schreibe lieber …").
    if (items.length < 2 || !items.some((item) => preferenceVerb.test(item))) continue;
    // "Ich rücke immer mit Tabs ein und …": an item still said as a whole sentence is left to the concepts.
    const values = items.map(cleanItem).filter((value) => !/^(?:ich|eu|yo|io|je|j'|ik)\b/iu.test(value));
    if (values.length === 0 || !values.every((value) => codingWord.test(value) && value.split(/\s+/).length <= 6)) continue;
    for (const value of values) if (!found.some((known) => known.value.toLowerCase() === value.toLowerCase())) found.push({ key: 'style', value, tier: 'B' });
  }
  return found;
}
