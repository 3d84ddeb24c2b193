import { fragmentOfDescription, readOwnerClauses, type OwnerClause } from './clauses';
import { foreignCandidates } from './foreignShapes';
import { frameClauses, frameLanguageOf, framedCandidates, framedInAnyLanguage, isKnownToolName, type FramedCandidate } from './frames';
import { rolePlay } from './clauseMood';
import { closedGate, type AllowedKeys } from './gates';
import { containsSecret, redactSecrets, secretMarker } from '../shared/secrets';
import { objectPhrase, ownProjectCandidates, passingCandidates, toolsIn } from './passingShapes';
import { ownSignatureCandidates } from './ownSignature';
import { claimedFieldCandidates } from './claimedFields';
import { machineOsCandidates } from './machineOs';
import { withVerblessIntroduction } from './verblessIntroduction';
import { ownWords } from './pastedText';
import { apartFromSecrets, withoutSecretsOptOut } from './besideSecret';
import { withFieldLists } from './fieldLists';
import { conceptsNamedIn, namesAConcept, styleCandidates } from './styleConcepts';
import { foreignPreferenceList } from './foreignPreferences';
import { projectMarker } from './projectCapture';
import { replacementsIn } from './retirements';
import { selfDescriptionCandidates, withNamesRespelled, withoutTypos } from './selfDescription';
import type { Candidate, Tier } from './candidate';
import { candidatesOf, honorific } from './slotPatterns';
import { plausibility } from './valueChecks';
import { lexiconTag } from './wordTagger';
import { namedTools } from './namedTools';
import { labelledFieldCandidates, writtenAsLabel } from './labelledFields';
import { notStandingInItsLanguage, sentencesOf } from './standingMarkers';
import { spellingsOf } from './knownNames';
import { canonicalTool } from './slotValues';
import { correctedInPlace } from './inPlaceCorrections';
import { isDictated, withSpokenPunctuation } from './spokenPunctuation';

export type { Candidate, Tier } from './candidate';

export interface CaptureResult {
  /** Facts the message states about its owner, on allowlisted keys only. */
  readonly candidates: Candidate[];
  /** Why nothing was taken from the message at all, when a gate closed. */
  readonly blocked?: string;
}

/**
 * Tier A is kept for a message that is the owner's statement and nothing else: short, no question, nothing that
 * corrects, contrasts, hedges or speaks of someone else. Anything more and the fact is asked about (tier B): a wrong
 * belief announced as confirmed costs more than one question.
 */
