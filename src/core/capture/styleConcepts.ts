import type { Candidate } from './candidate';

/**
 * Coding preferences are said a hundred ways ("please always use early returns", "I hate semicolons", "2 spaces, never
 * 4", "Prefiero composición sobre herencia"), so the style key is read by concept: a known preference, named the one
 * way, when the sentence says it is the owner's standing preference. A one-off request ("use early returns in this
 * function") is not one, nor is a team's style guide or a question. Never confirmed without the owner: tier B.
 */
const concepts: readonly (readonly [string, RegExp])[] = [
  ['early returns', /\bearly[- ]returns?\b|\breturn early\b/i],
  ['guard clauses', /\bguard clauses?\b/i],
  ['spaces', /\bspaces (?:over|not|instead of|rather than) tabs\b/i],
  ['tabs', /\btabs\b(?! (?:or|vs\.?|versus) spaces)(?!.*\bspaces (?:over|not|instead of) tabs\b)/i],
  ['2-space indentation', /\b(?:2|two)[- ]spaces?\b(?! (?:or|vs))/i],
  ['4-space indentation', /\b(?:4|four)[- ]spaces?\b(?! (?:or|vs))/i],
  ['no semicolons', /\b(?:no|without|hate|drop|skip|avoid|never (?:add|use|put|write)|don'?t (?:add|use|put|want))\s+(?:the\s+|any\s+)?semicolons\b|\bsemicolon-?free\b|\bsemicolons?\b.*\bdon'?t add them\b|\bpunti e virgola\b|\bsin punto y coma\b|\bsem ponto e v[íi]rgula\b|\bkeine semikolons?\b|\bpas de points?[- ]virgules?\b/i],
  ['semicolons', /\balways (?:use|add|put) semicolons\b/i],
  ['double quotes', /\bdouble quotes\b(?! or)/i],
  ['single quotes', /\bsingle quotes\b(?! (?:or|in js make))(?!.*\bdouble quotes\b)/i],
  ['type hints', /\btype[- ]hint(?:s|ed|ing)?\b|\btype annotations\b/i],
  ['docstrings', /\bdocstrings?\b/i],
  ['conventional commits', /\bconventional commits?\b/i],
  ['composition over inheritance', /\bcomposi(?:tion|ción|ção|zione) (?:over|sobre|em vez de|instead of|rather than|à|a|invece dell'|statt) ?(?:inheritance|herencia|herança|héritage|ereditarietà|vererbung)\b|\bfavou?r composition\b/i],
  ['functional style', /\bfunctional (?:style|programming|approach|code)\b|\bestilo funcional\b|\bstyle fonctionnel\b|\bfunktional(?:en)? stil\b/i],
  ['immutability', /\bimmutab(?:ility|le)\b|\bimutabilidade\b|\binmutabilidad\b|\bimmuabilité\b|\bimmutabilità\b/i],
  ['small functions', /\b(?:small|tiny) functions\b|\bfunctions? under ~?\d+ lines\b|\bfunções pequenas\b|\bfunciones pequeñas\b|\bpetites fonctions\b|\bkleine funktionen\b/i],
  ['short functions', /\bshort functions\b|\bkorte functies\b|\bfunzioni brevi\b|\bkurze funktionen\b/i],
  ['no side effects', /\b(?:no|without|zonder|sin|sem|ohne|sans|senza) side[- ]effects\b/i],
  ['pure functions', /\bpure functions\b/i],
  ['named exports', /\bnamed exports?\b/i],
  ['async/await', /\basync[/-]await\b/i],
  ['no nested ternaries', /\bnested ternar(?:y|ies)\b|\bverschachtelte[n]? ternar(?:y|ies|ys)\b|\bternarios anidados\b|\bternários aninhados\b/i],
  ['descriptive names', /\bdescriptive (?:variable |function )?names\b|\bnombres descriptivos\b|\bnomes descritivos\b|\bnoms descriptifs\b/i],
  ['no abbreviated names', /\b(?:never|don'?t|no|avoid) abbreviat(?:e|ed|ing|ions?)\b/i],
  ['trailing commas', /\btrailing commas?\b/i],
  ['explicit over clever', /\bexplicit (?:code )?(?:over|rather than|instead of) clever\b/i],
  ['no emojis in commit messages', /\bemojis? in (?:my )?commit messages\b/i],
  ['comments explain why', /\bcomments? (?:only )?(?:explain(?:ing)?|on|for)? ?the why\b|\bonly comment the why\b/i],
  ['English variable names', /\b(?:variable names in english|nomes de variáveis em inglês|nombres de variables en inglés|english (?:variable )?names)\b/i],
  ['snake_case', /\bsnake_case\b/],
  ['camelCase', /\bcamelCase\b/],
  ['TDD', /\bTDD\b|\btest-driven\b/],
  ['strict TypeScript', /\bstrict (?:mode )?typescript\b|\btypescript strict\b/i],
];

/** The owner's standing preference: a verb of liking or habit, or an instruction for always. */
const standing =
  /\b(?:i (?:always|never|prefer|like|love|hate|can'?t stand|want|follow|go|use|stick to|swear by|insist on|write|do)|i'd rather|i would rather|i am (?:big on|a (?:big )?fan of|all about)|i'm (?:big on|a (?:big )?fan of|all about)|im (?:big on|a fan of)|my (?:rule|style|preference|habit)|that'?s how i like|please (?:always|never)|always|never|from now on|whenever you|every time you|in general|by default|keep that in mind|remember that i|i'?m an? [\p{L}' -]{1,30} (?:guy|person|fan|girl)|everything|keep that (?:up|in mind)|prefiero|prefiro|je préfère|ich (?:mag|bevorzuge|hasse)|liever|odio|preferisco|siempre|sempre|immer|toujours|mag keine)\b/iu;
/** Someone else's rule, or a question about one. */
const notTheOwners =
  /\b(?:e\.g\.|for example|for instance|such as|like:|example|sample|mock|fake|test input|test string|wrote|writes|said|says|shows|left this|commented|blame|maintainer|our|the team'?s?|my team|my (?:boss|lead|manager|colleague|coworker|teammate)|style guide|(?:he|she|they) (?:prefers?|likes?|wants?)|airbnb|google'?s|linter says|eslint says|this (?:repo|codebase|project) uses|the repo uses)\b/i;
const oneOff = /\b(?:in this (?:function|file|snippet|method|class|pr)|for this (?:one|function|file|snippet)|here|this time|just this)\b/i;

/** The style preferences a message states as the owner's, one candidate per concept (tier B). */
export function styleCandidates(ownText: string): Candidate[] {
  const found = new Map<string, Candidate>();
  const sentences = ownText.split(/(?<=[.!?])\s+|\n+|\s+[—–]\s+/);
  for (const [i, sentence] of sentences.entries()) {
    if (!sentence.trim() || /\?\s*$/.test(sentence) || notTheOwners.test(sentence)) continue;
    // "tabs, not spaces. always.": a word or two after the preference still says it stands.
    const next = sentences[i + 1] ?? '';
    if (!standing.test(sentence) && !(next.split(/\s+/).length <= 3 && standing.test(next))) continue;
    if (oneOff.test(sentence) && !/\b(?:always|never|from now on|whenever|every time)\b/i.test(sentence)) continue;
    for (const [value, pattern] of concepts) {
      if (pattern.test(sentence) && !found.has(value)) found.set(value, { key: 'style', value, tier: 'B' });
    }
  }
  // "tabs, never spaces" is one preference, not two; "2 spaces, never 4" one too.
  if (found.has('2-space indentation')) found.delete('4-space indentation');
  if (found.has('spaces')) found.delete('tabs');
  return [...found.values()];
}

/** Whether a free-text style value ("early returns over nested ifs") is one of the known concepts, said longer. */
export function namesAConcept(value: string): boolean {
  return concepts.some(([, pattern]) => pattern.test(value));
}

/** The known concepts a free-text style value names ("tabs en vez de espacios" names tabs). */
export function conceptsNamedIn(value: string): string[] {
  return concepts.filter(([, pattern]) => pattern.test(value)).map(([name]) => name);
}
