import { findKnown, knownEditors, knownFrameworks, knownLanguages, knownOperatingSystems, knownShells, notNames } from './knownNames';
import { roleNouns } from './slotPatterns';
import { lexiconTag, type Word } from './wordTagger';

/**
 * Whether a value a shape found is a value of its key at all, by what the NLP library's lexicon and tagger say
 * about its words: "I joined a hiking group" has no employer ("A"), "I live in fear" no location, "I'm Done"
 * no name. `strong`: the value is plainly one (a capitalised name, a known place) and may be confirmed;
 * `weak`: possible, for the owner to settle; `no`: not a value.
 */
export type Plausibility = 'strong' | 'weak' | 'no';

const closedClass = new Set(['Determiner', 'Pronoun', 'Preposition', 'Conjunction', 'Adverb', 'Possessive', 'QuestionWord', 'Modal', 'Auxiliary', 'Copula', 'Negative', 'Expression', 'Value', 'Cardinal', 'TextValue', 'Date', 'Duration', 'Ordinal']);
const nameTags = new Set(['FirstName', 'MaleName', 'FemaleName', 'LastName', 'Person', 'Honorific']);
const placeTags = new Set(['Place', 'City', 'Country', 'Region', 'Province', 'Town', 'Address']);
const notEntities = new Set(['a', 'an', 'the', 'my', 'our', 'their', 'his', 'her', 'its', 'it', 'this', 'that', 'all', 'some', 'one', 'least', 'most', 'first', 'last']);
/** The words a form or a template puts where a real name goes ("Company X", "XYZ", "First Last", "John Doe"). */
const placeholderEmployer = /^(?:(?:company|corp|org|organi[sz]ation|employer|client|vendor) [A-Z]|x+|xyz|abc|example(?: (?:inc|corp|ltd|co))?|(?:my|your|the) company|company name)$/i;
const placeholderName = /^(?:first last|firstname lastname|first name last name|your name|name surname|john doe|jane doe|john smith|jane smith|foo bar)$/i;
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const teamSides = new Set(['same', 'other', 'winning', 'losing', 'wrong', 'right', 'whole', 'entire', 'opposing', 'rival', 'home', 'away', 'best', 'worst', 'dream', 'b', 'a', 'second', 'first', 'new', 'old', 'former', 'previous', 'next', 'bigger', 'smaller']);
/** "I work at home", "I'm at university": a kind of place, unless it opens a name written with capitals ("Home Depot", "University of Oslo"). */
const placeKinds = new Set(['home', 'work', 'night', 'day', 'office', 'school', 'uni', 'university', 'college', 'bottom', 'top', 'heart', 'peace']);
/** Programs people say they "live in" ("Sure, I live in Excel now", "writing C# in Unity"): never a place, framed or not. */
const programsNotPlaces = [...knownEditors, ...knownShells, 'Excel', 'Google Sheets', 'Slack', 'Jira', 'Confluence', 'Notion', 'Figma', 'Outlook', 'Microsoft Teams', 'Unity', 'Unreal Engine', 'Unreal', 'Blender', 'Photoshop', 'Postman', 'tmux', 'Jupyter', 'Discord', 'GitHub', 'Stack Overflow', 'Kubernetes', 'Docker'];
const toolNames = [...knownEditors, ...knownShells, ...knownOperatingSystems, ...knownLanguages, ...knownFrameworks, 'Stack Overflow', 'GitHub', 'Slack', 'Discord', 'Jira', 'Ollama', 'Copilot', 'ChatGPT', 'Docker'];

const titleLast = new RegExp(String.raw`\s${roleNouns}$`, 'i');

/** "Vim, a village in the Netherlands", "Scala, near Amalfi": the words after a name say it is a place. */
function placeAppositive(value: string, text: string): boolean {
  const at = text.toLowerCase().indexOf(value.toLowerCase());
  return at >= 0 && /^,?\s+(?:(?:an?|the)\s+(?:small\s+|little\s+|tiny\s+)?(?:village|town|city|island|region|county|province|state|country|suburb|hamlet)\b|(?:near|outside|in)\s+\p{Lu})/u.test(text.slice(at + value.length));
}

