import { compiled } from './compiledPatterns';
import {
  caseSensitiveLanguages,
  findKnown,
  knownDiets,
  knownEditors,
  knownFrameworks,
  knownLanguages,
  knownOperatingSystems,
  knownPackageManagers,
  knownShells,
  knownTestFrameworks,
} from './knownNames';
import type { Candidate } from './candidate';
import { timezoneIn } from './timezones';

/**
 * Facts said in passing, in the owner's own first-person clause: "I'm on zsh on a Mac", "I do React Native at work",
 * "my Vue 3 app", "I'm a vim guy", "I'm in UTC+2", "I only eat halal". Only known names are taken (an unknown word in
 * the same shape is not guessed at), and none of these is confirmed without the owner: every one is tier B.
 */
const toolKeys: readonly (readonly [string, readonly string[]])[] = [
  ['editor', knownEditors],
  ['shell', knownShells],
  ['os', knownOperatingSystems],
  ['package_manager', knownPackageManagers],
  ['test_framework', knownTestFrameworks],
  ['frameworks', knownFrameworks],
];

function match(text: string, pattern: string): RegExpExecArray | null {
  return compiled(pattern, 'iu').exec(text);
}

/**
 * The object of a verb, up to where the clause turns to something else: "FastAPI" in "I use FastAPI and after
 * upgrading pydantic…", "Django with DRF" in "I'm building this on Django with DRF — what's…".
 */
