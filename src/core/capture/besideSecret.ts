import { secretMarker } from '../shared/secrets';

/**
 * A message that held a secret, made ready to be read: the secret is gone (redactSecrets), and what is left around it
 * must not keep the owner's own words from being read. The machine text the secret sat in (a `.env` line, a URL, a
 * connection string) goes with it, the removed secret stands on a line of its own as a pasted block does, and what
 * the owner asks about the secret alone ("don't store that") is no request to forget the rest of the message.
 */

const marker = secretMarker.replace(/[[\]]/g, '\\$&');

/**
 * The machine text a secret was part of: the fields of a connection string ("Server=…;User ID=sa;Password=<secret>;"),
 * the key it was assigned to ("STRIPE_KEY=<secret>", "aws_secret_access_key = <secret>"), the URL around it
 * ("redis://:<secret>@cache:6379/0"). None of it is the owner's words; left behind, it joins the line after it into a
 * paste ("DATABASE_URL=" and "cache:6379/0" read as a file's fields).
 */
const connectionField = String.raw`[A-Za-z]\w*(?: [A-Za-z]\w*)?=[^;\s]*;`;
const inConnectionString = new RegExp(String.raw`(?:${connectionField})*[A-Za-z]\w*(?: [A-Za-z]\w*)?=${marker};?(?:${connectionField}|[A-Za-z]\w*=[^;\s]*$)*`, 'gm');
const assignedTo = new RegExp(String.raw`(?:[\w.-]+[ \t]*=|[\w.-]*_[\w.-]*:)[ \t]*${marker}`, 'g');
const gluedTo = new RegExp(String.raw`[^\s"'«»“”(]*${marker}[^\s"'«»“”)]*`, 'g');

/** The secret on a line of its own, with the punctuation and the dash that set it off ("<secret> — I'm …"). */
const secretAlone = new RegExp(String.raw`\s*${marker}[^\s\p{L}\p{N}]*\s*(?:[—–-]+\s*)?`, 'gu');

const beforeAField = new RegExp(String.raw`${marker}\n\n(?=[ \t]*[\w.-]{1,30}[ \t]*[:=](?!\/\/)[ \t]*\S)`, 'g');

/** The words that say what a removed secret was, left at the head of the line after it ("is my GitHub token,"). */
const aboutTheSecret = /^\s*(?:is|was|are)\s+(?:my|our|the|a)\s+(?:[\w-]+\s+){0,3}?(?:token|key|password|secret|string|credentials?|dsn|url)s?\b[,.;:]?[ \t]*/gim;

/**
 * A sentence that holds a removed secret and asks that it not be kept ("The staging password is <secret> — please
 * don't store that anywhere", "Don't save this key: <secret>"): the request is about the secret, already gone, and
 * not about what the owner says of themselves in the other sentences.
 */
const keepItOut = new RegExp(String.raw`[^.!?\n]*${marker}[^.!?\n]*`, 'g');
const notKept = /\b(?:do(?:n[’']?t| not)|never) (?:remember|save|store|keep|log|write down|share|commit)\s+(?:that|it|this|them|those|these|the (?:key|token|password|secret)s?|this (?:key|token|password|secret))\b/i;

/** The message without the sentences that ask only that its secret not be kept: what the gates judge. */
export function withoutSecretsOptOut(redacted: string): string {
  return redacted.replace(keepItOut, (sentence) => (notKept.test(sentence) ? ' ' : sentence));
}

/** The text of a message whose secrets were removed, with each removed secret apart from the owner's words. */
export function apartFromSecrets(redacted: string): string {
  return redacted
    .replace(inConnectionString, secretMarker)
    .replace(assignedTo, secretMarker)
    .replace(gluedTo, secretMarker)
    .replace(secretAlone, `\n${secretMarker}\n\n`)
    // Between two fields of a pasted file, the removed one leaves the file whole ("TZ=UTC" after it is the file's too).
    .replace(beforeAField, `${secretMarker}\n`)
    .replace(aboutTheSecret, '');
}
