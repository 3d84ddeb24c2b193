import type { Language, OwnerClause } from './ownerClause';
import { compiled } from './compiledPatterns';
import { canonicalTool, capitalisedHead, frameDetects, isPlaceName, withListTails } from './frames';
import { nameMarksBack, placeAfterComma, withNameMarks } from './sentenceParts';
import { toolsIn } from './passingShapes';
import type { Candidate } from './candidate';
import { roleWords } from './roleTerms';
import { properNoun } from './slotPatterns';
import { endsRole } from './slotValues';
import { tagWords } from './wordTagger';

/**
 * Self-statements in German, Spanish, Portuguese, French, Italian and Dutch: how their sentences are found and split
 * into clauses, which clauses say nothing now (past, wishes, negations, questions, someone else), and the shapes the
 * frames (frames/*.json) do not read yet: a role and an employer in one of the several orders these languages allow
 * ("soy X en Y", "trabajo desde 2019 como X en Y en Z"), a bare "I am X" that is a role, a diet or a name, a team before
 * its employer, the tools after the language's "I use", and what the owner does not eat. A name, pronouns, a place and a
 * time zone are read by the frames alone; nothing here is confirmed without the owner.
 */
export type { Language } from './ownerClause';

interface Words {
  /** Openings that show a sentence speaks of its owner in this language. */
  readonly opening: RegExp;
  /** Words that tell the language apart when an opening is shared ("uso", "sono"). */
  readonly marker: RegExp;
  readonly iAm: string;
  readonly articles: string;
  readonly at: string;
  readonly inPlace: string;
  readonly work: string;
  readonly as: string;
  readonly use: string;
  readonly codeIn: string;
  readonly workWith: string;
  readonly testWith: string;
  readonly onSystem: string;
  readonly team: string;
  readonly notEating: string;
  /** The word a diet without a food takes ("sem carne", "ohne Fleisch"), for what "I don't eat X" says. */
  readonly without: string;
  /** Past, future, negation and wishes: a clause with one says nothing about the owner now (except what they do not eat). */
  readonly notNow: RegExp;
  /** Someone else speaks ("mein Chef", "mein Team nutzt"); a team that is named ("mein Team heißt Kasse") is the owner's. */
  readonly someoneElse: RegExp;
  readonly question: RegExp;
  readonly diets: RegExp;
}

