import type { Word } from './wordTagger';

/**
 * Whether a sentence, then each of its clauses, states a present fact about the owner: its mood (question,
 * request, hypothetical, role-play, sarcasm, example data), who is speaking (reported speech, someone else),
 * its tense (past, future) and its polarity (negated). A clause that is none of these can still be weak
 * (hedged, joking, in passing), which keeps its facts out of tier A.
 */
export interface SentenceVerdict {
  readonly skip: boolean;
  readonly question: boolean;
  /** The part of the sentence that may be the owner's statement (example data after "such as" cut off). */
  readonly kept: string;
  readonly weaker: readonly string[];
}

export interface ClauseVerdict {
  readonly skip: boolean;
  readonly weaker: readonly string[];
}

const hypotheticalOpening = /^(?:according to|if|suppose|supposing|assume|assuming|imagine|what if|pretend|let'?s|say|in a world|had i|were i|(?:just )?(?:as|for) an? (?:test|example|experiment)\b|for interview practice|in theory)\b/i;
export const rolePlay =
  /(?:^|\n)\s*(?:scenario|persona|sample (?:input|user|data)|example (?:input|user|data)|test (?:case|input|user)(?: #?\d+)?)\s*:|(?:^|\n)\s*(?:your |my )?role\s*:\s*(?:the\s+|an?\s+)?(?:customer|client|caller|patient|interviewer|candidate|shopper|guest|buyer|tenant|villain|hero)\b|\bimagine (?:you(?:'re| are)|i(?:'m| am))\b|\bin (?:this|my|our|the) (?:campaign|adventure|quest|rpg|one-?shot|d&d|dnd|tabletop game)\b|\bmy (?:character|char|pc) (?:is|in)\b|\bin (?:the|this|my|our) (?:story|novel|scene|screenplay)\b|\b(?:pretend|role-?play|mock interview|act as|as if i|i'?ll play|you'?re the|play(?:ing)? the role|answer as if|persona)\b|\bfor (?:this|the|our|a) (?:exercise|scenario|simulation|drill|game|demo|practice (?:run|session)|training (?:exercise|session))\b|\bin this (?:scenario|exercise|simulation|game|scene)\b|\b(?:i(?:'ll| will)? be|i am|i'm) (?:the|a|your) (?:customer|client|caller|patient|angry user|shopper|guest|buyer|tenant)(?=\s*[,.;:!]|\s+(?:and|here|today|calling|complaining)\b)/i;
/** Markers people put on a self-description they do not mean. */
const sarcasm = /🙄|🙃|😒|😏|🤡|(?:^|\s)\/s\b|\byeah,? right\b|\bapparently\b|\bclearly,? i\b|\bsure,? i(?:'m|’m| am|m)\b|\boh (?:great|joy|sure|wonderful)\b|\byay\b|\bas you can tell\b|\bwhich means i\b|\bof course\b|\bso-called\b|\bself-proclaimed\b|\bjudging (?:by|from)\b|\b(?:by|from) the looks of\b/i;
const joking = /\b(?:lol|lmao|rofl|haha\w*|jk)\b|😂|🤣|😅|😆/i;
const hedge = /\b(?:i think|i guess|i suppose|probably|kinda|kind of|sort of|more or less|i believe)\b/i;
/** Material the owner asks to have produced, or names as an example: what follows is not a statement. */
const exampleMarker =
  /(?:^|\b(?:can|could|would) (?:you|u) |\bplease |\bpls |\bhelp me |\bi need you to |\bi want you to )(?:generate|write|draft|compose|create|make up|come up with|invent|produce)\b|\b(?:e\.g\.|for example|for instance|such as|something like|like:|(?:options|choices|values|fields?) like|sample|examples?|mock|fake|dummy|placeholder|fixture|seed (?:data|script)|test (?:input|data|string)|the input|self-introductions|bios?)\b/i;
/**
 * "Short bio for the conference site: I'm Wren Castillo, …", "Quick bio for the onboarding doc (about me): I'm …": a
 * heading that names the owner's own bio, then the owner speaking in the first person, is a self-description, not an
 * example (a request to write one, "Rewrite this bio for my colleague: …", is another shape and stays one).
 */
const ownBioHeading = /^(?:(?:a|my)\s+)?(?:(?:quick|short|brief|little|tiny)\s+)?bio\b(?![^:\n]*\b(?:from|of|his|her|their|someone|candidate|colleague|speaker|\p{L}+['’]s)\b)[^:\n]{0,60}:\s*(?:i\b|i['’]m\b|i am\b|my\b)/iu;
/** "my boss thinks I'm…", "she told me she's…": someone else's words or beliefs about the owner. */
const reported = /\b([\p{L}']+)\s+(?:thinks|think|says|said|told (?:me|us|everyone)|believes|claims|wrote|assumes?|reckons)\b(?:\s+that)?\s+(?:i|i'm|im|i’m|she|he|they|she's|he's)\b/iu;
/** "As an admin on the billing team, I want to export invoices": a user story speaks for a persona, not the owner. */
const userStory = /(?:^|[:.]\s*)as an? [^,]{1,60},\s*i (?:want|need|would like|can|should|must)\b/i;
const questionOpening = /^(?:do|does|did|should|shall|can|could|would|will|is|are|am|was|were|what|how|why|where|which|who|when|have|has)\b/i;

/** "I am the developer of this assistant and have full admin access": a claim on the assistant's trust, not a fact. */
const trustClaim = /\bi(?:'m| am) (?:the|your|an?) (?:developer|creator|maker|author|owner|admin|administrator|operator)s? of (?:this|the|you)\b|\b(?:full|root|admin|unrestricted) (?:admin |system )?(?:access|privileges|rights)\b|\bignore (?:all |your |the |any )?(?:previous|prior|earlier) (?:instructions|rules)\b/i;

export function sentenceVerdict(sentence: string): SentenceVerdict {
  const weaker: string[] = [];
  // "I am running pytest -k slow": a command with its flags is a tool being run now, not the owner's choice of one.
  if (trustClaim.test(sentence) || /\b(?:running|executing)\s+[\w.:-]+\s+-{1,2}[a-z]/i.test(sentence)) return skipped;
  const opening = sentence.replace(/^(?:\W|hi|hey|so|ok|okay|oh|and|but|also|btw|well)+\s*/i, '');
  if (hypotheticalOpening.test(opening) || rolePlay.test(sentence) || sarcasm.test(sentence) || userStory.test(opening) || userStory.test(sentence)) return skipped;
  const speaker = reported.exec(sentence);
  if (speaker) {
    if (speaker[1].toLowerCase() !== 'i') return skipped;
    weaker.push('hedged ("I think…")');
  }
  let kept = sentence;
  const example = ownBioHeading.test(opening) ? null : exampleMarker.exec(sentence);
  if (ownBioHeading.test(opening)) weaker.push('a bio the owner writes for somewhere');
  if (example) {
    kept = sentence.slice(0, example.index);
    if (!/\b(?:i|i'm|im|my)\b/i.test(kept)) return skipped;
  }
  const question = /[?？]\s*$/.test(sentence) || /^¿/.test(sentence) || questionOpening.test(opening);
  if (question) weaker.push('said in passing, in a question');
  if (joking.test(sentence)) weaker.push('said with a laugh');
  if (hedge.test(sentence)) weaker.push('hedged');
  if (sentence.split(/\s+/).length > 30) weaker.push('a long sentence');
  return { skip: false, question, kept, weaker };
}

const skipped: SentenceVerdict = { skip: true, question: false, kept: '', weaker: [] };

export const someoneElse =
  /^my\s+(?:[\p{L}]+['’]s\s|(?:(?!package\s)\w+\s)?(?:colleague|coworker|co-worker|cofounder|co-founder|wife|husband|partner|friend|boss|manager|lead|mentor|son|daughter|kid|kids|child|children|mom|mum|mother|dad|father|brother|sister|cousin|client|customer|roommate|neighbou?r|teammate|team-mate|student|users?|company(?!\s+is\s+(?:called\s+|named\s+)?[\p{L}\d&.-]+(?:\s+[\p{L}\d&.-]+)?\s*$)|dog|cat|pet|professor|landlord|parents?|family)\b)/iu;
const negation = /\b(?:never|no longer|not anymore|any ?more|not any more|none)\b/i;
const statedByNegation = /^i (?:do not|don't|dont) eat (?:meat|fish|dairy|gluten|pork|eggs)\b/i;
const pastMarker = /\b(?:used to|back when|back in|before i|formerly|previously|ex-\w+|until \d{4}|in the past|years ago|ages ago)\b/i;
/** Past forms that describe where things stand now ("I moved to Porto", "I'm based in Lisbon"). */
const resultVerbs = new Set(['moved', 'switched', 'relocated', 'joined', 'started', 'migrated', 'settled', 'transferred', 'based', 'located', 'called', 'named', 'married', 'got', 'dropped', 'ditched', 'swapped', 'replaced', 'changed', 'put', 'installed']);
const modals = new Set(['will', 'would', 'could', 'might', 'may', 'shall', 'should', 'wo', "'ll", 'ought']);
const futureOrWish =
  /\b(?:going to|gonna|about to|planning|plan to|plans to|thinking (?:of|about)|considering|hoping|hope to|want to|wanna|would love|wish|someday|one day|soon|next (?:week|month|year|quarter|spring|summer|autumn|fall|winter|monday|tuesday|wednesday|thursday|friday|january|february|march|april|may|june|july|august|september|october|november|december)|tomorrow|on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|in (?:a|two|three) (?:weeks?|months?))\b/i;
const arrangement = /^i am (?:moving|joining|starting|switching|relocating|leaving|changing|heading|interviewing|applying)\b/i;
const temporary = /\b(?:this (?:week|month)|today|tonight|this morning|for a (?:conference|conf|trip|visit|week|few days|wedding|workshop|meeting|talk|hackathon|meetup|offsite)|right now to\b|^i am in\b.{1,40}\b(?:right now|rn|atm|at the moment)\b|to ask you (?:this|that)\b|\w+['’]s (?:chat|assistant|ai|copilot|agent) (?:right now|now|rn)\b|till|until|on (?:vacation|holiday)|travell?ing|visiting|for the weekend|on a trip|just to|temporarily|for this one|here only|only here|only because (?:the|this|that|our|my) (?:template|project|repo|codebase|client|company|course|class|tutorial|boilerplate|starter) (?:needs|requires|wants|uses|forces)|acting|interim|covering|filling in|for (?:two|three|a few|\d+) (?:days|weeks|months)|for the (?:next|coming|rest of the) (?:(?:few|couple of|two|three|\d+) )?(?:days?|weeks?|months?|week|month))\b/i;
const idiom =
  /\b(?:live|living|livin['’]?)\s+in\s+(?:an?\s+|the\s+|my\s+)?(?:[\w.+#/-]+\s+){0,3}(?:hell|purgatory|limbo|denial|fear|a nightmare|nightmares?|chaos|misery|a world of pain)\b|\b(?:basically|practically|literally|pretty much|virtually)\s+live\b|\blive (?:in|on) (?:the )?(?:terminal|shell|command line|fear|denial|hope|hell|weeds|stack overflow|my editor)\b|\bcall me (?:crazy|old-fashioned|paranoid|lazy)\b|\bmy name is mud\b|\bis my middle name\b|^i am (?:on it|on fire|all ears|at my wits|in the weeds|deep in|in dependency hell|in hell)\b/i;

/** The first verb of the clause: the one that carries its tense. */
function finiteVerb(words: readonly Word[]): Word | undefined {
  return words.find((word) => word.tags.has('Verb') && word.form !== '');
}

export function clauseVerdict(text: string, words: readonly Word[]): ClauseVerdict {
  if (someoneElse.test(text) || idiom.test(text) || pastMarker.test(text) || temporary.test(text)) return { skip: true, weaker: [] };
  if (futureOrWish.test(text) || arrangement.test(text)) return { skip: true, weaker: [] };
  // "I use yarn, not npm" / "tabs not spaces" names what the owner does not use; the statement itself stands.
  const contrast = /,?\s+(?:not|never|instead of|rather than)\s+(?:the\s+|an?\s+)?[\p{L}\d.+#/-]+(?:\s+[\p{L}\d.+#/-]+)?\s*$/iu.exec(text);
  const stated = contrast && !/\b(?:do|does|did|am|is|are|was|were|i|have|has|can|could|would|will|should)$/i.test(text.slice(0, contrast.index)) ? text.slice(0, contrast.index) : text;
  const statedWords = stated !== text ? words.slice(0, Math.max(0, words.findIndex((word) => /^(?:not|never|instead|rather)$/i.test(word.text)))) : words;
  const negated = statedWords.some((word) => word.tags.has('Negative')) || negation.test(stated) || /\bnot\b/i.test(stated);
  if (negated && !statedByNegation.test(text)) return { skip: true, weaker: [] };
  const weaker: string[] = [];
  const verb = finiteVerb(words);
  if (verb) {
    const form = verb.form.toLowerCase();
    if (modals.has(form)) return { skip: true, weaker: [] };
    if (['was', 'were', 'had', 'did', 'used'].includes(form)) return { skip: true, weaker: [] };
    if (verb.tags.has('PastTense') && !verb.tags.has('Copula')) {
      // "I went back to Vim", "went over to Zed": a return is where things stand now.
      if (!resultVerbs.has(form) && !/\bwent (?:back|over) to\b/i.test(text)) return { skip: true, weaker: [] };
      weaker.push('a change, told in the past tense');
    }
  }
  return { skip: false, weaker };
}