/** Whether the value is written with a capital in the owner's words (not just at the start of a sentence). */
function capitalisedIn(value: string, words: readonly Word[], text: string): boolean {
  const first = value.split(/\s+/)[0];
  const written = words.find((word) => word.text.replace(/[^\p{L}\p{N}&.'’-]/gu, '') === first || word.text.toLowerCase() === first.toLowerCase());
  if (written) return /^\p{Lu}/u.test(written.text);
  const at = text.toLowerCase().indexOf(first.toLowerCase());
  return at >= 0 && /^\p{Lu}/u.test(text.slice(at));
}

function tagsOf(value: string, words: readonly Word[]): Set<string> {
  const first = value.split(/\s+/)[0].toLowerCase();
  const word = words.find((candidate) => candidate.text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '') === first.replace(/[^\p{L}\p{N}]/gu, ''));
  const tags = new Set(word?.tags ?? []);
  const lexicon = lexiconTag(value) ?? lexiconTag(first);
  if (lexicon) tags.add(lexicon);
  return tags;
}

function isCommonWord(value: string): boolean {
  const first = value.split(/\s+/)[0].toLowerCase();
  const tag = lexiconTag(first);
  return !!tag && !nameTags.has(tag) && !placeTags.has(tag) && tag !== 'Organization' && tag !== 'Company';
}

/**
 * `text` is the clause as the owner wrote it (for capitalisation), `words` its tagged words when English. `framed`: the
 * words around the value named its key ("I work at Emacs Analytics"), so a tool's or a language's name in it is no
 * reason to doubt it: the lists of names decide between keys only where no frame named one.
 */
export function plausibility(key: string, value: string, words: readonly Word[], text: string, framed = false): Plausibility {
  const knownTool = (): boolean => !framed && findKnown(value, toolNames).length > 0;
  const lower = value.toLowerCase();
  const first = lower.split(/\s+/)[0];
  if (key === 'name') {
    if (placeholderName.test(value)) return 'no';
    // "SRE", "QA": an acronym is a title, not what to call someone.
    if (/^\p{Lu}{2,}$/u.test(value)) return 'no';
    if (notNames.has(lower) || notNames.has(first) || knownTool()) return 'no';
    // "Google SRE here", "Stripe engineer here": a title after a word is a job, not a name.
    if (!framed && /\s/.test(value) && titleLast.test(value)) return 'no';
    const tags = tagsOf(value, words);
    if ([...tags].some((tag) => closedClass.has(tag))) return 'no';
    const place = [...tags].some((tag) => placeTags.has(tag));
    // "My name is Ada Park": the frame says it is a name, so a place's shape in it only makes it the owner's to settle.
    if (place) return framed && capitalisedIn(value, words, text) ? 'weak' : 'no';
    const known = [...tags].some((tag) => nameTags.has(tag));
    // "My name is Crazy": a word the tagger reads as a quality is no name, unless a frame says it is (then it is asked).
    if (!known && ['Adjective', 'Comparable', 'Superlative'].some((tag) => tags.has(tag))) return framed && capitalisedIn(value, words, text) ? 'weak' : 'no';
    const capital = capitalisedIn(value, words, text);
    // A capitalised noun may be a name ("Maya"); a common word of another kind ("Done", "Crazy") is not.
    const nounLike = /^(?:Noun|Singular|Uncountable|ProperNoun)$/.test(lexiconTag(first) ?? '');
    if (!known && isCommonWord(value) && !(capital && (nounLike || framed))) return 'no';
    return capital && (known || !isCommonWord(value)) ? 'strong' : 'weak';
  }
  if (key === 'employer' || key === 'location' || key === 'team') {
    if (notEntities.has(first) || (knownTool() && key !== 'team')) return 'no';
    if (placeKinds.has(first) && !(/\s/.test(value) && capitalisedIn(value, words, text) && /\s\p{Lu}/u.test(value))) return 'no';
    if (key === 'location' && findKnown(value, programsNotPlaces).length > 0 && !placeAppositive(value, text)) return 'no';
    const tags = tagsOf(value, words);
    if ([...tags].some((tag) => closedClass.has(tag))) return 'no';
    const capital = capitalisedIn(value, words, text);
    if (!capital && isCommonWord(value) && key !== 'team') return 'no';
    // "My team is great", "my team is the best": a team's quality, not its name ("the mobile team" names one).
    const namedTeam = text.toLowerCase().includes(`${lower} team`) || text.toLowerCase().includes(`${lower} squad`);
    // "My team is hiring", "my team is growing": what the team does, not what it is called.
    if (key === 'team' && !capital && !namedTeam && /^(?:Adjective|Comparable|Superlative|Gerund|Verb|PresentTense|PastTense|Participle|Infinitive)$/.test(lexiconTag(first) ?? '')) return 'no';
    if (key === 'employer' && placeholderEmployer.test(value)) return 'no';
    // "I work for the Empire", "for the BBC": a name after an article may be an institution or a figure of speech.
    if (key === 'employer' && new RegExp(String.raw`\bthe\s+${escapeRegExp(value)}`, 'i').test(text)) return 'weak';
    if (key === 'location') return [...tags].some((tag) => placeTags.has(tag)) ? 'strong' : 'weak';
    if (key === 'employer' && [...tags].some((tag) => placeTags.has(tag))) return 'weak';
    // "I'm on the same team", "the other team", "the winning team": which side, not a team's name.
    if (key === 'team' && !capital && teamSides.has(first)) return 'no';
    // A team written in lower case and not called "the … team" ("my team is platform") is the owner's to settle.
    return capital || (key === 'team' && namedTeam) ? 'strong' : 'weak';
  }
  // "package manager: pnpm", "my password manager": a tool's kind, not a job.
  // "I'm the new maintainer": a part in a project, not a job.
  if (key === 'role' && /^(?:(?:new|current|sole|lead|main|project|core|co-?)\s*)?maintainer$/i.test(value)) return 'no';
  if (key === 'role' && /\b(?:package|password|window|file|task|process|version|secrets?|session|plugin|dependency|display|download|boot|clipboard|tab) manager$/i.test(value)) return 'no';
  return 'strong';
}