const languages: Record<Language, Words> = {
  de: {
    opening: /(?:^|[\s,])(?:ich (?:heiße|heisse|bin|arbeite|wohne|lebe|nutze|benutze|verwende|schreibe|programmiere|teste|sitze|esse)|bin auf|bei mir läuft|mein name ist|meine (?:pronomen|zeitzone))\b/iu,
    marker: /\b(?:ich|und|bei|mein|meine|nicht|ist|auf|mit)\b/i,
    iAm: 'ich bin',
    articles: 'der|die|das|ein|eine|einer',
    at: 'bei(?: der| dem)?|für',
    inPlace: 'in',
    work: 'ich arbeite',
    as: 'als',
    use: 'ich nutze|ich benutze|ich verwende|bei mir läuft alles über',
    codeIn: 'ich programmiere in|ich schreibe',
    workWith: 'ich arbeite (?:hauptsächlich |meistens |viel )?mit',
    testWith: 'ich teste mit',
    onSystem: '(?:ich )?bin (?:auf|unter)',
    team: '(?:ich bin )?im team',
    notEating: 'ich esse kein(?:e|en)?',
    without: 'ohne',
    notNow: /\b(?:früher|damals|war|habe \w+ gearbeitet|gearbeitet|gewohnt|ehemals|bald|nächste[nrs]?|werde|möchte|würde|soll ich|nicht|kein|keine|keinen|wenn)\b/iu,
    someoneElse: /^(?:mein(?:e)?)\s+(?:kollege|kollegin|chef|chefin|freund|freundin|bruder|schwester|mutter|vater|team(?!\s+(?:hei(?:ß|ss)t|se llama|se chama|s['’]appelle|si chiama|heet|ist|es|é|est|è|is|c['’]est)(?!\p{L})))\b/iu,
    question: /\?\s*$|^(?:kannst|können|könntest|hast|wie|was|warum|wo|soll)\b/iu,
    diets: /^(vegan|vegetarisch|veganer(?:in)?|vegetarier(?:in)?)$/iu,
  },
  es: {
    opening: /(?:^|[\s,¡¿])(?:escribo|siempre escribo|aquí (?:es|habla)|me llamo|mi nombre es|soy|trabajo (?:en|para|como|con)|vivo en|uso|utilizo|programo en|estoy en|mi editor es|mis pronombres|mi zona horaria)(?![\p{L}])/iu,
    marker: /\b(?:y|en|para|como|mi|soy|con|el|la|los|las|estoy)\b|¿|¡/i,
    iAm: 'soy',
    articles: 'el|la|un|una',
    at: 'en|para',
    inPlace: 'en',
    work: 'trabajo',
    as: 'como',
    use: 'uso|utilizo',
    codeIn: 'programo en',
    workWith: 'trabajo con',
    testWith: 'pruebo con|(?:siempre )?escribo (?:mis |los )?tests con',
    onSystem: 'estoy en',
    team: '(?:estoy en|soy de|trabajo en) el equipo(?: de)?',
    notEating: 'no como',
    without: 'sin',
    notNow: /\b(?:antes|trabajaba|vivía|era|fui|solía|dejé|voy a|quiero|pronto|próxim[oa]|si|no|nunca)\b/iu,
    someoneElse: /^(?:mi|mis)\s+(?:jefe|jefa|amigo|amiga|hermano|hermana|colega|madre|padre|equipo(?!\s+(?:hei(?:ß|ss)t|se llama|se chama|s['’]appelle|si chiama|heet|ist|es|é|est|è|is|c['’]est)(?!\p{L})))\b/iu,
    question: /\?\s*$|^(?:puedes|podrías|me ayudas|debería|tienes|alguna|alguien|cómo|qué|por qué|dónde)\b/iu,
    diets: /^(vegetarian[oa]|vegan[oa])$/iu,
  },
  pt: {
    opening: /(?:^|[\s,])(?:aqui é|me chamo|meu nome é|sou|trabalho (?:na|no|em|para|como|com)|moro (?:em|no|na)|uso|utilizo|programo em|estou (?:em|no|na)|meu editor é|(?:meus )?pronomes|meu fuso)(?![\p{L}])/iu,
    marker: /\b(?:e|na|no|em|meu|minha|sou|é|com|então|dados|do|da)\b|ã|õ|ç/i,
    iAm: '(?:eu )?sou',
    articles: 'o|a|um|uma',
    at: 'na|no|em|para',
    inPlace: 'em|no|na',
    work: 'trabalho',
    as: 'como',
    use: 'uso|utilizo',
    codeIn: 'programo em',
    workWith: 'trabalho com',
    testWith: 'testo com',
    onSystem: 'estou (?:no|na|em)',
    team: '(?:eu )?sou do time(?: de)?|(?:estou|trabalho) no time(?: de)?',
    notEating: 'não como',
    without: 'sem',
    notNow: /\b(?:antes|trabalhava|morava|era|fui|costumava|vou|quero|em breve|próxim[oa]|não|procurando)\b/iu,
    someoneElse: /^(?:meu|minha)\s+(?:chefe|amigo|amiga|irmão|irmã|mãe|pai|colega|time(?!\s+(?:hei(?:ß|ss)t|se llama|se chama|s['’]appelle|si chiama|heet|ist|es|é|est|è|is|c['’]est)(?!\p{L})))\b/iu,
    question: /\?\s*$|^(?:(?:pode|podes|você pode|voce pode)(?!\s+me\s+chamar)|podia|você|voce|deveria|como|qual|por que|onde|tem como)\b/iu,
    diets: /^(vegetarian[oa]|vegan[oa])$/iu,
  },
  fr: {
    opening: /(?:^|[\s,])(?:j'écris|je m'appelle|je m’appelle|mon nom est|moi c'est|je suis|jsuis|j'suis|je travaille|j'habite|je vis|j'utilise|je code|je programme|je bosse|mon fuseau|mes pronoms|dans (?:mon|l')équipe)(?![\p{L}])/iu,
    marker: /\b(?:je|et|chez|à|mon|ma|avec|dans|sous|pour|le|la|les)\b/i,
    iAm: "je suis|jsuis|j'suis",
    articles: 'un|une|le|la',
    at: 'chez|pour',
    inPlace: 'à|a|en',
    work: 'je travaille|je bosse',
    as: 'comme|en tant que',
    use: "j'utilise|j’utilise",
    codeIn: 'je code en|je programme en',
    workWith: 'je travaille avec|je code avec|je bosse avec',
    testWith: "je teste avec|j'écris (?:tous )?mes tests avec",
    onSystem: "(?:je suis|jsuis|j'suis) sous",
    team: "(?:je suis )?dans l'équipe|dans mon équipe \\(l'équipe",
    notEating: 'je ne mange pas de',
    without: 'sans',
    notNow: /\b(?:avant|travaillais|habitais|étais|j'ai travaillé|bientôt|prochaine?|vais|voudrais|ne\b|pas\b|si)\b/iu,
    someoneElse: /^(?:mon|ma|mes)\s+(?:collègue|chef|ami|amie|frère|sœur|mère|père|équipe(?!\s+(?:hei(?:ß|ss)t|se llama|se chama|s['’]appelle|si chiama|heet|ist|es|é|est|è|is|c['’]est)(?!\p{L})))\b/iu,
    question: /\?\s*$|^(?:tu peux|peux-tu|pourrais|comment|pourquoi|est-ce|qu'est|quel)\b/iu,
    diets: /^(végétarien(?:ne)?|vegan(?:e)?|végane?|végétalien(?:ne)?)$/iu,
  },
  it: {
    opening: /(?:^|[\s,])(?:mi chiamo|il mio nome è|sono|lavoro (?:come|in|per|a|da|con)|vivo a|abito a|uso|utilizzo|programmo in|il mio fuso)(?![\p{L}])/iu,
    marker: /\b(?:e|il|lo|la|sono|come|per|con|di|mio|mia|un|uno|una|soprattutto|quasi)\b/i,
    iAm: 'sono',
    articles: 'un|uno|una|il|la',
    at: 'in|per|da|presso',
    inPlace: 'a|in',
    work: 'lavoro',
    as: 'come',
    use: 'uso|utilizzo',
    codeIn: 'programmo in',
    workWith: 'lavoro con',
    testWith: 'testo con',
    onSystem: 'sono su',
    team: 'sono nel team|faccio parte del team',
    notEating: 'non mangio',
    without: 'senza',
    notNow: /\b(?:prima|lavoravo|vivevo|ero|sarò|voglio|vorrei|presto|prossim[oa]|non|se)\b/iu,
    someoneElse: /^(?:il mio|la mia|mio|mia)\s+(?:collega|capo|amico|amica|fratello|sorella|madre|padre|team(?!\s+(?:hei(?:ß|ss)t|se llama|se chama|s['’]appelle|si chiama|heet|ist|es|é|est|è|is|c['’]est)(?!\p{L})))\b/iu,
    question: /\?\s*$|^(?:puoi|potresti|mi spieghi|come(?!\s+(?:shell|editor|ide|gestore|sistema|terminale|linguaggio|framework))|perché|cosa|dove)\b/iu,
    diets: /^(vegetarian[oa]|vegan[oa])$/iu,
  },
  nl: {
    opening: /(?:^|[\s,])(?:ik heet|mijn naam is|ik ben|ik werk|ik woon|ik gebruik|ik programmeer|ik schrijf|ik eet|mijn tijdzone|mijn voornaamwoorden)(?![\p{L}])/iu,
    marker: /\b(?:ik|en|bij|mijn|het|een|als|met|niet|van)\b/i,
    iAm: 'ik ben',
    articles: 'een|de|het',
    at: 'bij|voor',
    inPlace: 'in',
    work: 'ik werk',
    as: 'als',
    use: 'ik gebruik',
    codeIn: 'ik programmeer in|ik schrijf',
    workWith: 'ik werk met',
    testWith: 'ik test met',
    onSystem: 'ik zit op|ik ben op',
    team: 'ik zit in het team|ik zit in team',
    notEating: 'ik eet geen',
    without: 'geen',
    notNow: /\b(?:vroeger|werkte|woonde|was|ga|wil|zou|binnenkort|volgende|niet|geen|als ik)\b/iu,
    someoneElse: /^(?:mijn)\s+(?:collega|baas|vriend|vriendin|broer|zus|moeder|vader|team(?!\s+(?:hei(?:ß|ss)t|se llama|se chama|s['’]appelle|si chiama|heet|ist|es|é|est|è|is|c['’]est)(?!\p{L})))\b/iu,
    question: /\?\s*$|^(?:kun je|kan je|kunt u|hoe|waarom|wat|waar)\b/iu,
    diets: /^(vegetari[eë]r|veganist|vegan)$/iu,
  },
};

const order: readonly Language[] = ['pt', 'es', 'it', 'fr', 'nl', 'de'];

/** English "I" and "my": written as English writes them, or "i" before an English verb (Italian "per i test" is not). */
const englishI = /\b(?:I|I'm|I’m|Im|i'm|im|my|My)\b|\bi\s+(?:am|work|live|use|love|like|have|do|write|code|prefer|was|run|build|need|want|think|know|mostly|also|just|really|should|can)\b/u;

export function languageOf(sentence: string): Language | undefined {
  const opened = order.filter((language) => languages[language].opening.test(sentence) || frameDetects(language, sentence));
  // (a language's frame file may add openings of its own: `detect` in frames/*.json)
  if (opened.length === 0) return undefined;
  // "Lavoro su Svelte e SvelteKit, and honestly I love it": a sentence whose first clause opens in the language is
  // written in it, its English halves read as English clauses (foreignClauses).
  const firstClause = sentence.replace(/^(?:hallo|hola|oi|olá|bonjour|salut|ciao|hoi|hey|hi)\b[!,.\s]*/iu, '').split(/\s*[,;.!?]\s*|\s+(?:and|but)\s+/u)[0];
  const opensInIt = !englishI.test(firstClause) && opened.some((language) => languages[language].opening.test(firstClause) || frameDetects(language, firstClause));
  if (englishI.test(sentence) && !opensInIt && !/\b(?:ich|mein|yo|mi|eu|meu|minha|je|moi|mon|ik|mijn|io|sono)\b/i.test(sentence)) return undefined;
  // "Vivo a Trieste, uso un Mac e come editor ho…" opens in Italian, Spanish and Portuguese alike: the language whose
  // small words the sentence shows most is the one it is written in (ties go by `order`).
  const shown = (language: Language): number => new Set(sentence.toLowerCase().match(new RegExp(languages[language].marker.source, 'giu')) ?? []).size;
  const best = Math.max(...opened.map(shown));
  return best > 0 ? opened.find((language) => shown(language) === best) : opened[0];
}

export function looksForeign(sentence: string): boolean {
  return languageOf(sentence) !== undefined;
}

/** The clauses of a foreign sentence that may state a fact about the owner. */
export function foreignClauses(sentence: string): OwnerClause[] {
  // What follows an opening "¿" is a question; the statements before it stand.
  const statement = sentence.split('¿')[0].replace(/[\p{Extended_Pictographic}\u{FE0F}\u{200D}\u{1F1E6}-\u{1F1FF}]/gu, ' ');
  const language = languageOf(statement);
  if (!language) return [];
  const words = languages[language];
  const verbs = /(?:ahora|agora|adesso|ora|maintenant|jetzt|nu|yo|io|ich|wohne|arbeite|lebe|nutze|benutze|vivo|trabajo|uso|soy|programo|moro|trabalho|sou|eu|mi|meu|minha|mein|meine|estoy|estou|tô|to|tengo|tenho|quiero|quero|bin|habe|hab|me|es|está|esta|je|j'|ik|lavoro|sono|abito|werk|woon|gebruik|dus|devo|faccio|schreibe|programmiere|verwende|escrevo|escribo|scrivo|schrijf|écris|sto)\b/iu;
  const parts = withNameMarks(statement)
    .replace(/^(?:hallo|servus|moin|hola|buenas|oi|olá|ola|bonjour|salut|ciao|hoi|hey)\b[!,.\s]*/iu, '')
    // "Mon fuseau horaire, c'est Europe/Paris": the topic named before the comma is the clause's own subject.
    .replace(/^((?:mon|ma|mes)\s[\p{L}'’ -]{2,40}?),\s*(?=c['’]est\s)/iu, '$1 ')
    // A full stop or "!" inside a name ("Next.js", "Pop!_OS") splits nothing (withNameMarks); an English "and I …"
    // starts a clause.
    .split(new RegExp(String.raw`\s*[,;:.!()]\s*|\s+(?:und|y|e|et|en|also|so|donc|quindi|dus|pero|ma|mas|mais|maar)\s+(?=${verbs.source})|\s+(?:and|but|y|e|et|und|en)\s+(?=(?:i|i'm|my)\b)`, 'iu'))
    .map(nameMarksBack);
  return withListTails(parts, language)
    // "en" is Dutch for "and", but Spanish for "in" ("En el trabajo programo en Go").
    // "…, então o meu fuso é WET": a clause opened by "so" states what follows it.
    .map((clause) => clause.trim().replace(/[.!]+$/, '').replace(language === 'nl' ? /^(?:en|maar|dus)\s+/iu : /^(?:und|y|e|et|pero|mas|aber|mais|ma|então|entao|entonces|alors|quindi|daher|deshalb)\s+/iu, ''))
    .filter((clause) => clause && !words.someoneElse.test(clause) && !words.question.test(clause) && (!words.notNow.test(clause) || new RegExp(`^(?:${words.notEating})\\s`, 'iu').test(clause)))
    .map((clause) => (language === 'de' && /^(?:wohne|arbeite|lebe|nutze|benutze|verwende|schreibe|heiße|heisse|bin|teste|sitze)\b/iu.test(clause) ? `ich ${clause}` : clause))
    // Tiers are set by the shapes themselves (foreignCandidates): only the language's own "my name is" is A. An English
    // clause in the owner's other language ("…, and my OS is NixOS") is read by the English shapes, never confirmed alone.
    .map((text) => (englishPart.test(text) ? englishClause(text.replace(englishPart, '$1')) : { text, weaker: [], words: [], language }));
}

/** An English clause inside a sentence in another language: "and my OS is NixOS", "I work at Nopal Systems". */
const englishPart = /^(?:and\s+|but\s+|so\s+)?(?:honestly\s+|also\s+)?((?:i(?:'m| am)?\s+(?:a|an|the|on|in|at|work|live|use|write|code|do|prefer|test|run|build|mostly|also)\b|my\s).*)$/iu;
const codeMixed = 'an English clause in a sentence in another language';
/** "my shell c'est bash", "my editor es Neovim": the language's "is" inside an English clause is still "is". */
const foreignIs = /^(my\s+[\p{L} ]{1,24}?)\s+(?:c'est|c’est|est|es|é|è|ist)\s+/iu;
function englishClause(part: string): OwnerClause {
  const text = part.replace(foreignIs, '$1 is ');
  return { text, weaker: [codeMixed], words: tagWords(text), language: 'en' };
}

const name = String.raw`(\p{Lu}[\p{Ll}'’]+(?:\s+\p{Lu}[\p{Ll}'’]+)?|\p{Ll}[\p{Ll}'’]+)`;
const properWords = String.raw`(\p{L}[\p{L}\d&.'’-]*(?:\s+(?:de\s+)?\p{Lu}[\p{L}\d&.'’-]*){0,2}?)`;
const pronounPair = String.raw`(\p{L}+\/\p{L}+)`;

function match(text: string, pattern: string): RegExpExecArray | null {
  return compiled(pattern, 'iu').exec(text);
}

/** Candidates from one foreign clause: tier A only for the language's own "my name is". */
export function foreignCandidates(clause: OwnerClause): Candidate[] {
  // A place after a comma ("…, desde Valencia") is the frames' to read (sentenceParts.ts `placeAfterComma`).
  const comma = clause.text.lastIndexOf(', ');
  const text = comma > 0 && placeAfterComma.test(clause.text.slice(comma + 2)) ? clause.text.slice(0, comma) : clause.text;
  const words = languages[clause.language as Language] ?? languages.de;
  const found: Candidate[] = [];
  const add = (key: string, value: string | undefined, tier: 'A' | 'B' | 'C' = 'B'): void => {
    // A place or a company is written with a capital ("moro em Recife"); "una app de recetas" names neither.
    if ((key === 'employer' || key === 'location') && value && !/^\p{Lu}|^\p{Ll}+\p{Lu}/u.test(value.trim())) return;
    // A role ends where another clause begins ("como QA y en casa uso Linux"), as a frame's role does (endsRole).
    const spoken = key === 'role' ? value?.replace(endsRole, '') : value;
    const kept = spoken && (key === 'employer' || key === 'location' ? properNoun(spoken.replace(/\s+(?:de|do|da)\s+/giu, ' \u0000 '), 4)?.replace(/ \u0000 /g, ' de ') : spoken.trim().replace(/[.,;:!?]+$/, ''));
    // "Trabajo en Madrid": a known place is where the owner works, not whom for (frames.ts reads it the same way).
    if (kept && !(key === 'employer' && isPlaceName(kept))) found.push({ key, value: kept, tier });
  };
  const addTools = (phrase: string): void => {
    found.push(...toolsIn(phrase).map((tool) => ({ ...tool, value: canonicalTool(tool.key, tool.value) })));
  };
  const team = match(text, String.raw`^(?:${words.team})\s+(?:(?:de |do |da |del )?(?:l')?)?([\p{L}\d&][\p{L}\d& -]{0,30}?)(?:\s+(?:${words.at})\s+${properWords})?$`);
  if (team) {
    add('team', capitalisedHead(team[1].replace(/[-\s]*team$/i, '')));
    add('employer', team[2]);
  }
  const roleAt = !team && match(text, String.raw`^(?:${words.iAm})(?:\s+(?:${words.articles}))?\s+(.+?)\s+(?:${words.at}|@)\s+${properWords}(?:\s+(?:${words.inPlace})\s+${properWords})?$`);
  const iAm = roleAt && roleWords.test(roleAt[1]) ? null : !team && match(text, String.raw`^(?:${words.iAm})(?:\s+(?:${words.articles}))?\s+(.+?)(?:\s+(?:${words.inPlace})\s+${properWords})?$`);
  if (roleAt && !iAm) {
    add('role', roleAt[1]);
    add('employer', roleAt[2]);
    add('location', roleAt[3]);
  }
  if (iAm) {
    const what = iAm[1];
    const pair = match(what, String.raw`^${name}\s+${pronounPair}$`);
    // "Soy ingeniero de datos de Mercado Libre": a job, then the company it is at, written with a capital.
    const ofEmployer = /^(.+?)\s+(?:de|del|da|do|di|della|dello)\s+(\p{Lu}[\p{L}\d&'’-]*(?:\s+\p{Lu}[\p{L}\d&'’-]*){0,3})$/u.exec(what);
    if (!pair && ofEmployer && roleWords.test(ofEmployer[1])) {
      add('role', ofEmployer[1]);
      add('employer', ofEmployer[2]);
    } else if (pair) {
      add('name', pair[1], 'C');
      add('pronouns', pair[2].toLowerCase());
    } else if (roleWords.test(what) && what.split(/\s+/).length <= 5) add('role', what);
    else if (words.diets.test(what)) add('diet', what.toLowerCase());
    else if (/^\p{Lu}[\p{Ll}]+(?:\s+\p{Lu}[\p{Ll}]+)?$/u.test(what)) add('name', what, 'C');
    if (iAm[2]) add('location', iAm[2]);
  }
  const works = match(text, String.raw`^(?:${words.work})(?:\s+(?:seit|desde|depuis|sinds|há|da)\s+[\p{L}\d]+(?:\s+[\p{L}\d]+)?)?(?:\s+(?:${words.as})\s+(.+?))?\s+(?:${words.at}|@)\s+${properWords}(?:\s+(?:${words.as})\s+(.+?))?(?:\s+(?:${words.inPlace})\s+${properWords})?(?:\s+(?:${words.as})\s+(.+?))?(?:\s+(?:da|desde|seit|depuis|sinds)\b.*)?$`);
  if (works) {
    add('employer', works[2]);
    add('role', works[1] ?? works[3] ?? works[5]);
    add('location', works[4]);
  }
  const asRole = !works && match(text, String.raw`^(?:${words.work})\s+(?:${words.as})\s+(.+?)(?:\s+(?:${words.inPlace})\s+(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+)?))?$`);
  if (asRole) {
    add('role', asRole[1]);
    add('location', asRole[2]);
  }
  const uses =
    match(text, String.raw`^(?:${words.use}|${words.codeIn}|${words.workWith}|${words.testWith}|${words.onSystem})\s+(.+)$`) ??
    match(text, String.raw`^(?:mi|meu|mon|il mio|mijn|mein)\s+(?:editor|éditeur|shell|sistema operativo|système)\s+(?:es|é|est|è|is|ist)\s+(.+)$`);
  if (uses) addTools(uses[1]);
  const eats = match(text, String.raw`^(?:${words.notEating})\s+(\p{L}+)`);
  if (eats) add('diet', `${words.without} ${eats[1]}`);
  return found;
}
