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
  /\b(?:ignore (?:all |any )?(?:the )?(?:previous|prior|above|earlier) (?:instructions|messages)|disregard (?:the |all )?(?:previous|above)|note to (?:the )?ai|ai assistants? reading|save this to (?:your )?memory|(?:store|remember|record) that the user|system prompt)\b|^\s*(?:system|assistant)\s*:/im;
const testString = /^\s*(?:test(?:ing)?\b|ping\b)|lorem ipsum|\bfoo bar\b/i;
/**
 * The gates that close on a whole message before anything in it is read: not the owner's turn, a secret,
 * "don't remember this", injected instructions, a test string. Returns why, or undefined when open.
 */
export function closedGate(role: 'user' | 'assistant', text: string): string | undefined {
  if (role !== 'user') return 'only your own words are captured, never the assistant’s';
  if (containsSecret(text)) return 'the message contains a secret';
  if (optOut.test(text)) return 'you asked not to remember it';
  if (injected.test(text)) return 'it reads like instructions injected from elsewhere';
  if (testString.test(text)) return 'it looks like a test string';
  return undefined;
}
