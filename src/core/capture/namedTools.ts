import type { Candidate } from './candidate';
import { toolsIn } from './passingShapes';
import { projectMarker } from './projectCapture';
import { lexiconTag } from './wordTagger';
import { holdsMarker, languageOf, markerPattern, markersOf, notStanding, sentencesOf } from './standingMarkers';

/** Names on the lists that are libraries, build tools or parts of a system rather than a key's value, or words first. */
const notOnTheirOwn = new Set([
  'pandas', 'NumPy', 'Prisma', 'SQLAlchemy', 'Pydantic', 'Redux', 'Vuex', 'Pinia', 'Tailwind', 'Bootstrap', 'jQuery', 'tRPC', 'RxJS',
  'Zod', 'Mongoose', 'Drizzle', 'TypeORM', 'Sequelize', 'GraphQL', 'Node.js', 'Deno', 'Hugging Face', 'Keras', 'scikit-learn', 'Polars',
  'Celery', 'Airflow', 'dbt', 'LangChain', 'D3', 'Three.js', 'Chakra UI', 'shadcn/ui', 'Hibernate', 'Entity Framework', 'Riverpod',
  'Streamlit', 'Solid', 'Rocket', 'Ember', 'Next', 'Express', 'WSL', 'WSL2', 'Alpine', 'Gradle', 'Maven', 'NuGet', 'Conan', 'vcpkg',
  'SQL', 'Bash', 'TS', 'JS', 'V', 'R', 'C', 'Assembly', 'Linux', 'unittest', 'doctest', 'Hypothesis', 'Testing Library', 'Selenium',
  'Karma', 'Espresso', 'Detox', 'Ginkgo', 'Cursor', 'Fleet', 'Eclipse', 'nano', 'Rider', 'Scheme', 'Pascal', 'Ada', 'Crystal', 'Elm',
]);