const plainMessageLength = 280;
const notPlain =
  /\?|\b(?:but|well|actually|except|though|although|instead|rather|used to|not|never|no longer|wait|correction|sorry|or|unless|if|any ?more|until|switching|switched|moving|moved|formerly|previously|before|maybe|perhaps|probably|guess|think|kinda|sort of|lol|haha|jk|joking|pretend|imagine|example|e\.g|sample|fake|mock|he|she|they|his|her|their|(?:my|a) (?:colleague|coworker|wife|husband|partner|friend|boss|manager|teammate|client|customer)|also uses|we|our|us|kidding|allegedly|supposedly|dreams|for now|for the time being|at the moment|right now|rn|temporarily|starting|as of|on weekends|half the year|at work|at home|in the game|my character|in my story|in the story)\b|n['’]t\b|["“”«»]/i;
/**
 * The rest of what keeps a message from being plain, the same kinds named by their other words: sarcasm ("*love*",
 * "obviously", 🙄), a supposition ("say I'm", "assuming"), a passing moment ("this week", "for the demo"), a plan or a
 * wish ("I'll", "someday"), the past ("was", "years ago"), someone close ("my roommate"), made-up data ("dummy",
 * "persona") and the assistant ("you are"), and a part of the time ("part-time", "on weekdays", "at heart").
 */
const notPlainEither =
  /🙄|😏|😒|🤡|\*[\p{L}]+\*|\b(?:obviously|totally|definitely|apparently|clearly|of course|sure(?:,| thing)|yeah,? right|because i['’]?m|suppose|supposing|assume|assuming|let['’]?s say|say (?:i|i['’]m|i am)|what if|hypothetically|in theory|as if|today|tonight|this (?:week|month|sprint|quarter|year|afternoon|morning|evening|weekend)|for the (?:demo|talk|workshop|interview|test|exercise)|for this|will|['’]ll|going to|gonna|want|wanna|wish|hope|someday|one day|eventually|next (?:week|month|year|quarter)|soon|plan(?:ning)? to|was|were|ago|last (?:year|month|week)|back (?:in|then)|in college|at uni|nobody|none|nor|my (?:mom|mum|dad|sister|brother|son|daughter|roommate|flatmate|neighbou?r|cousin|uncle|aunt|kid|kids|student|intern|mentor|lead|cto|ceo|team ?lead|girlfriend|boyfriend)|test data|dummy|placeholder|lorem|persona|character|you are|pretend you|part[- ]time|at heart|on (?:weekdays|weekends|workdays)|during the week|half the time|sometimes)\b/iu;

/**
 * A message that ends by taking itself back ("I work at Google. Just kidding.", "…, said no one ever", "in my dreams"):
 * nothing in it is the owner's statement.
 */
const takenBackAtEnd = /(?:\bjust kidding|\bjk|\bkidding|\bnot really|\bsaid no one ever|\bin my dreams|\byeah,? right|\bi wish|(?:^|\s)\/s)\W*$/i;

const multiValued = new Set(['languages', 'frameworks', 'style']);

/** Keys whose values a list of names reads (a tool, a language); a frame naming another key overrides them. */
const listReadKeys = new Set(['editor', 'shell', 'os', 'package_manager', 'test_framework', 'languages', 'frameworks', 'name', 'location', 'employer']);

/**
 * Frames first: what the frames of a clause's language read stands, and a value a list of names read from inside a
 * framed value under another key goes ("I live in Flask, Texas" is a place, not the framework Flask), in any clause of
 * the message.
 */
function withFrames<T extends Candidate>(framed: readonly Candidate[], others: readonly T[]): T[] {
  const inFrame = (candidate: Candidate): boolean =>
    framed.some((frame) => frame.key !== candidate.key && listReadKeys.has(candidate.key) && (containsWords(frame.value, candidate.value) || namesMachine(frame.value, candidate)));
  // "Sou QA engineer at …", "Kumo Systems de SRE to shite…": a value that holds a frame's value of its key with words
  // around it took in the frame's own words.
  const aroundFrame = (candidate: Candidate): boolean =>
    framed.some((frame) => frame.key === candidate.key && frame.value.length < candidate.value.length && containsWords(candidate.value, frame.value));
  // "a data engineer at Brightfjord in Gdańsk, and I live in Sopot": where the owner lives is what a frame says.
  const lives = framed.some((frame) => frame.key === 'location');
  const notWhereLiving = (candidate: Candidate): boolean => lives && candidate.key === 'location' && !framed.some((frame) => frame.key === 'location' && frame.value === candidate.value);
  return others.filter((candidate) => 'framed' in candidate || !(inFrame(candidate) || aroundFrame(candidate) || notWhereLiving(candidate)));
}

/** "My name is Mac", "Mac Logistics": the machine's name in a frame's value is the macOS a lexicon read from it. */
function namesMachine(value: string, candidate: Candidate): boolean {
  return candidate.key === 'os' && value.split(/\s+/).some((word) => word !== candidate.value && canonicalTool('os', word) === candidate.value);
}

/** Whether a value holds another as whole words ("Flask, Texas" holds Flask; "GoLand" does not hold Go). */
function containsWords(value: string, inner: string): boolean {
  return new RegExp(String.raw`(?<![\p{L}\p{N}])${escapeRegExp(inner)}(?![\p{L}\p{N}])`, 'iu').test(value);
}

function clauseCandidates(clause: OwnerClause): { candidates: (Candidate | FramedCandidate)[]; typo: boolean } {
  if (clause.language !== 'en') return { candidates: [...framedInAnyLanguage(clause.text, clause.language), ...foreignCandidates(clause)], typo: false };
  const fixed = withoutTypos(clause.text);
  const text = fixed ?? clause.text;
  const others = [...candidatesOf(text), ...selfDescriptionCandidates(text), ...passingCandidates(text)];
  return { candidates: [...framedCandidates(text, 'en'), ...others, ...listedTools(clause, others)], typo: fixed !== undefined && !/^im\s/i.test(clause.text) };
}

/**
 * Known tools named in a fragment of the owner's self-description ("Frontend lead at Canva, React and Next.js",
 * "mostly PyTorch and Python") or in the list that goes on after a tool a shape read ("I'm a Ruby person: Rails,
 * Hotwire"): each is the owner's, asked about (tier B), never confirmed alone. Only names written as the lists spell
 * them count ("the next two days" names no Next.js), never a command ("brew install keeps failing") nor a name after
 * "at" (an employer: "ML engineer at Hugging Face"), and a list stops where the clause turns to an event.
 */
function listedTools(clause: OwnerClause, read: readonly Candidate[]): Candidate[] {
  const phrase = objectPhrase(clause.text);
  let words: string;
  if (clause.weaker.includes(fragmentOfDescription)) words = namesOnly(phrase.replace(/^i am\s+/i, ''));
  else if (phrase.includes(': ')) {
    // Only a list the owner's own clause introduces as theirs ("I'm a Ruby person: …"), not "help me compare these: …".
    if (read.length === 0 && !ownListOpening.test(phrase)) return [];
    words = namesOnly(phrase.slice(phrase.indexOf(': ') + 2));
  }
  else {
    const list = phrase.indexOf(', ');
    const toolKeys = new Set(toolsIn(phrase).map((candidate) => candidate.key));
    if (list < 0 || !read.some((candidate) => toolKeys.has(candidate.key))) return [];
    words = phrase.slice(list + 2);
  }
  return toolsIn(words).filter((candidate) => {
    const at = words.indexOf(candidate.value);
    // Written in lower case, a name counts only when it is no English word too ("python", "sql"; not "next", "spring").
    if (at < 0 && candidate.value !== candidate.value.toLowerCase() && lexiconTag(candidate.value.toLowerCase()) !== undefined) return false;
    const lower = words.toLowerCase();
    const written = at >= 0 ? at : Math.max(-1, ...spellingsOf(candidate.value).map((spelling) => lower.search(new RegExp(String.raw`(?<![\p{L}])${escapeRegExp(spelling.toLowerCase())}`, 'u'))));
    return written >= 0 && !commandAfter.test(words.slice(written + candidate.value.length)) && !/\b(?:at|for)\s+(?:the\s+)?$/i.test(words.slice(0, written));
  });
}
/**
 * The parts of a fragment that are nothing but names ("mostly PyTorch and Python", "TypeScript only", "React on the
 * web"): a part with words of its own ("coffee with Rust folks") is a sentence about something else.
 */
function namesOnly(fragment: string): string {
  return fragment
    .split(/\s*[,;:]\s*|\s+(?:and|&|\+|plus|or)\s+|\s+\/\s+/)
    .filter((part) => {
      const names = toolsIn(part);
      if (names.length === 0) return false;
      let rest = part;
      for (const name of names) rest = rest.replace(new RegExp(escapeRegExp(name.value), 'i'), ' ');
      return rest.replace(listGlue, ' ').trim() === '';
    })
    .join(', ');
}
const listGlue = /\b(?:mostly|mainly|only|all day|all the way|a bit of|a little|some|lots of|heavy|heavily|daily|every day|these days|with|on|in|for|at work|for fun|on the side|the|my|everything|apps?|stack|backend|frontend|web|mobile|android|ios|tooling)\b|[.!()+-]/gi;
const ownListOpening = /^(?:i am (?:an? |the )?[\p{L}.+#/ -]{1,30}? (?:person|user|fan|shop|dev|developer|engineer)\b|i (?:use|write|run|work (?:with|in)|code (?:with|in))\b|my (?:stack|setup|tools|toolchain|toolbox)\b)/iu;
const commandAfter = /^\s+(?:install|add|run|build|test|init|update|upgrade|remove|exec|ci|i|x|dev|start)\b/i;

/** Sentences in the languages only the frames read (Polish, Turkish, Japanese in romaji, code-mixed English). */
function frameReadClauses(ownText: string): OwnerClause[] {
  const clauses: OwnerClause[] = [];
  for (const line of ownText.split('\n')) {
    const file = frameLanguageOf(line);
    if (!file) continue;
    for (const text of frameClauses(line, file)) clauses.push({ text, weaker: [], words: [], language: file.language as OwnerClause['language'] });
  }
  return clauses;
}

/**
 * Tier A is the promise that a plain self-statement is believed and announced. It holds only for the plainest
 * shape of a key, in a clause with nothing that weakens it, in a message with nothing pasted, for a value the
 * tagger agrees is one (a capitalised name, a known place). Everything else that passes is asked (B) or queued (C).
 */
function finalTier(candidate: Candidate, clause: OwnerClause, pasted: boolean, long: boolean, typo: boolean, strong: boolean, ownText: string): Tier {
  if (candidate.tier !== 'A') return candidate.tier;
  // A value Engram respelled ("vscode" as VS Code) is Engram's reading, not the owner's words: asked.
  const respellable = ['editor', 'shell', 'os', 'package_manager', 'test_framework', 'languages', 'frameworks'].includes(candidate.key);
  // A name or a place the owner wrote in lower case ("i live in glasgow") is Engram's capital: asked too.
  const properKey = ['name', 'location', 'employer', 'team'].includes(candidate.key);
  const asWritten = properKey ? clause.text.includes(candidate.value) : !respellable || clause.text.toLowerCase().includes(candidate.value.toLowerCase());
  // "I live in Paris, Texas": a place cut before its region is not the place meant, and a name cut before its
  // particle ("Daan de Vries") not the name: asked.
  const cut = (candidate.key === 'location' && candidate.value.includes(', ')) || (candidate.key === 'location' && new RegExp(String.raw`${escapeRegExp(candidate.value)},\s*\p{Lu}`, 'u').test(ownText))
    // "Mary Ann Van Der Berg": a name followed by another capitalised word may be cut short.
    || (candidate.key === 'name' && new RegExp(String.raw`${escapeRegExp(candidate.value)}\s+\p{Lu}`, 'u').test(ownText));
  // "Mrs. Patel" is how someone is addressed, and the owner may not be the one addressed: asked.
  const titled = candidate.key === 'name' && honorific.test(candidate.value.split(' ')[0]);
  const plain = !pasted && !long && !typo && strong && asWritten && !cut && !titled && clause.weaker.length === 0;
  return plain ? 'A' : 'B';
}

/** From one message to the facts it proposes: gates, the owner's own words, their clauses, then the shapes of each key. */
export function captureFacts(role: 'user' | 'assistant', message: string, allowlist: AllowedKeys): CaptureResult {
  // A message that also holds a secret loses the secret, never the owner's plainly stated facts; none of them is
  // confirmed alone, and a guess (tier C: "I'm Marco, and the DB password is…") is not worth keeping a secret's company.
  const secret = containsSecret(message) || message.includes(secretMarker);
  const text = secret ? redactSecrets(message) : message;
  const blocked = closedGate(role, secret ? withoutSecretsOptOut(text) : text);
  if (blocked) return { candidates: [], blocked };
  if (takenBackAtEnd.test(text)) return { candidates: [] };
  if (!secret) return { candidates: readFacts(text, allowlist) };
  // The removed secret stands on a line of its own, as a pasted block does: what the owner says after it ("…:
  // <token> — I'm a DevOps engineer at Wise") is read as their own words again, not as the rest of a lead-in's paste.
  // "<token> is my GitHub token, I use …": what is said of the secret itself goes with it.
  const apart = apartFromSecrets(text);
  const found = takenBackAtEnd.test(text) ? [] : readFacts(apart, allowlist);
  return { candidates: found.filter((candidate) => candidate.tier !== 'C' && !candidate.value.includes(secretMarker)).map((candidate) => ({ ...candidate, tier: 'B' as const })) };
}

/** The facts of a message the gates let through. */
function readFacts(text: string, allowlist: AllowedKeys): Candidate[] {
  const own = ownWords(text);
  // "Mock interview time. I'm the candidate: Hi, I'm Raj": a persona speaks for the rest of the message.
  const persona = rolePlay.exec(own.text);
  // "I'm Tomasz period I use IntelliJ comma…": dictated marks are read as marks, and the reading is Engram's, never plain.
  const dictated = isDictated(own.text);
  const spoken = withSpokenPunctuation(persona ? own.text.slice(0, Math.max(0, own.text.slice(0, persona.index).search(/[^.!?\n]*$/))) : own.text);
  // "mostly pyhton", "vegitarian here": a known name misspelt is read as the name, and the reading is Engram's, never plain.
  const ownText = withNamesRespelled(spoken);
  // "I don't eat meat" is the plain shape of a diet, not a negation of one.
  const long = !!persona || dictated || ownText !== spoken || ownText.trim().length > plainMessageLength || notPlain.test(ownText.replace(/\bi (?:don['’]?t|do not) eat\b/gi, 'i eat')) || notPlainEither.test(ownText)
    // The same in every language capture reads: "früher", "quiero", "si", "kal" weaken a statement as "used to" does.
    || sentencesOf(ownText).some(notStandingInItsLanguage);
  // "Stack: React, Next.js; yarn", "Bio: name …, role …": a list under the owner's heading is read as one (fieldLists.ts).
  const lists = withFieldLists(ownText);
  const candidates: Candidate[] = lists.candidates.filter((candidate) => allowlist.has(candidate.key));
  const framed: Candidate[] = [];
  const workplaces = new Set<string>();
  for (const clause of [...readOwnerClauses(lists.rest), ...frameReadClauses(lists.rest)]) {
    // "I use pnpm in this repo" is about the repository (projectCapture.ts), not a habit of the owner's everywhere.
    if (projectMarker.test(clause.text) && !/^\p{Lu}\p{Ll}+ here$/u.test(clause.text)) continue;
    const { candidates: found, typo } = clauseCandidates(clause);
    for (const { key, value, tier: shapeTier, ...rest } of found) {
      const candidate: Candidate = { key, value, tier: shapeTier };
      if (!allowlist.has(candidate.key) || candidate.value.length > 60) continue;
      const fit = plausibility(candidate.key, candidate.value, clause.words, clause.text, 'framed' in rest);
      if (fit === 'no') continue;
      if ('framed' in rest) framed.push(candidate);
      if ('workplace' in rest) workplaces.add(candidate.value);
      const tier = finalTier(candidate, clause, own.pasted, long, typo, fit === 'strong', ownText);
      const same = candidates.findIndex((c) => c.key === candidate.key && c.value.toLowerCase() === candidate.value.toLowerCase());
      if (same < 0) candidates.push({ ...candidate, tier });
      else if (tier < candidates[same].tier) candidates[same] = { ...candidate, tier };
    }
  }
  // "Beruflich schreibe ich Kotlin", "kotlin + ktor, junit5 for tests": a known tool named in a standing sentence of the
  // owner's, in any language, is a guess where no shape read its key (namedTools.ts).
  // "Pronomen: sie/ihr", "Nome: Beatriz Ornelas", "Editor toh VS Code hi hai": a key's label before its value, in any
  // language, where no shape read that key (labelledFields.ts).
  for (const field of labelledFieldCandidates(persona ? ownText : lists.rest)) {
    const taken = candidates.some((known) => (known.key === field.key && !multiValued.has(field.key)) || known.value.toLowerCase() === field.value.toLowerCase());
    if (allowlist.has(field.key) && !taken) candidates.push(field);
  }
  const aboutTheOwner = candidates.some((known) => !['languages', 'frameworks', 'editor', 'shell', 'os', 'package_manager', 'test_framework'].includes(known.key));
  for (const tool of namedTools(persona ? ownText : lists.rest, aboutTheOwner)) {
    const taken = candidates.some((known) => (known.key === tool.key && !multiValued.has(tool.key)) || known.value.toLowerCase() === tool.value.toLowerCase() || containsWords(known.value, tool.value));
    if (allowlist.has(tool.key) && !taken && !writtenAsLabel(tool.value, ownText)) candidates.push(tool);
  }
  // "I moved from Jest to Vitest": the value named in the retired one's place is proposed, and the retired one is not.
  for (const { retired, candidate } of replacementsIn(ownText)) {
    // "Moved this repo from Jest to Vitest" is the project's (projectCapture.ts), not the owner's.
    if (!allowlist.has(candidate.key) || projectMarker.test(ownText)) continue;
    const kept = candidates.filter((known) => !(known.key === candidate.key && known.value.toLowerCase() === retired.old.toLowerCase()));
    if (!kept.some((known) => known.key === candidate.key && known.value.toLowerCase() === candidate.value.toLowerCase())) kept.push(candidate);
    candidates.splice(0, candidates.length, ...kept);
  }
  // Preferences are read by concept over the owner's whole text (styleConcepts.ts): a free-text value that names a
  // concept gives way to it, and a free-text one is never confirmed alone (its wording is the owner's to settle).
  // A foreign list of preferences is kept in the owner's words (foreignPreferences.ts), in place of the concepts it names.
  const ownWorded = foreignPreferenceList(lists.rest);
  const named = new Set(ownWorded.flatMap((candidate) => conceptsNamedIn(candidate.value)));
  const concepts = [...styleCandidates(lists.rest).filter((concept) => !named.has(concept.value)), ...ownWorded];
  // "I'm Nadia (she/her)": a name said with the owner's pronouns is an introduction, asked about, not a guess.
  // "I'm Hana, devops at Meadowlark": a name said with the owner's role is an introduction too (the first guess only),
  // and so is one said with where they work or their zone, read by a shape ("I'm Tariq, timezone GST").
  const firstGuess = candidates.findIndex((candidate) => candidate.key === 'name' && candidate.tier === 'C');
  if (firstGuess >= 0 && candidates.some((candidate) => candidate.key === 'pronouns' || candidate.key === 'role' || (['timezone', 'employer'].includes(candidate.key) && candidate.tier !== 'C'))) candidates[firstGuess] = { ...candidates[firstGuess], tier: 'B' };
  // A signature is a name, never a tool's ("- Vitest" closing a list).
  for (const project of [...ownProjectCandidates(ownText), ...machineOsCandidates(ownText), ...(persona ? [] : ownSignatureCandidates(text).filter((candidate) => candidate.key !== 'name' || !isKnownToolName(candidate.value))), ...(persona ? [] : claimedFieldCandidates(text))]) {
    if (!candidates.some((candidate) => candidate.key === project.key && candidate.value.toLowerCase() === project.value.toLowerCase())) candidates.push(project);
  }
  // "Trabajo en Madrid pero vivo en Toledo": where the owner works gives way to where they live.
  const lives = candidates.some((candidate) => candidate.key === 'location' && !workplaces.has(candidate.value));
  if (lives) candidates.splice(0, candidates.length, ...candidates.filter((candidate) => candidate.key !== 'location' || !workplaces.has(candidate.value)));
  const styled = withVerblessIntroduction(candidates, ownText)
    .filter((candidate) => candidate.key !== 'style' || !(concepts.length > 0 && namesAConcept(candidate.value)))
    .map((candidate) => (candidate.key === 'style' && candidate.tier === 'A' ? { ...candidate, tier: 'B' as const } : candidate));
  for (const concept of concepts) if (!styled.some((candidate) => candidate.key === 'style' && candidate.value.toLowerCase() === concept.value.toLowerCase())) styled.push(concept);
  return settleConflicts(dropShadowed(withFrames(framed, styled.map((candidate) => (framed.some((frame) => frame.key === candidate.key && frame.value === candidate.value) ? { ...candidate, framed: true } : candidate)))), ownText).map(({ key, value, tier }) => ({ key, value, tier }));
}

/**
 * Facts of one message that cannot all be true: two names ("My name's Bartholomew but everyone calls me Bart"), bash
 * the shell and Bash the language from the same words. The name the owner asks to be called by wins; a single key
 * with two values left is asked about, never confirmed.
 */
function settleConflicts(candidates: Candidate[], ownText: string): Candidate[] {
  let kept = candidates.filter((candidate) => !(candidate.key === 'languages' && candidate.value === 'Bash' && candidates.some((other) => other.key === 'shell' && other.value.toLowerCase() === 'bash')));
  // "No meat for me, I'm vegetarian": the diet's name says it all.
  const notEating = /^(?:no|geen|kein|keine|keinen|não|non|nie|sin|sem|sans|senza|ohne)\s/i;
  if (kept.some((candidate) => candidate.key === 'diet' && !notEating.test(candidate.value))) kept = kept.filter((candidate) => !(candidate.key === 'diet' && notEating.test(candidate.value)));
  // "Sono celiaca, quindi senza glutine": the condition is a reason, the diet is what the owner says they eat.
  const glutenFree = /\b(?:senza glutine|sin gluten|sem gl[úu]ten|sans gluten|glutenfrei|glutenvrij|bezglutenow\p{L}*)\b/iu.exec(ownText);
  if (glutenFree) kept = kept.map((candidate) => (candidate.key === 'diet' && /^(?:c[eo]?l[ií]ac[ao]?|c[oœ]liaque|z[öo]liaki\p{L}*)$/iu.test(candidate.value) ? { ...candidate, value: glutenFree[0] } : candidate));
  // "Quick intro: Dmitri, ML engineer, Kestrel AI, Toronto": of several lone capitalised words guessed to be a name,
  // the first is the introduction; the others are something else (a company, a product).
  const allNames = kept.filter((candidate) => candidate.key === 'name');
  const laterGuesses = allNames.slice(1).filter((candidate) => candidate.tier === 'C');
  if (laterGuesses.length > 0 && allNames.every((candidate) => candidate.tier !== 'A')) kept = kept.filter((candidate) => !laterGuesses.includes(candidate));
  // "Tomás Ferreira / Staff Engineer, Platform": a word read as the owner's team, employer or place is not also their
  // name, when another name is given.
  const otherKeyValue = (candidate: Candidate): boolean =>
    kept.some((other) => ['team', 'employer', 'location'].includes(other.key) && other.value.toLowerCase() === candidate.value.toLowerCase());
  const namedOtherwise = kept.filter((candidate) => candidate.key === 'name' && otherKeyValue(candidate));
  if (namedOtherwise.length > 0 && kept.some((candidate) => candidate.key === 'name' && !otherKeyValue(candidate))) kept = kept.filter((candidate) => !namedOtherwise.includes(candidate));
  const names = kept.filter((candidate) => candidate.key === 'name');
  if (names.length > 1) {
    const calledBy = names.find((candidate) => new RegExp(String.raw`\b(?:calls? me|go by|goes by)\s+${escapeRegExp(candidate.value)}\b`, 'iu').test(ownText));
    if (calledBy) kept = kept.filter((candidate) => candidate.key !== 'name' || candidate === calledBy);
  }
  // "I'm on Pacific time (PST)": a zone said twice is the abbreviation, the name written out is its gloss.
  const abbreviation = /^(?:[A-Z]{2,5}|(?:UTC|GMT)\s?[+−-]\s?\d{1,2}(?::?\d\d)?)$/;
  const zones = kept.filter((candidate) => candidate.key === 'timezone');
  if (zones.length > 1 && zones.some((zone) => abbreviation.test(zone.value))) kept = kept.filter((candidate) => candidate.key !== 'timezone' || abbreviation.test(candidate.value) || candidate.value.includes('/'));
  // "on my Mac": the system is macOS, whichever shape also kept the machine's name.
  if (kept.some((candidate) => candidate.key === 'os' && candidate.value === 'macOS')) kept = kept.filter((candidate) => !(candidate.key === 'os' && /^(?:mac|mac os|os x)$/i.test(candidate.value)));
  // "the new intern": the role is intern, whichever shape kept the "new".
  kept = kept.filter((candidate) => !(candidate.key === 'role' && kept.some((other) => other.key === 'role' && other !== candidate && candidate.value.toLowerCase() === `new ${other.value.toLowerCase()}`)));
  kept = correctedInPlace(kept, ownText);
  const singleKeys = new Map<string, number>();
  for (const candidate of kept) if (candidate.key !== 'languages' && candidate.key !== 'frameworks' && candidate.key !== 'style') singleKeys.set(candidate.key, (singleKeys.get(candidate.key) ?? 0) + 1);
  return kept.map((candidate) => ((singleKeys.get(candidate.key) ?? 0) > 1 && candidate.tier === 'A' ? { ...candidate, tier: 'B' } : candidate));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * One fact per single-valued key and message, unless the owner really gave two: a name and a place read from
 * the same lone word ("I'm Accra") keep the one the tagger believes, and a value inside a longer one of the same
 * key ("Arch" in "Arch Linux") is dropped.
 */
function dropShadowed(candidates: Candidate[]): Candidate[] {
  // "I'm a .NET developer": .NET is the platform of the role, not a framework the owner chose beside it.
  const platformOfRole = (candidate: Candidate): boolean =>
    candidate.key === 'frameworks' && candidate.value === '.NET' && candidates.some((other) => other.key === 'role' && /^\.NET\s/i.test(other.value));
  return candidates.filter(
    (candidate) =>
      !platformOfRole(candidate) &&
      !candidates.some(
        (other) =>
          other !== candidate &&
          other.key === candidate.key &&
          other.value.length > candidate.value.length &&
          (other.value.toLowerCase().startsWith(`${candidate.value.toLowerCase()} `) || other.value.toLowerCase().startsWith(`${candidate.value.toLowerCase()}, `)),
      ),
  );
}
