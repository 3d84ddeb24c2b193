import { foreignClauses, looksForeign } from './foreignShapes';
import type { OwnerClause } from './ownerClause';

export type { OwnerClause } from './ownerClause';
import { clauseVerdict, sentenceVerdict, someoneElse } from './clauseMood';
import { timezoneIn } from './timezones';
import { isRegionName, plainText, splitSentences, tagWords, type Word } from './wordTagger';

/**
 * From the owner's own text to the clauses that state something about the owner, now. Sentences are split
 * and tagged by the NLP library (wordTagger.ts); each clause is then judged on its own: whose statement it
 * is, its tense, its polarity and its mood (clauseMood.ts). What survives may still be too weak for tier A,
 * and says why in `weaker`.
 */

/** At most this many sentences of one message are tagged: the cost of a message stays bounded whatever its size. */
const maxTaggedSentences = 8;
const maxSentenceLength = 400;

/** A sentence worth reading: one that could speak about the owner in the first person (English, German, Spanish, Portuguese). */
const firstPersonCue =
  /^\s*(?:default|daily|main) (?:shell|editor|machine|os)\b|^\s*its? \p{L}+ btw\b|(?:^|[^\p{L}])(?:i|i'm|i’m|im|i've|my|me|ich|mein|meine|mir|yo|mi|soy|me llamo|trabajo|vivo|uso|programo|eu|meu|minha|sou|moro|trabalho|me chamo|pronouns?|name|je|j'|j’|jsuis|moi|mon|ik|mijn|sono|lavoro|mi chiamo|abito|bin|estoy|estou|utilizo|pronomen|pronombres|pronomes)(?![\p{L}])|^\s*(?:located|based|living|working|livin|workin|about me|name|pronouns|(?:a bit |some things |things to know |facts )?about me)\b|^\s*(?:a )?(?:quick |short |brief )?intro(?:duction)?\s*:|^\s*(?:editor|ide|shell|os|timezone|time zone|role|title|team|location|company|employer|city|tz|languages|frameworks|employer|pronouns)\s*[:=]\s*\S|\p{Lu}\p{Ll}+ here\b/iu;
const emoji = /[\p{Extended_Pictographic}\u{1F1E6}-\u{1F1FF}\u{FE0F}\u{200D}]/gu;

const fillers =
  /^(?:@[\w.-]+|hi+|hey+|yaar|gotta (?:say|admit)|to be (?:honest|fair)|not (?:gonna|going to) lie|in my (?:humble )?opinion|so um|u+m+|u+h+|k|thx|omg|sup|jst(?=\s+(?:fyi|btw|so|saying|wanted))|fyi|tho|like|bhai|arre|hel+o+|yo+|so+|ngl|tbh|lowkey|basically|literally|just|obviously|clearly|honestly|hallo|hola|oi|olá|servus|buenas|oh|and|but|so|also|btw|fwiw|anyway|well|ok|okay|yes|yeah|heads up|correction|small fix|sorry|typo earlier|note|fyi|engram|by the way|setup for context|for context|for the record|these days|nowadays|now|actually|honestly|just so you know|quick intro(?: so you have context)?|some context(?: before we start)?|a bit of background|notes for you(?: so you stop asking)?|about me|kurz zu mir|ok so|first things first|there|by day|during the day|professionally|day to day|day-to-day|mostly|mainly|usually|generally|normally|primarily|lol|lmao|haha|ugh|welp|hmm|oof|nah|fwiw|for what it'?s worth|right now|currently|unrelated|(?:stack|tool|tooling|editor|language|setup|work)[- ]wise|(?:please |pls |also )?(?:remember|note|keep in mind|don'?t forget)(?: that)?(?= i\b| my\b| i'm\b| im\b)|(?:what |but )?(?:you can|you may|do) (?:remember|keep|note|save)(?: is)?(?: that)?(?= i\b| my\b| i'm\b| im\b))\b[\s,:;!.—–-]*/i;

export function stripFillers(clause: string): string {
  let current = clause.trim();
  for (let previous = ''; previous !== current; ) {
    previous = current;
    current = current.replace(fillers, '').trim();
  }
  return current;
}

/**
 * A message that opens with fragments about its author ("staff engineer, 12 yrs, so skip the basics", "iOS dev, Swift
 * only", "Emacs user here", "Vitest person.", "Embedded engineer at Nordic: I write C"): read like an introduction,
 * though no "I" is written.
 */