/** A name written as a command, a path, a file or a package ("npm install", "jest.config.js", "@vue/cli") is not the owner's saying. */
function writtenAsCode(sentence: string, value: string): boolean {
  const at = sentence.toLowerCase().indexOf(value.toLowerCase());
  if (at < 0) return false;
  const after = sentence.slice(at + value.length);
  const before = sentence.slice(0, at);
  return /^(?:\s+(?:install|add|run|i|x|init|exec|ci|dev|build|test|start|--?\w)\b|[./@:=]\w|\s*\()/i.test(after) || /[/@.=`$>]$|--$/.test(before);
}

/**
 * A name that is part of something else's: a thing of the tool's ("the npm scope", "npm audit", "the Java snippet"), a
 * proper name it opens ("Helix Bio", "Kotlin Island", "Ruby Castellanos"), the packages of a language ("paquets
 * Python"), a purpose or a place ("a queue for Python", "at Hugging Face"), or fish on a plate.
 */
function partOfSomethingElse(sentence: string, value: string, message: string): boolean {
  const at = sentence.toLowerCase().indexOf(value.toLowerCase());
  if (at < 0) return false;
  const after = sentence.slice(at + value.length);
  const before = sentence.slice(0, at);
  if (/^['’]?s?\s+(?:scope|audit|package|packages|module|modules|registry|workspaces?|plugins?|extensions?|config|lockfile|scripts?|snippets?|code|files?|docs|sdk|api|app|project|version|server|runner|image|container|kernel|tutorial|book|course|errors?|bugs?|issues?|habits?|fork|sandbox|completion|community|conference|meetup|job|jobs|role|position|team|window|terminal|tab|session|developers?|devs?|engineers?|people|folks)\b/iu.test(after)) return true;
  if (/^\s+\p{Lu}\p{Ll}/u.test(after) && toolsIn(after.trim().split(/\s+/)[0]).length === 0) return true;
  if (/(?:packages|paquets|pacchetti|paquetes|pacotes|pakiety|pakete|pakketten|deps|dependencies|libs|libraries|bindings)\s+$/iu.test(before)) return true;
  if (/\b(?:for|at|from|@)\s+(?:the\s+)?$/iu.test(before)) return true;
  // "Soy Vim", "I'm Julia": a name said of the owner is their name, never their tool.
  if (/(?:^|\s)(?:i['’]?m|i am|soy|sou|sono|je suis|ich bin|ik ben|jestem|ako si|ako ay)\s+$/iu.test(before)) return true;
  // "our consumers are all in Java", "a small CLI in Go": the language of a thing, not of the owner.
  if (/\b(?:our|the|this|that|their|its|his|her)\s+(?:[\p{L}-]+\s+){1,3}(?:is|are|was|were)\s+(?:all\s+|mostly\s+|entirely\s+|written\s+|built\s+)*(?:in|on|with)\s+$/iu.test(before)) return true;
  if (/\b(?:a|an|the|this|that)\s+(?:[\p{L}-]+\s+){0,2}(?:cli|tool|app|library|lib|service|script|bot|api|server|game|plugin|extension|package|crate|module|snippet|example)\s+(?:in|on|with|using|written in|built (?:on|with))\s+$/iu.test(before)) return true;
  // "Preferisco … niente punti e virgola in JavaScript": the language a preference is scoped to.
  if (/(?:^|\s)(?:in|en|em|im|w|dans|op)\s+$/iu.test(before) && /\b(?:prefer|prefers|preferisco|prefiero|prefiro|préfère|bevorzuge|liever|wolę|tercih)/iu.test(sentence)) return true;
  return value === 'fish' && /\b(?:eat|eats|eating|meat|food|recipes?|pescatarian|menu|lunch|dinner|sushi|vegetarian|chips)\b/iu.test(message);
}

/** A name that is also an English word counts only as the lists write it ("Spring", never "in the spring"), but for the lower-case tools. */
function writtenAsItsName(sentence: string, tool: Candidate): boolean {
  if (tool.key === 'shell' || tool.key === 'package_manager' || !/^\p{Lu}/u.test(tool.value)) return true;
  return sentence.includes(tool.value) || lexiconTag(tool.value.toLowerCase()) === undefined;
}

const quoted = /(?<![\p{L}])['‘][^\n]{3,}?['’](?![\p{L}])|["“][^"”\n]*["”]|«[^»\n]*»/gu;
const requestOpening = /^\W*(?:write|make|create|generate|give|show|draft|build|add|convert|translate|list|compare|explain|describe|design|pretend|act)\b/i;

/** The known tools a sentence of the owner's names as standing, each under its key, tier C. */
function standingTools(written: string, message: string): { tools: Candidate[]; mine: boolean } {
  const none = { tools: [], mine: false };
  // "My teammate's setup": a possessive is its word's.
  const sentence = written.replace(/['’]s\b/gu, '');
  // "Write a dialogue where…", "Make a quiz…": a request opening the sentence is the task, not the owner.
  if (notStanding(sentence) || projectMarker.test(sentence) || requestOpening.test(sentence)) return none;
  const markers = markersOf(languageOf(sentence));
  // "Vitest over Jest", "zsh statt bash": the names after the turn are the ones not chosen.
  let chosen = sentence;
  for (const marker of markers) {
    const turn = markerPattern(marker.notChosen).exec(chosen);
    if (turn) chosen = chosen.slice(0, turn.index);
  }
  const mine = markers.some((marker) => holdsMarker(marker.me, chosen));
  // "We're a Rails shop", "nos usamos Jest": what the team or the company uses is theirs (projectCapture.ts), not the owner's.
  if (!mine && markers.some((marker) => holdsMarker(marker.we, chosen))) return none;
  const tools = toolsIn(chosen)
    .filter((tool) => !notOnTheirOwn.has(tool.value) && !writtenAsCode(chosen, tool.value) && !partOfSomethingElse(chosen, tool.value, message) && writtenAsItsName(chosen, tool))
    // "Go ahead and…": a sentence's first word "Go" is the verb.
    .filter((tool) => !(tool.value === 'Go' && /^\W*go\b/i.test(chosen)))
    .map((tool) => ({ ...tool, tier: 'C' as const }));
  return { tools, mine };
}

/**
 * Tools the owner names in a sentence of their own, in any language: "Beruflich schreibe ich hauptsächlich Kotlin und
 * ein bisschen Go", "kotlin + ktor, junit5 for tests", "Yung editor ko ay Sublime Text, tapos Linux Mint yung OS". A
 * known tool's name is the same word in every language, so the name says the key wherever no frame read the sentence.
 * Only a sentence that states something standing counts: none that asks, denies, looks back or ahead, supposes, wishes,
 * tries, speaks of someone else or asks for something, in the words its language's data lists (frames/standing.json).
 * What this reads is a guess (tier C), queued for the owner, never confirmed.
 *
 * `aboutTheOwner` says the message's shapes found a fact of the owner's already.
 */
export function namedTools(ownText: string, aboutTheOwner: boolean): Candidate[] {
  // "…where the input is 'I'm Bob and I use vim'": quoted words are someone else's.
  const read = sentencesOf(ownText.replace(quoted, ' ')).map((sentence) => standingTools(sentence, ownText));
  // "Let's set up this Flutter project", "The API is built on NestJS": a sentence that is not the owner's ("I use",
  // "uso", "ich nutze") names tools of theirs only inside a message that says who they are or names their own tools.
  const owned = aboutTheOwner || read.some((one) => one.mine && one.tools.length > 0);
  const found: Candidate[] = [];
  for (const one of read) {
    for (const tool of one.tools) {
      if (!one.mine && !owned) continue;
      if (!found.some((known) => known.key === tool.key && known.value === tool.value)) found.push(tool);
    }
  }
  return found;
}
