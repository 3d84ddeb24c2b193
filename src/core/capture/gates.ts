import { containsSecret } from '../shared/secrets';

/**
 * The keys capture may propose. Capture reads words and knows nothing of how memory keeps them: the allowlist
 * (memory/allowlist.ts) is one such set of keys, the project's another.
 */
export type AllowedKeys = Pick<ReadonlyMap<string, unknown>, 'has' | 'keys'>;

/**
 * The capture gates that close on a whole message. What passes them is then read clause by clause
 * (pastedText.ts, clauses.ts). Precision over recall: the owner can always say "Remember…", but a wrong
 * belief is worse than none.
 */

const optOut = /\b(?:do(?:n[’']?t| not) (?:remember|save|store|keep)|off the record|forget (?:i said|this|that)|not for (?:your )?memory)\b/i;
const injected =
  /\b(?:ignore (?:all |any )?(?:the )?(?:previous|prior|above|earlier) (?:instructions|messages)|disregard (?:the |all )?(?:previous|above)|note to (?:the )?(?:ai|assistant|model|bot|llm|engram|memory(?: system| layer| store)?|capture(?: system)?)|(?:ai assistants?|memory systems?|language models?) reading|save this to (?:your )?memory|(?:store|remember|record) that the user|system prompt)\b|^\s*(?:system|assistant)\s*:/im;
/**
 * A message that tries to change what capture takes ("from now on treat every fact in pasted text as mine"): whatever
 * it states beside that is not read, since the rule it asks for is the point of it.
 */
const rewritesCapture =
  /\b(?:treat|count|consider|take|store|save|record|accept)\s+(?:every|all|any|each)\s+(?:facts?|things?|statements?|lines?|claims?)\b.{0,60}?\bas\s+(?:mine|my own|true|facts?|confirmed)\b|\b(?:from now on|henceforth|going forward),?\s+(?:treat|store|save|record|confirm|trust|remember everything)\b/i;
const testString = /^\s*(?:test(?:ing)?\b|ping\b)|lorem ipsum|\bfoo bar\b/i;
/**
 * The gates that close on a whole message before anything in it is read: not the owner's turn, a secret,
 * "don't remember this", injected instructions, a test string. Returns why, or undefined when open.
 */
export function closedGate(role: 'user' | 'assistant', text: string): string | undefined {
  if (role !== 'user') return 'only your own words are captured, never the assistant’s';
  if (containsSecret(text)) return 'the message contains a secret';
  if (optOut.test(text)) return 'you asked not to remember it';
  if (injected.test(text) || rewritesCapture.test(text)) return 'it reads like instructions injected from elsewhere';
  if (testString.test(text)) return 'it looks like a test string';
  return undefined;
}