export function objectPhrase(text: string): string {
  const clause = text
    .split(/\s+(?:and (?:after|when|then|now|it|i|my|the|this|that|they|we)|after|when|because|since|but|so|which|where|while|until|if|then|to|that|though|although|instead|rather than|except|even|unlike|vs\.?|versus|not|never)\b/i)[0]
    // "VS Code with the vim plugin": the plugin is not the editor.
    .replace(/\b[\p{L}.+#-]+ (?:extension|plugin|plugins|keybindings?|bindings|mode|emulation|keymap|theme|package)\b/giu, ' ');
  // A list goes on after a comma or "and"; a part that says something happened is the clause turning elsewhere
  // ("I'm on macOS Sonoma, brew broke after the update", "I'm using a VPN and npm install times out").
  const parts = clause.split(/\s*,\s*|\s+and\s+/);
  const kept: string[] = [];
  for (const part of parts) {
    if (kept.length > 0 && eventWords.test(part)) break;
    kept.push(part);
  }
  return kept.join(', ');
}

const eventWords =
  /\b(?:broke|breaks|broken|is|are|was|were|keeps|kept|fails?|failed|failing|does|doesn't|doesnt|won't|wont|can't|cant|cannot|isn't|aren't|works|crash(?:es|ed)?|says|said|shows|gives|throws|hangs|has|have|had|got|gets|times out|timed out|errors?|complains|stopped|stops|runs|ran|loads|returns)\b/i;

/** The known tools named in some words, each under its key; a language only as written ("Go", not "go"). */
export function toolsIn(words: string, keys: ReadonlySet<string> | undefined = undefined): Candidate[] {
  const found: Candidate[] = [];
  for (const [key, names] of toolKeys) {
    if (keys && !keys.has(key)) continue;
    for (const value of new Set(findKnown(words, names))) found.push({ key, value, tier: 'B' });
  }
  if (!keys || keys.has('languages')) {
    for (const value of new Set(findKnown(words, knownLanguages, caseSensitiveLanguages))) {
      // "bash" is the shell when a shell is what the clause names ("a bash person").
      if (value === 'Bash' && found.some((candidate) => candidate.key === 'shell')) continue;
      found.push({ key: 'languages', value, tier: 'B' });
    }
    // "rust + tokio", "rust n axum": in lower case, a language that is also a word counts beside a known name it is
    // listed with (never "go" or a single letter, which are words first).
    for (const pair of words.matchAll(/(?<![\p{L}])(rust|dart|swift|julia|elm|crystal|nim)\s*(?:\+|&|\/|\bn\b|\band\b)\s*([\p{L}.#-]+)/giu)) {
      const value = pair[1][0].toUpperCase() + pair[1].slice(1).toLowerCase();
      // A plus joins names of tools only ("rust + tokio"); "and" needs a known name on its other side.
      const beside = /\+/.test(pair[0]) || findKnown(pair[2], toolKeys.flatMap(([, names]) => names)).length > 0 || findKnown(pair[2], knownLanguages).length > 0;
      if (beside && !found.some((candidate) => candidate.key === 'languages' && candidate.value === value)) found.push({ key: 'languages', value, tier: 'B' });
    }
  }
  return found;
}

/** Verbs of using a tool, after which every known tool of the object counts. */
const usesTool = String.raw`^(?:i am (?:on|in|using|running|stuck on|sticking with|mostly in|mostly on|all[- ]in on|building (?:this|it|[\p{L}-]+(?: [\p{L}-]+)?) (?:on|with|in))|i (?:use|run|daily[- ]drive|live in|do (?:everything|most things|most of my work|all my [\p{L}]+) in|work (?:in|on|with)|code (?:in|on|with)|write|program in|develop (?:in|on|with)|build (?:[\p{L}-]+ ){0,2}(?:with|on|in|using)|manage (?:my )?(?:deps|dependencies|packages|environments) with|test (?:[\p{L}-]+ ){0,3}(?:with|in|using)|do|mostly (?:use|do|write|work in|work with|code in)|switched (?:everything )?to|moved (?:everything )?to|(?:switched|migrated|went)(?: over| back)?(?: everything)? from [^,]{1,30}? to|(?:dropped|ditched|replaced|swapped) [^,]{1,30}? (?:for|with))|mostly i am (?:in|on)|running|on)\s+(.+)$`;
/** "I'm a vim guy", "I'm a Svelte person through and through", "I'm a Go developer". */
const personShape = String.raw`^i am (?:an?|the) (?:(?:big|huge|total|die-?hard|diehard|lifelong|proud|longtime|long-time) )?((?:[\p{L}.+#/-]+ ){0,2}?[\p{L}.+#/-]+) (?:person|guy|girl|gal|user|fan|dev|developer|engineer|programmer|shop|nerd|enthusiast|main|loyalist)\b`;
/** "my Vue 3 app", "my flutter app", "my Laravel stuff". */
const ownProject = String.raw`\bmy (?:own |little |side |new |current |main |work )?((?:[\p{L}.+#/-]+ ){0,1}[\p{L}.+#/-]+)(?: \d+(?:\.\d+)*)? (?:app|apps|project|projects|site|website|backend|frontend|api|service|services|codebase|monorepo|component|components|game|bot|stuff|code|setup|pipeline|cluster|sites)\b`;
const stackLine = String.raw`^(?:my )?(?:tech |usual |current |daily )?(?:stack|setup|toolchain|tools)(?: is| are)?[:\s]\s*(.+)$`;
const nicknames: Record<string, string> = { rubyist: 'Ruby', pythonista: 'Python', rustacean: 'Rust', gopher: 'Go', haskeller: 'Haskell', clojurian: 'Clojure', rustafarian: 'Rust' };

/** What shows "I'm on/in X" is about a page, a plan or a session in X, not the owner's tool. */
const insideSomething = /\b(?:docs?|documentation|page|site|website|subreddit|forum|tutorial|course|plan|tier|branch|step|file|session|channel|book|chapter|video|server|container|vm|repo|repository|folder|directory|tab|window|version|release|line|issue|thread|call|meeting|discord|slack)\b/i;

/**
 * "I'm on zsh on a Mac", "I'm in Zed these days": the tool opens the object. "I'm on the React page of the docs",
 * "I'm in a bash session", "I'm in the zsh completion file" are about where the owner is, not what they use.
 */
function placedTools(object: string): Candidate[] {
  const phrase = objectPhrase(object);
  // "I'm on a MacBook", "on my Mac": the machine names its system.
  const machine = /^(?:a|my|an)\s+(?:(?:new|old|work|personal)\s+)?(mac|macbook(?:\s+(?:pro|air))?|imac|mac\s+(?:mini|studio))\b/i.exec(phrase);
  if (machine) return toolsIn('macOS', new Set(['os']));
  if (/^(?:the|a|an|this|that|my|our|their|his|her|step|page|version|line)\b/i.test(phrase) || insideSomething.test(phrase) || /['’]s\b/.test(phrase)) return [];
  const found = toolsIn(phrase);
  const opening = phrase.toLowerCase();
  return found.filter((candidate, i) => i > 0 || opening.startsWith(candidate.value.toLowerCase()) || found.some((other) => opening.startsWith(other.value.toLowerCase())));
}

function tools(text: string): Candidate[] {
  // "I test my Laravel stuff with Pest": what is tested names a framework too.
  const tests = match(text, String.raw`^i test (.+)$`);
  if (tests) return toolsIn(objectPhrase(tests[1]));
  const what = match(text, String.raw`^(?:most of |much of |all of )?what i (?:write|use|run|work (?:in|with)) is (.+)$`);
  if (what) return toolsIn(objectPhrase(what[1]));
  const machine = match(text, String.raw`^(?:i am )?on my [\p{L}\d -]{1,30}? (?:with|running) (.+)$`);
  if (machine) return toolsIn(objectPhrase(machine[1]), new Set(['os', 'shell', 'editor']));
  const between = match(text, String.raw`^i (?:bounce|switch|alternate|go back and forth|flip) between (.+)$`);
  if (between) return toolsIn(objectPhrase(between[1]));
  // "I'm firmly Team Playwright"
  const teamTool = match(text, String.raw`^i am (?:firmly |totally |definitely |always |very much )?team ([\p{L}.+#-]+(?: [\p{L}.+#-]+)?)`);
  if (teamTool) return toolsIn(teamTool[1]);
  // "My Python projects are all poetry": the projects' language and the tool they are all on.
  const projects = match(text, String.raw`^my ([\p{L}.+#/ -]{1,25}?) (?:projects|apps|services|repos|code|stuff) (?:are|is) (?:all |mostly |always )?(?:on |in |with )?(.+)$`);
  if (projects) return toolsIn(`${projects[1]}, ${objectPhrase(projects[2])}`);
  const dayJob = match(text, String.raw`^(?:my )?(?:day job|daily work|work) is (?:all |mostly )?(.+)$`);
  if (dayJob) return toolsIn(objectPhrase(dayJob[1]));
  const mostly = match(text, String.raw`^i am (?:mostly|mainly) ([\p{L}.+#/ -]{1,30})$`);
  if (mostly) return toolsIn(mostly[1]);
  // "IntelliJ is my daily driver", "FastAPI + SQLAlchemy is my default", "webstorm is where i actually work".
  const mine = match(text, String.raw`^(.{1,40}?) (?:is|are) (?:my (?:daily driver|default|go-to|main|bread and butter|usual|weapon of choice|everything|jam|home|(?:whole |usual |go-to |default )?(?:stack|setup|toolchain))|what i (?:use|build|write|work|code|run)|where i (?:actually )?(?:work|code|live))\b`);
  if (mine) return toolsIn(mine[1]);
  const myTool = match(text, String.raw`^(?:my )?(?:default |main |daily )?(?:editor|shell|os|operating system|terminal|machine|laptop|ide)(?:'s| is| are) (?:an? )?(.+)$`);
  if (myTool) return toolsIn(objectPhrase(myTool[1]));
  // "i am Swift only", "i am Kotlin all day", "i am conda for everything", "i am JUnit 5 all the way", "i am Fedora on my work laptop".
  const always = match(text, String.raw`^i am ([\p{L}.+#/ \d-]{1,30}?) (?:only|all day|all the way|for everything|forever|everywhere|on my (?:work |home |own )?(?:laptop|machine|desktop|computer|box))\b`);
  if (always) return toolsIn(always[1]);
  // "i am a mobile dev writing Kotlin and Swift", "an indie dev building Flutter apps in Dart": the work names the tools.
  const working = match(text, String.raw`^i am (?:an? |the )?[\p{L} -]{1,40}? (?:writing|building|shipping|using|coding in|working (?:with|in)|doing)\s+(.+)$`);
  if (working) return toolsIn(objectPhrase(working[1]));
  // "i am uv for packages, pytest for tests": a tool and the job it does for the owner.
  const forJob = match(text, String.raw`^i am ([\p{L}.+#/ \d-]{1,25}?) for (?:my |all my )?(?:packages|package management|deps|dependencies|tests|testing|unit tests|editing|formatting|linting|the shell|shell|everything|envs|environments)\b`);
  if (forJob) return toolsIn(forJob[1]);
  // "…, it's all Kotlin these days": what the owner uses now, after what they no longer do.
  const nowAll = match(text, String.raw`^it(?:'?s| is) (?:all|mostly|only|just) ([\p{L}.+#/ -]{1,30}?) (?:these days|now|nowadays)$`);
  if (nowAll) return toolsIn(nowAll[1]);
  const bare = match(text, String.raw`^i am ([\p{L}.+#/-]+(?: [\p{L}.+#/-]+)?) (?:user|person|fan|guy|girl|main)\b`);
  if (bare) return toolsIn(bare[1]);
  const onOrIn = match(text, String.raw`^i am (?:on|in|at|using|running)\s+(.+)$`);
  if (onOrIn) return placedTools(onOrIn[1]);
  // "Moved from Jest to Vitest": a move between tools (a move between towns is a place's).
  const toolMove = match(text, String.raw`^i (?:moved|went)(?: over| back)? from (.{1,30}?) to (.+)$`);
  if (toolMove && toolsIn(toolMove[1]).length > 0) return toolsIn(objectPhrase(toolMove[2]));
  const use = match(text, usesTool);
  if (use) return toolsIn(objectPhrase(use[1]));
  const person = match(text, personShape);
  if (person) return toolsIn(person[1]);
  const stack = match(text, stackLine);
  if (stack) return toolsIn(stack[1]);
  const nickname = match(text, String.raw`^i am (?:an? )?(rubyist|pythonista|rustacean|gopher|haskeller|clojurian|rustafarian)\b`);
  if (nickname) return [{ key: 'languages', value: nicknames[nickname[1].toLowerCase()], tier: 'B' }];
  const project = match(text, ownProject);
  if (project) return toolsIn(project[1], new Set(['frameworks', 'languages']));
  return [];
}

function timezone(text: string): Candidate[] {
  // "i am in Lagos, on WAT": a zone in the list after the owner's own clause.
  const listed = compiled(String.raw`^i\b.*,\s*(?:on|in)\s+((?:UTC|GMT)\s?[+-−]\s?\d{1,2}(?::\d{2})?|[A-Z]{2,5}|\p{Lu}[\p{L}]+\/[\p{L}_]+)$`, 'u').exec(text);
  const stated = match(text, String.raw`^i am (?:on |in |at )?((?:UTC|GMT)\s?[+-−]\s?\d{1,2}(?::\d{2})?|[\p{L}/_]+(?: (?:standard )?time)?)(?=$|[\s,.;!?)])`) ?? listed;
  const value = stated ? timezoneIn(stated[1]) : undefined;
  return value ? [{ key: 'timezone', value, tier: 'B' }] : [];
}

function diet(text: string): Candidate[] {
  const eats = match(text, String.raw`^i (?:only |strictly )?(?:eat|keep) (halal|kosher|vegan|vegetarian|plant-based|gluten-free)\b`);
  if (eats) return [{ key: 'diet', value: eats[1].toLowerCase(), tier: 'B' }];
  const onDiet = match(text, String.raw`^i am (?:doing|on|following) (?:a |the )?(keto|paleo|vegan|low-carb|gluten-free|plant-based)\b`);
  if (onDiet) return [{ key: 'diet', value: onDiet[1].toLowerCase(), tier: 'B' }];
  const none = match(text, String.raw`^no (meat|fish|dairy|pork|gluten|eggs|beef) for me\b`);
  if (none) return [{ key: 'diet', value: `no ${none[1].toLowerCase()}`, tier: 'B' }];
  if (match(text, String.raw`^i am (?:a )?(?:coeliac|celiac)\b`)) return [{ key: 'diet', value: 'gluten-free', tier: 'B' }];
  const strict = match(text, String.raw`^i am (?:strictly |fully |mostly )?(\p{L}[\p{L}-]*)(?: now| these days| since \p{L}+)?$`);
  const known = strict ? knownDiets.find((name) => name === strict[1].toLowerCase()) : undefined;
  return known ? [{ key: 'diet', value: known === 'pescetarian' ? 'pescatarian' : known, tier: 'B' }] : [];
}

/** Every fact one clause says in passing (tier B), for the keys whose values are known names, times or diets. */
export function passingCandidates(text: string): Candidate[] {
  // "As a data scientist I live in conda envs": the role is read elsewhere; what follows is the owner's clause.
  const clause = text.replace(/^as an? [\p{L} -]{1,40}?,?\s+(?=i\b)/iu, '');
  return [...tools(clause), ...timezone(clause), ...diet(clause)];
}

/**
 * "how do i cache api responses in my flutter app": a project of the owner's named by its framework, said anywhere in
 * the owner's own words, questions included (the question is about the app, the app is the owner's).
 */
export function ownProjectCandidates(ownText: string): Candidate[] {
  const found: Candidate[] = [];
  for (const mention of ownText.matchAll(compiled(ownProject, 'giu'))) {
    for (const candidate of toolsIn(mention[1], new Set(['frameworks']))) if (!found.some((known) => known.value === candidate.value)) found.push(candidate);
  }
  return found;
}
