import type { Candidate } from './candidate';
import { compiled } from './compiledPatterns';
import fieldLabels from './frames/fieldLabels.json';
import { notNames } from './knownNames';
import { toolsIn } from './passingShapes';
import { languageOf, notStanding, sentencesOf } from './standingMarkers';
import { namesAJob } from './slotValues';
import { timezoneIn } from './timezones';

/**
 * A key written as a label before its value, in any language capture reads: "Pronomen: sie/ihr", "Nome: Beatriz
 * Ornelas", "Mes pronoms : iel", "Fuso orario: CET", "Editor toh VS Code hi hai, aur OS Windows", "naam Bram". The
 * label says the key; the value must be one of that key's (a pronoun pair, a zone, a known tool, a capitalised name).
 * The labels are data (frames/fieldLabels.json). What this reads is asked about (tier B), never confirmed.
 */
const labels = Object.entries((fieldLabels as { labels: Record<string, string[]> }).labels);

/** Before a label: the start of a sentence or a part of it, an owner's possessive, a joiner. */
const opening = String.raw`(?:^|[,;:|]\s*|\s(?:and|und|y|e|et|en|i|ve|aur|at|tapos)\s+)(?:(?:my|mein|meine|mi|mis|meu|minha|mon|ma|mes|il mio|la mia|mijn|mój|moja|benim|mera|meri|yung|ang)\s+)?`;
/** Between a label and its value: a colon, an equals sign, or the little words of a copula. */
const glue = String.raw`\s*(?:[:=–-]\s*|\s+(?:is|ist|es|é|est|è|jest|to|wa|ko|toh|hai|ay|son|sind|zijn|are)\s+|\s+)`;
/** Each key's labels, their glue and the value after them, built once. */
const labelPatterns = labels.map(([key, words]) => [key, compiled(String.raw`${opening}(?:${words.join('|')})${glue}((?:[^.,;!?|\n]|\.(?=\S)){1,40}?)(?=$|[,;!?|\n]|\.(?:\s|$)|\s(?:and|und|y|e|et|en|i|ve|aur|at|tapos)\s)`, 'giu'), words.map((word) => word.split(/[^\p{L}]/u)[0].toLowerCase())] as const);
const pronounPair = /^(?:\p{L}{2,5}\/\p{L}{2,6}(?:\/\p{L}{2,6})?|iel|they|elle)$/iu;
const multiKeys = new Set(['languages', 'frameworks']);
const listGoesOn = /^(?:\s*(?:,|\s(?:and|und|y|e|et|en|i|ve|oraz|ve)\s|&|\+|\/)\s*[\p{L}\d.+#-]+)+/u;
const toolKeys = new Set(['editor', 'shell', 'os', 'package_manager', 'test_framework', 'languages', 'frameworks']);

function valuesOf(key: string, written: string): Candidate[] {
  const text = written.trim().replace(/[.!]+$/, '');
  if (toolKeys.has(key)) {
    const found = toolsIn(text, new Set([key]));
    return key === 'languages' || key === 'frameworks' ? found : found.slice(0, 1);
  }
  if (key === 'pronouns') {
    const pair = text.split(/\s+/)[0].replace(/[,;]+$/, '');
    return pronounPair.test(pair) ? [{ key, value: pair, tier: 'B' }] : [];
  }
  // "Cargo: engenheira de software", "Title: Principal Architect": a role is what names a job, in a few words.
  if (key === 'role') {
    const role = text.split(/\s*[(,;·|]\s*/)[0].trim();
    return role.split(/\s+/).length <= 4 && namesAJob.test(role) ? [{ key, value: role, tier: 'B' }] : [];
  }
  if (key === 'timezone') {
    const zone = timezoneIn(text.split(/\s+(?:\(|,)/)[0]) ?? timezoneIn(text.split(/\s+/)[0]);
    return zone ? [{ key, value: zone, tier: 'B' }] : [];
  }
  // A name: one to three capitalised words, none of them a placeholder ("name=ollama" is the junk seed case).
  const name = /^(\p{Lu}[\p{Ll}'’-]+(?:\s\p{Lu}[\p{Ll}'’-]+){0,2})(?=$|[\s,;])/u.exec(text);
  return name && !name[1].split(' ').some((word) => notNames.has(word.toLowerCase()) || honorifics.has(word.toLowerCase())) ? [{ key, value: name[1], tier: 'B' }] : [];
}

const allLabels = new Set(labels.flatMap(([, words]) => words));
/**
 * Whether a known tool's name is written as a field's label ("Cargo: engenheira de software" is the Portuguese label of
 * a role, not the Rust package manager): a label before its colon names a key, never a value.
 */
export function writtenAsLabel(name: string, text: string): boolean {
  return allLabels.has(name.toLowerCase()) && compiled(String.raw`(?:^|\n|\|)\s*(?:[-*•·]\s+)?${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\s*:`, 'iu').test(text);
}

/** Made-up people and data, in any language: a message asking for them labels nobody's fields. */
const madeUp = /\b(?:fake|mock|dummy|sample|example|test (?:user|data|case)|fixture|persona|character|falsos|falsas|ficticios?|fictícios?|fictifs?|finti|nep|sahte|przykładowe|beispiel\w*|(?:de |d['’]|di )?(?:ejemplo|exemplo|exemple|esempio)s?|voorbeeld\w*|örnek|testdaten|datos de prueba|dados de teste)\b/iu;
/** A log or a trace line ("java.lang.IllegalStateException: User name: admin"): its fields are a program's. */
const programOutput = /\b[a-z]+\.[a-z]+\.[A-Za-z]+|\b(?:Exception|Traceback|Error:|WARN|INFO|DEBUG)\b/u;
const honorifics = new Set(['mr', 'mrs', 'ms', 'dr', 'sr', 'sra', 'herr', 'frau', 'mme', 'mlle', 'sig', 'pan', 'pani']);

/** Every labelled value in the owner's standing sentences. */
export function labelledFieldCandidates(ownText: string): Candidate[] {
  const found: Candidate[] = [];
  if (madeUp.test(ownText)) return found;
  // "• Nome: Beatriz Lima", "- Poste : architecte cloud": a list's marker is not part of the line's label, and each
  // field of "Display name: Mo | Title: Principal Architect" is judged on its own (a short "Mo" reads as Tagalog).
  const fields = sentencesOf(ownText).flatMap((line) => line.replace(/^(?:[-*•·‣▪]|\d{1,2}[.)])\s+/u, '').split(/\s+\|\s+(?=\p{L}[\p{L} ]{0,20}\s*:)/u));
  for (const sentence of fields) {
    if (notStanding(sentence) || /\b\w+=\w/.test(sentence) || programOutput.test(sentence)) continue;
    const english = languageOf(sentence) === 'en';
    // Most sentences hold no label at all: the patterns run only where one of their first words is.
    const words = new Set(sentence.toLowerCase().match(/[\p{L}]+/gu) ?? []);
    for (const [key, pattern, firstWords] of labelPatterns) {
      if (!firstWords.some((word) => words.has(word))) continue;
      for (const match of sentence.matchAll(pattern)) {
        // In an English sentence a label needs its colon: "my name is Olu" is a frame's to read, with the frame's moods.
        const label = match[0].slice(0, match[0].length - match[1].length);
        if (english && /^[\s,;:]*(?:(?:and|my)\s+)?(?:(?:display )?name|pronouns|time ?zone|tz|local time|editor|ide|shell|os|package manager|test framework|tests|testing|languages?|langs|frameworks?|role|(?:job )?title|position|company|employer|team|location|city)\b/i.test(label) && !/[:=]\s*$/.test(label)) continue;
        // "Linguagens: Go e Python", "Sprachen: Go und Rust": a list's value goes on past its joiners (its key's names only).
        const more = multiKeys.has(key) ? listGoesOn.exec(sentence.slice((match.index ?? 0) + match[0].length))?.[0] ?? '' : '';
        for (const candidate of valuesOf(key, match[1] + more)) {
          if (!found.some((known) => known.key === candidate.key && known.value.toLowerCase() === candidate.value.toLowerCase())) found.push(candidate);
        }
      }
    }
  }
  return found;
}
