import { containsSecret } from '../shared/secrets';

/**
 * The capture gates: from a message to the clauses that may speak about the owner in the first person.
 * Precision over recall: the owner can always say "Remember…", but a wrong belief is worse than none.
 */
export type GateVerdict =
  | { readonly blocked: string; readonly clauses: readonly [] }
  | { readonly blocked?: undefined; readonly clauses: readonly string[] };

const optOut = /\b(?:do(?:n[’']?t| not) (?:remember|save|store|keep)|off the record|forget (?:i said|this|that)|not for (?:your )?memory)\b/i;
const injected =
  /\b(?:ignore (?:all |any )?(?:the )?(?:previous|prior|above|earlier) (?:instructions|messages)|disregard (?:the |all )?(?:previous|above)|note to (?:the )?ai|ai assistants? reading|save this to (?:your )?memory|(?:store|remember|record) that the user|system prompt)\b|^\s*(?:system|assistant)\s*:/im;
const testString = /^\s*(?:test(?:ing)?\b|ping\b)|lorem ipsum|\bfoo bar\b/i;
/**
 * A lead-in announcing pasted or sample material ("Summarize this email:", "Here's a sample string for the
 * test:"): what follows it is someone else's words, or test data.
 */
const pasteLeadIn =
  /\b(?:summari[sz]e|translate|rewrite|paraphrase|clean up|turn this|reply to|from an? (?:blog )?(?:post|article)|this (?:page|article|paragraph|listing|text|output|email|mail|message|thread|issue|transcript)|(?:test|build|command) output|output|sample|example|test (?:string|data|input|case)|fixture)\b[^:?\n]*(?::|\?\s*\n)/i;

const question = /^(?:do|does|did|should|shall|can|could|would|will|is|are|am|was|were|what|how|why|where|which|who|when)\b/i;
const hypothetical = /^(?:if|suppose|supposing|assume|assuming|imagine|what if|pretend|let'?s|say|in a world)\b/i;
const rolePlay = /\b(?:pretend|role-?play|mock interview|act as|i'?ll play|you'?re the|play(?:ing)? the role)\b/i;

const fillers =
  /^(?:@[\w.-]+|hi|hey|hello|oh|and|but|so|also|btw|fwiw|anyway|well|ok|okay|yes|yeah|heads up|correction|small fix|sorry|typo earlier|note|fyi|engram|by the way|setup for context|for context|for the record|these days|nowadays|now|actually|honestly|just so you know)\b[\s,:;!—–-]*/i;

const firstPerson = /^(?:i|i'm|im|i’m|i am|i've|ive|i’ve|my|call me|name's)\b|^[\w .+#-]{1,30}? is my\b/i;
/** "my colleague works at…": first person, but about someone else. */
const someoneElse =
  /^my\s+(?:\w+[’']s\s+)?(?:colleague|coworker|co-worker|cofounder|co-founder|wife|husband|partner|friend|boss|manager|lead|mentor|son|daughter|kid|kids|child|mom|mum|mother|dad|father|brother|sister|cousin|client|customer|roommate|neighbou?r|teammate|team-mate|student|users?|company|dog|cat)\b/i;
const notCurrent = /\b(?:used to|no longer|anymore|any more|not|n[’']t|never|formerly|previously)\b/i;
/** A negation that states a current fact about the owner rather than denying one ("I don't eat meat"). */
const statedByNegation = /^i (?:don[’']?t|do not) eat (?:meat|fish|dairy|gluten|pork|eggs)\b/i;

/**
 * The part of a clause that states something: what follows "so", "because", ", and the…", ", not…" is a
 * consequence or a contrast ("My shell is fish, so the README doesn't work for me").
 */
const clauseTail =
  /,?\s+(?:so|because|since|which|when|where|while|although|though|if|as)\b|,\s+and\s+(?:the|this|it|we|our|they|that|there|any)\b|,\s*not\b|\s+[—–]\s|;/i;

export function clauseHead(clause: string): string {
  const tail = clauseTail.exec(clause);
  return (tail ? clause.slice(0, tail.index) : clause).trim();
}

/** Removes what is not the owner's own words: code, quotations, quoted lines and pasted material. */
export function stripForeignText(text: string): string {
  let kept = text
    .replace(/```[\s\S]*?(?:```|$)/g, ' ')
    .replace(/`[^`\n]*`/g, ' ')
    .replace(/"[^"\n]*"/g, ' ')
    .replace(/“[^”\n]*”/g, ' ')
    .split('\n')
    .filter((line) => !/^\s*>/.test(line))
    .join('\n');
  const lead = pasteLeadIn.exec(kept);
  if (lead) kept = kept.slice(0, lead.index);
  return kept;
}

export function splitClauses(sentence: string): string[] {
  return sentence
    .split(/\s*[,;:]?\s+(?:and|but|so|while)\s+(?=(?:i|i'm|im|i’m|i've|my)\b)|\s*[,;:]\s*(?=(?:i|i'm|im|i’m|i've|my)\b)/i)
    .map((clause) => clause.trim())
    .filter(Boolean);
}

function stripFillers(clause: string): string {
  let current = clause.trim();
  for (let previous = ''; previous !== current; ) {
    previous = current;
    current = current.replace(fillers, '').trim();
  }
  return current;
}

export function gateMessage(role: 'user' | 'assistant', text: string): GateVerdict {
  if (role !== 'user') return { blocked: 'only your own words are captured, never the assistant’s', clauses: [] };
  if (containsSecret(text)) return { blocked: 'the message contains a secret', clauses: [] };
  if (optOut.test(text)) return { blocked: 'you asked not to remember it', clauses: [] };
  if (injected.test(text)) return { blocked: 'it reads like instructions injected from elsewhere', clauses: [] };
  if (testString.test(text)) return { blocked: 'it looks like a test string', clauses: [] };
  const clauses: string[] = [];
  const sentences = stripForeignText(text)
    .split(/(?<=[.!?])\s+|;\s*|\n+|\s+[—–]\s+|\s+-\s+/)
    .map((sentence) => sentence.trim())
    .filter(Boolean);
  for (const sentence of sentences) {
    const opening = stripFillers(sentence);
    if (/\?\s*$/.test(sentence) || question.test(opening) || hypothetical.test(opening) || rolePlay.test(sentence)) continue;
    for (const raw of splitClauses(sentence)) {
      const clause = clauseHead(stripFillers(raw).replace(/[.!]+$/, '').trim());
      if (!firstPerson.test(clause) || someoneElse.test(clause)) continue;
      if (notCurrent.test(clause) && !statedByNegation.test(clause)) continue;
      if (hypothetical.test(clause) || /^i'?d\b/i.test(clause)) continue;
      clauses.push(clause);
    }
  }
  return { clauses };
}