const firstFragment =
  /^\W{0,4}(?:[\p{L}\d.+#/@&'’ -]{1,40}? (?:here|person|user|fan|guy|girl|gang|by day|all day|all the way|for everything|forever|only|everywhere)\b|(?:vegan|vegetarian|pescatarian|gluten-free|halal|kosher|dairy-free|lactose-free|plant-based)(?: btw| here| fyi| as ever| as always)?\b(?![\p{L}-])|(?:[\p{L}-]+ ){0,3}(?:engineer|developer|dev|eng|sre|designer|scientist|analyst|manager|lead|admin|architect|consultant|freelancer|contractor|student|team|squad)\b[^.?!]{0,40}?(?:[,.—–:]|$))/iu;

/** A change the owner made, told without its subject at the start of a sentence. */
const changeOpening = /^(?:switched|moved|migrated|dropped|ditched|swapped|replaced|wiped|relocated|joined)\s+(?!it\b|that\b|this\b|them\b|the (?:team|project|repo|app)\b)/i;

/**
 * Text typed without punctuation ("im an sre lol dont judge me", "i live in glasgow now and the weather is a joke"):
 * a laugh or an aside between words ends a clause, as a comma would.
 */
function unpunctuated(line: string): string {
  return runOnOwnClauses(line.replace(/\s+(lol|lmao|haha+|rofl|ngl|tbh|btw|imo)\s+(?=\p{L})/giu, ' $1, '));
}

/**
 * "my name is carlos i work at globant", "I'm Tomasz I work on the identity team": in a clause of the owner's own typed
 * without a stop, a new "I" starts the next clause. Only after the owner's own opening, and never after a word that
 * leads into a clause of its own ("what i use", "and i live", "i think i'm"), where the "I" belongs to the same sentence.
 */
function runOnOwnClauses(line: string): string {
  const words = line.split(/(\s+)/);
  let segment: string[] = [];
  for (let i = 0; i < words.length; i += 2) {
    const word = words[i];
    const previous = segment[segment.length - 1] ?? '';
    if (/^(?:i|im|i['’]m)$/i.test(word) && segment.length >= 2 && ownOpening.test(segment.join(' ')) && !/[.,;:!?()—–-]$/.test(previous) && !leadsIntoClause.test(previous)) {
      words[i - 2] = `${previous}.`;
      segment = [];
    }
    if (/[.;:!?]$/.test(word)) segment = [];
    else segment.push(word);
  }
  return words.join('');
}
const ownOpening = /^(?:(?:ok|okay|so|hi|hey|yo|well|um|uh|alright)\s+)*(?:my name is|my name['’]s|name['’]s|i am|i['’]m|im|i work|i live)\s/i;
const leadsIntoClause =
  /^(?:and|but|so|or|nor|plus|that|because|cause|cuz|coz|bc|when|whenever|if|where|wherever|what|which|who|whom|whose|how|why|as|than|since|while|though|although|until|till|unless|before|after|once|whether|then|think|thought|guess|mean|know|knew|hope|wish|say|said|feel|felt|believe|suppose|bet|swear|realised|realized|noticed|figured|heard|told|promise|like|where|thing|stuff|one|ones|way)$/i;

const ownHeading = /(?:about me|my (?:setup|stack|tools|toolchain|config)|things (?:to know )?about me)\b[^:\n]{0,40}:\s*$/i;

/** Lines of the owner's text, then sentences, keeping only those that could carry a fact about the owner. */
function candidateSentences(ownText: string): string[] {
  const sentences: string[] = [];
  let underOwnHeading = false;
  for (const rawLine of ownText.split('\n')) {
    // "2. i'm she/her", "- based in Pune", "P.S. I'm on fish": the marker is not part of the sentence.
    const bullet = /^\s*(?:\d{1,2}[.)]|[-*•])\s+/.test(rawLine);
    // "arch user here 🙃": an emoji that ends the line is its tone, not its words.
    const line = rawLine.replace(/^\s*(?:\d{1,2}[.)]|[-*•])\s+/, '').replace(/^\s*p\.?\s?s\.?\s+/i, '').replace(/\s+[\p{Extended_Pictographic}\u{FE0F}\u{200D}\u{1F3FB}-\u{1F3FF}]+\s*$/u, '');
    // "About me:" then "- macOS", "- Neovim": each item under the owner's own heading describes the owner.
    if (underOwnHeading && bullet && line.trim()) {
      // "- Name: Kofi Mensah" under it is a form line of the owner's, read as one (not a name "Name").
      sentences.push(/^\s*(?:name|pronouns|role|title|team|location|based in|city|timezone|time zone|tz|editor|ide|shell|os|company|employer|languages|frameworks)\s*[:=]/i.test(line) ? line.trim() : `about me: ${line.trim()}`);
      if (sentences.length >= maxTaggedSentences) break;
      continue;
    }
    underOwnHeading = ownHeading.test(line);
    // A sentence in another language may speak of its owner with no pronoun ("Sviluppo app in Kotlin", "Tous mes tests…").
    const ownerCue = (text: string): boolean => firstPersonCue.test(text) || changeOpening.test(text) || looksForeign(text);
    if (!ownerCue(line) && !(sentences.length === 0 && firstFragment.test(line))) continue;
    // An emoji often ends a sentence where no full stop does ("…two weeks ago 😅 I'm a junior dev…", "im priyanka 👋 working at…").
    for (const sentence of splitSentences(unpunctuated(line).replace(/\s*[\p{Extended_Pictographic}]+[\u{FE0F}\u{200D}\p{Extended_Pictographic}]*\s+(?=I\b|I'm\b|My\b|my\b|i'm\b|im\b|(?:working|based|living|located) (?:at|for|in|out of|from)\b)/giu, '. '))) {
      for (const part of sentence.split(/\s+[—–]\s+|;\s*|\s+-\s+/)) {
        if (part.length <= maxSentenceLength && (ownerCue(part) || (sentences.length === 0 && firstFragment.test(part)))) sentences.push(part.trim());
      }
    }
    if (sentences.length >= maxTaggedSentences) break;
  }
  return sentences.slice(0, maxTaggedSentences);
}

/** Why a clause with no subject of its own, read as the owner's ("Sydney-based, React and Next.js"), is never confirmed alone. */
export const fragmentOfDescription = 'a fragment of a self-description, without its own subject';

/** Conjunctions that always start a clause of their own. */
const subordinator = /^(?:but|so|while|because|since|although|though|whereas|when|if|unless)$/i;
/** "and"/"or" start a clause only before a subject or a verb ("and my shell is zsh", "and started at Finch"): not in "Rust and Go". */
const coordinator = /^(?:and|or|plus)$/i;
/** Verbs of a change the tagger may read as adjectives ("and joined Klaviyo"): a clause of their own after "and". */
const changeVerb = /^(?:joined|moved|switched|started|relocated|migrated|went|left|quit)$/i;
const subjectWord = /^(?:i|i'm|im|i’m|i've|my|we|you|u|your|ur|he|she|they|it|this|that|our|there|the|something|someone|somebody|nothing|everything|everyone|(?:we|you|they|he|she|it|that|there)['’](?:re|s|ve|ll|d))$/i;

/** Splits tagged words into clauses at punctuation, conjunctions and parentheses. */
function splitWords(words: readonly Word[]): Word[][] {
  const clauses: Word[][] = [[]];
  words.forEach((word, i) => {
    const current = clauses[clauses.length - 1];
    const next = words[i + 1];
    const startsClause =
      word.pre.includes('(') ||
      subordinator.test(word.text) ||
      (coordinator.test(word.text) && !!next && (subjectWord.test(next.text) || changeVerb.test(next.text) || (next.tags.has('Verb') && !next.tags.has('Gerund'))));
    if (current.length > 0 && startsClause) clauses.push([word]);
    else current.push(word);
    if (/[,;:)(—–]/.test(word.post) && !placeGoesOn(words, i)) clauses.push([]);
  });
  return clauses.filter((clause) => clause.length > 0);
}

/** Words after a place's comma that describe the same place ("Scala, on the Amalfi coast", "Vim, a village in …"). */
const placeApposition = /^(?:(?:a|an|the) (?:small |tiny |little )?(?:village|town|city|hamlet|suburb|county|island|municipality)|on the\b.*\bcoast|near \p{Lu})/iu;

/**
 * "I live in Java, South Dakota", "Vivo en Rosario, Argentina": the region after a place's comma is the place's, not a
 * clause of its own, and neither is an apposition that says what kind of place it is.
 */
function placeGoesOn(words: readonly Word[], at: number): boolean {
  if (!words[at].post.includes(',') || !words.slice(Math.max(0, at - 4), at + 1).some((word) => /^(?:in|to|from)$/i.test(word.text))) return false;
  const rest: Word[] = [];
  for (const word of words.slice(at + 1)) {
    rest.push(word);
    if (/[,;:.!?()—–]/.test(word.post)) break;
  }
  const tail = rest.map((word) => word.text).join(' ');
  if (placeApposition.test(tail)) return true;
  const region = rest.length <= 3 && rest.every((word) => /^\p{Lu}/u.test(word.text)) && isRegionName(tail);
  const after = words[at + 1 + rest.length];
  return region && (!after || /^(?:and|so|but)$/i.test(after.text) || /[.!?;]/.test(rest[rest.length - 1].post));
}

/** Words between "I" and its verb that change nothing about the fact ("I recently moved", "I'm currently at"). */
function withoutAdverbs(text: string): string {
  return text
    .replace(/^(i(?: am)?)\s+(?:just|recently|finally|also|actually|currently|really|now|still|already|officially)\s+/i, '$1 ')
    .replace(/^(i (?:code|write|program|work))\s+(?:mostly|mainly|usually|primarily|generally|normally)\s+(in|with)\b/i, '$1 $2')
    .replace(/\s+@\s+(?=\p{L})/gu, ' at ');
}

/** A form's other names for a key's field. */
const formKeys: Record<string, string> = { title: 'role', city: 'location', 'based in': 'location', 'time zone': 'timezone', tz: 'timezone', ide: 'editor', company: 'employer' };

/** A form line the owner types about themselves ("Name: Priyanka", "Pronouns: she/her") in the plain shape. */
function fromFormLine(sentence: string): string | undefined {
  const field = /^\s*(name|pronouns|role|title|team|location|based in|city|timezone|time zone|tz|editor|ide|shell|os|company|employer|languages|frameworks)\s*[:=]\s*(.+?)[.!]?\s*$/i.exec(sentence);
  if (!field) return undefined;
  const key = formKeys[field[1].toLowerCase()] ?? field[1].toLowerCase();
  if (key === 'employer') return `i work at ${field[2]}`;
  if (key === 'languages' || key === 'frameworks') return `my ${key} are ${field[2]}`;
  if (key === 'team') return `i am on the ${field[2]} team`;
  if (key === 'role') return `i am a ${field[2]}`;
  if (key === 'location') return `i live in ${field[2]}`;
  return `my ${key} ${key === 'pronouns' ? 'are' : 'is'} ${field[2]}`;
}

/** An opening that introduces the owner; subjectless fragments after it describe the owner too. */
const introduction =
  /^(?:i am [\p{L}'-]+$|i am (?:an?|the) |my name is|my name's|name is|name's|call me|you can call me|i go by|[\p{Lu}][\p{L}'-]+ here$|my pronouns|located|based|living|working)/iu;
/** A fragment that has a subject of its own (so it is not a description of the owner). */
const ownSubject =
  /^(?:we|you|u|he|she|they|it|it's|this|that|these|those|there|here|our|his|her|their|its|the|what|which|who|how|why|where|can|could|would|should|will|do|does|did|is|are|was|were|please|pls|let|any|not|no|now|then|thanks|sorry|hope|need)\b(?!\/)/i;
const ownerSubject = /^(?:no \w+ for me|i|my|me|call me|you can call me|(?:everyone|everybody|people|friends|most people) calls? me|name's|name is|pronouns|as (?:an?|the)\s)\b|^[\w .+#-]{1,30}? (?:is|are) (?:my|what i|where i)\b|^[\p{L}\d .+#/@&'’-]{1,40}? here(?: again)?$|^[\p{L} -]{1,30}? by day\b|^(?:i(?:'ve| have) )?been an? |^(?:she|he|they|xe|ze|it)\/\w+|^it(?:'?s| is) (?:(?:she|he|they|xe|ze)\/\w+|(?:all|mostly|only|just) [\p{L}.+#/ -]{1,30}? (?:these days|now|nowadays))$|^it'?s \p{L}+(?: btw| here| again)?$|^(?:my )?(?:daily|main|work|default) (?:machine|laptop|driver|editor|os|shell|setup) is\b/iu;
/** A sentence that opens with a self-description and no subject: "Located in Cape Town, working as…". */
const sentenceStartsDescribing = /^(?:located|based|living|working|currently based|originally from|running|using|daily-driving|day job is)\b/i;
const questionStart = /^(?:can|could|would|will|do|does|did|is|are|am|should|shall|what|how|why|where|which|who|whom|any|pls|please|thoughts|ideas?)\b/i;

function readEnglish(sentence: string, into: OwnerClause[], opensMessage: boolean): void {
  const verdict = sentenceVerdict(sentence);
  if (verdict.skip) return;
  const form = fromFormLine(verdict.kept);
  const words = tagWords((form ?? verdict.kept).replace(emoji, ' '));
  let introduced = false;
  // Fragments describe the author only while the message opens with them: after a clause of its own, a list is a list.
  let opening = opensMessage;
  let previous = '';
  let lastOfSentence: OwnerClause | undefined;
  // Set when the owner's own clause ends in a colon: the words after it are its list.
  let colonList = false;
  let othersList = false;
  for (const clauseWords of splitWords(words)) {
    const plain = plainText(clauseWords).replace(/^[\s,;:()—–/-]+|[\s,;:.!?()—–/-]+$/g, '');
    // "Me: Chiara, she/her, DevOps at Satispay": a lone "Me" before a colon heads the owner's own description.
    const meHeading = /^me$/i.test(plain) && /:/.test(clauseWords[clauseWords.length - 1]?.post ?? '');
    if (meHeading || /^(?:(?:a bit|a little|some things|things(?: to know)?|(?:some |quick |a few )?facts|a few things|some notes|notes|stuff) (?:about|on) me|about me|(?:a )?(?:quick |short |brief )?intro(?:duction)?|kurz zu mir)$/i.test(plain)) {
      introduced = true;
      continue;
    }
    // "workin at shopify", "livin in leeds": the dropped g of a verb of self-description.
    let raw = stripFillers(plain).replace(/^(work|liv|cod|us|runn|writ|build|bas)in\b/i, '$1ing');
    if (/^(?:if|unless)\b/i.test(raw)) continue;
    const subordinate = /^(?:since|because|as|so|but|while|although|though|whereas|when)\s+/i.test(raw) || /^(?:so|but|and then)\s+/i.test(plain);
    raw = raw.replace(/^(?:since|because|as(?!\s+(?:an?|the)\s)|so|and|but|while|although|though|whereas|when|plus|or)\s+/i, '');
    // "…, and started at Finch": the subject is the previous clause's.
    if (/^i\b/i.test(previous) && /^(?:started|joined|moved|work|live|use|write|run|switched|migrated|put|installed|went|relocated|test|build|code|develop|deploy)\b/i.test(raw)) raw = `i ${raw}`;
    // "Switched from bash to zsh last week", "Dropped Jest for Vitest": a diary's first clause leaves out its "I".
    else if (!previous && changeOpening.test(raw)) raw = `i ${raw}`;
    // "I'm in Auckland, on NZST", "I'm Tariq, timezone GST": a zone after the owner's clause is the owner's.
    const zone = raw.replace(/^(?:on|timezone|time zone|tz)\s+/i, '');
    if (/^i\b/i.test(previous) && timezoneIn(zone)) raw = `i am on ${zone}`;
    raw = withoutAdverbs(raw).replace(/(?:\s+(?:btw|fyi|tbh|imo|lol|lmao|haha|ha|anyway|ngl|fr|tho))+$/i, '');
    // "(helix user, if you're wondering)": an aside about the author.
    if (clauseWords[0]?.pre.includes('(') && /^[\p{L}\d.+#/ -]{1,30} (?:user|person|fan|dev|developer|engineer|here)$/iu.test(raw)) raw = `${raw.replace(/ here$/i, '')} here`;
    // "Emacs user here", "payments squad here", "Backend dev by day": the author describing themselves.
    // "fish shell gang": the owner's tribe of a tool, said as "X user here" is.
    raw = raw.replace(/^(?!i\b|my\b|we\b)([\p{L}\d .+#/-]{1,30}?) (?:gang|crew|club)$/iu, '$1 user here').replace(/^(vegan|vegetarian|pescatarian|gluten-free|halal|kosher|dairy-free|lactose-free|plant-based) (?:as ever|as always)$/i, '$1');
    const here = /^(?!i\b|we\b|it\b|this\b|that\b|the\b)([\p{L}\d .+#/@&'’-]{1,60}?) (?:here(?: again)?|by day)$/iu.exec(raw);
    if (here && !/^\p{Lu}[\p{Ll}'’]+$/u.test(here[1])) {
      raw = `i am ${here[1].replace(/\s+@\s+/g, ' at ')}`;
      // "Full-stack dev here, Laravel and Vue": what follows describes the same person.
      introduced = true;
    }
    raw = raw.replace(/^(?:i(?:'ve| have) )?been (an? )/i, 'i am $1').replace(/^(?:my )?(?:daily|main|work) (?:machine|laptop|driver) is\s+/i, 'i am on ');
    if (!raw) continue;
    // In a question, only what the owner says before asking counts ("Since I use zsh, where should this go?").
    if (verdict.question && questionStart.test(raw)) break;
    const weaker = [...verdict.weaker];
    let text = raw;
    if (!ownerSubject.test(raw)) {
      if (othersList) continue;
      const subjectless = !ownSubject.test(raw) && raw.split(/\s+/).length <= 12;
      // "sorry Playwright fans" speaks to others, whatever came before it.
      const implied = (introduced || sentenceStartsDescribing.test(raw) || (opening && firstFragment.test(raw))) && subjectless && !/^sorry\b/i.test(plain);
      const last = into[into.length - 1];
      // A capitalised first word is a name ("Rust on weekends"), whatever verb it also spells.
      const opener = clauseWords[0];
      const verbFirst = !!opener && (opener.tags.has('Verb') || opener.tags.has('Adverb')) && !/^\p{Lu}/u.test(opener.text);
      const listItem = !subordinate && clauseWords.some((word) => word.tags.has('Noun') || word.tags.has('Acronym') || /^\p{Lu}/u.test(word.text)) && !verbFirst;
      // After a colon that ends the owner's own clause, the words are that clause's list ("I'm a Ruby person: Rails, Hotwire").
      const listed = colonList || !implied;
      if (listed && subjectless && listItem && last && lastOfSentence === last) {
        // A list that goes on after a comma: "I write Go, Python and a bit of Elixir".
        const joiner = colonList && !last.text.includes(': ') ? ': ' : ', ';
        lastOfSentence = { ...last, text: `${last.text}${joiner}${raw}`, words: [...last.words, ...clauseWords] };
        into.push(lastOfSentence);
        continue;
      }
      if (!implied) {
        opening = false;
        introduced = false;
        lastOfSentence = undefined;
        continue;
      }
      text = `i am ${raw}`;
      weaker.push(fragmentOfDescription);
    }
    // "Embedded engineer at Nordic": in a fragment that is a job title, the words before its noun are the title's, not a
    // verb in the past ("embedded", "licensed").
    const title = text !== raw ? /^((?:[\p{L}-]+ ){1,3})(?:engineer|developer|dev|designer|scientist|analyst|manager|lead|architect|consultant)\b/iu.exec(raw) : null;
    const judged = clauseVerdict(text, title ? clauseWords.slice(title[1].trim().split(/\s+/).length) : clauseWords);
    if (ownerSubject.test(raw)) opening = false;
    previous = text;
    if (judged.skip) {
      lastOfSentence = undefined;
      // "my mentor is a Go person: Go, gRPC": the list after a clause that is not the owner's is not the owner's either.
      othersList = someoneElse.test(text) && /:/.test(clauseWords[clauseWords.length - 1]?.post ?? '');
      continue;
    }
    othersList = false;
    // "I'm Anika Sørensen, a staff engineer at …": a full name introduces the owner as a lone name does.
    if (introduction.test(text) || introduction.test(raw) || /^i am \p{Lu}[\p{Ll}'’-]+(?: \p{Lu}[\p{Ll}'’-]+){1,2}$/u.test(text)) introduced = true;
    lastOfSentence = { text, weaker: form ? [...weaker, 'a form-like line'] : [...weaker, ...judged.weaker], words: clauseWords, language: 'en' };
    colonList = /:/.test(clauseWords[clauseWords.length - 1]?.post ?? '') && !weaker.includes(fragmentOfDescription);
    into.push(lastOfSentence);
  }
}

/** The clauses of the owner's own text that state something about the owner, now. */
export function readOwnerClauses(ownText: string): OwnerClause[] {
  const clauses: OwnerClause[] = [];
  const first = candidateSentences(ownText)[0];
  for (const sentence of candidateSentences(ownText)) {
    if (looksForeign(sentence)) clauses.push(...foreignClauses(sentence));
    else readEnglish(sentence, clauses, clauses.length === 0 && sentence === first);
  }
  return clauses;
}
