/**
 * Secrets found by meaning rather than by one provider's format: the generic rules secret scanners such as
 * gitleaks (`generic-api-key`, `curl-auth-user`) and detect-secrets (`KeywordDetector`, the high-entropy string
 * plugins) apply, rewritten for prose and code pasted into a chat. A value is a secret when what names it says so
 * (a key, flag or header whose name ends in a credential word) or when it is random-looking text beside such a
 * word. What is clearly not a value (a type name, a placeholder, a variable, a function call, a sentence that
 * goes on in words) is left alone, so ordinary code and prose pass unchanged.
 *
 * Each rule returns [start, end) ranges of the secret itself: the name stays readable (`DB_PASS=[secret removed]`).
 */

export type Range = [number, number];

/** Names that make their value a secret on their own, compared with the name's separators removed, lowercased. */
const strongEndings = [
  'password', 'passwd', 'passphrase', 'passcode', 'secret', 'token', 'apikey', 'accesskey', 'privatekey', 'secretkey',
  'authkey', 'signingkey', 'encryptionkey', 'masterkey', 'sessionkey', 'accountkey', 'sharedaccesskey',
  'sharedaccesssignature', 'clientsecret', 'authtoken', 'credentials', 'phpsessid', 'jsessionid',
];
/** Short credential words that count only as a whole part of the name (`DB_PASS`, `mysqlPwd`): `bypass`, `compass` do not. */
const strongParts = new Set(['pass', 'pwd', 'pw', 'auth', 'sid', 'pat', 'psk']);
/** Names whose values are secrets only when they look random (`APP_KEY`, but not `sortKey: "createdAt"`). */
const weakParts = new Set(['key', 'session', 'cookie', 'signature', 'sig', 'license']);

/** Words a value may be without being a secret: literals, types, options, and what people write in their place. */
const notValues = new Set([
  'true', 'false', 'null', 'nil', 'none', 'undefined', 'yes', 'no', 'on', 'off', 'empty', 'required', 'optional', 'string', 'str',
  'number', 'int', 'integer', 'bool', 'boolean', 'any', 'object', 'unknown', 'bytes', 'buffer', 'secret', 'password', 'token', 'text',
  'include', 'omit', 'same-origin', 'hidden', 'masked', 'redacted', 'default', 'env', 'file', 'stdin', 'prompt', 'value', 'blank',
  'basic', 'bearer', 'digest', 'oauth', 'oauth2', 'jwt', 'sha256', 'md5', 'bcrypt', 'argon2',
]);

type Kind = 'strong' | 'weak' | undefined;

/** Whether a name (a key, a flag, an environment variable) calls its value a secret, strongly or only if it looks random. */
export function credentialKind(name: string): Kind {
  const parts = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  if (parts.length === 0) return undefined;
  const joined = parts.join('');
  if (strongEndings.some((ending) => joined.endsWith(ending))) return 'strong';
  const last = parts[parts.length - 1];
  if (strongParts.has(last)) return 'strong';
  if (weakParts.has(last) || joined.endsWith('key') || joined.endsWith('sessionid')) return 'weak';
  return undefined;
}

/** Shannon entropy in bits per character. */
export function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/**
 * Random-looking: long enough, letters and digits mixed, the entropy of a generated string (hex has less), and not
 * made of words (`cl100kTokenCounter`, `node_modules/typescript4`) nor a path or an address.
 */
export function looksRandom(value: string): boolean {
  if (value.length < 16 || !/\d/.test(value) || !/[A-Za-z]/.test(value)) return false;
  if (/:\/\/|^(?:~|\.{1,2})?\/|\.(?:com|org|net|io|ts|js|json|md|py|txt)$/i.test(value)) return false;
  const inWords = (value.match(/[A-Z]?[a-z]{3,}/g) ?? []).reduce((sum, word) => sum + word.length, 0);
  if (inWords * 2 >= value.length) return false;
  return entropy(value) >= (/^[0-9a-f-]+$/i.test(value) ? 3 : 3.5);
}

/** A value that is code or a placeholder, not a credential: `$DB_PASS`, `<your token>`, `process.env.X`, `getToken()`. */
function isPlaceholderOrCode(value: string, after: string): boolean {
  const bare = value.replace(/^["'`]|["'`]$/g, '');
  if (bare.length === 0 || notValues.has(bare.replace(/[.,!?]+$/, '').toLowerCase())) return true;
  // A template literal or a backticked span of Markdown (`PASSWORD=` in a sentence) is code, not a value.
  if (value.startsWith('`') && /\$\{|\s/.test(bare)) return true;
  if (/^(?:\$\{?|\{\{|<|%\(|\*{3,}|x{4,}$|\.{3}|\[secret removed\])/i.test(bare)) return true;
  if (/^(?:\/|~\/|\.\.?\/)[\w./-]*$/.test(bare)) return true; // a path: `pwd: /home/me/project`
  if (/^(?:[A-Za-z_$][\w$]*)(?:\.[A-Za-z_$][\w$]*)+$/.test(bare) && !/\d/.test(bare)) return true; // config.db.password
  if (/^\(/.test(after) || /^[A-Za-z_$][\w$]*\[/.test(bare)) return true; // getPassword(), os.environ["X"]
  return false;
}

/**
 * Whether a bare word after `name:` or `--name` starts a sentence or a list ("Token: the lexer emits one per word",
 * "secret: literals, types", "use the --token flag or …") rather than being a value. After `=` a word is a value.
 */
function isProse(value: string, separator: string, after: string): boolean {
  return separator !== '=' && /^[A-Za-z]+$/.test(value) && /^,? +[A-Za-z]/.test(after) && !/[A-Z].*[A-Z]/.test(value.slice(1));
}

function acceptValue(kind: Kind, value: string, separator: string, after: string): boolean {
  if (!kind || isPlaceholderOrCode(value, after)) return false;
  const bare = value.replace(/^["'`]|["'`]$/g, '');
  if (kind === 'weak') return looksRandom(bare);
  if (isProse(value, separator, after)) return false;
  // A short number is a count or an option (`pwd: 0`, `token: 1`), not a credential; nor is a letter or two.
  return !/^\d{1,3}$/.test(bare) && bare.length >= 3;
}

/**
 * A value: quoted up to its closing quote, or bare up to whitespace, a comma, a semicolon, a bracket, or the `&`
 * of the next query parameter (an `&` inside a password stays part of it).
 */
const valuePattern = String.raw`"[^"\n]{1,300}"|'[^'\n]{1,300}'|\`[^\`\n]{1,300}\`|(?:[^\s"'\`,;<>()\[\]{}&]|&(?![\w.-]+=)){1,300}`;

/** `KEY=value`, `key: value`, `"key": "value"`, `key => value`, `key := value`, `Password=x;` in a connection string. */
const assignment = new RegExp(String.raw`(?<![\w.-])([A-Za-z][\w.-]{0,80}?)(["']?)[ \t]*(=>|:=|=|:)[ \t]*(${valuePattern})`, 'dg');
/** `--password=x`, `--api-key x`, `--http-password x` (a value that is not the next flag). */
const flag = new RegExp(String.raw`(?<=\s|^)--?([A-Za-z][\w-]{0,40})(?:=|[ \t]+)(?!-)(${valuePattern})`, 'dg');
/** `mysql -u root -pS3cret`: the password glued to -p (a lone -p prompts for it). */
const mysqlPassword = /\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlsh|mariadb(?:-dump|-admin)?)\b[^\n|;&]*?\s-p(?!\s)("[^"\n]+"|'[^'\n]+'|[^\s'"\`)]+)/dg;
/** `curl -u user:pw`, `--user user:pw`, `sshpass -p pw`. */
const userColonPassword = /\b(?:curl|wget|http|https|xh|httpie|lftp)\b[^\n|;&]*?\s(?:-u|--user|--proxy-user|-U)[ \t]*=?["']?[^\s:'"]*:([^\s'"]+)/dg;
const sshpass = /\bsshpass\s+-p\s*("[^"\n]+"|'[^'\n]+'|\S+)/dg;
/** Credentials in a URL, with or without a user: `postgres://app:pw@db`, `redis://:pw@cache`. */
const urlPassword = /\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@]*:([^\s/@]+)(?=@)/dgi;
/** A token as the URL's user: `https://ghp_…@github.com`, a Sentry DSN. */
const urlUserToken = /\b[a-z][a-z0-9+.-]*:\/\/([^\s/:@]{16,})(?=@)/dgi;
/** `Set-Cookie: session=…` (the cookie, not its attributes) and every value of a `Cookie:` header. */
const cookieHeader = /\b(Set-Cookie|Cookie)[ \t]*:[ \t]*([^\r\n]*)/dgi;
const cookieAttributes = new Set(['path', 'domain', 'expires', 'max-age', 'samesite', 'secure', 'httponly', 'priority', 'partitioned', 'version', 'comment']);
/**
 * A random-looking run next to a credential word: "the deploy key 9f8e7d6c…", "token for prod: ab12…". Runs are
 * found first (long, with a digit: rare in prose), then the few words before each are read back for the word.
 */
const randomRun = /(?<![A-Za-z0-9+/=_.~-])(?=[A-Za-z+/=_.~-]*\d)[A-Za-z0-9+/=_.~-]{16,}/g;
const credentialWordBefore = /\b(?:passwords?|passwd|passphrase|secrets?|tokens?|keys?|api[ _-]?keys?|credentials?|creds|auth|pat|license)\b(?:[ \t]+[\w'-]{1,12}){0,3}[ \t]*[:=]?[ \t]*["'`]?$/i;

function randomNextToWordRanges(text: string): Range[] {
  const ranges: Range[] = [];
  randomRun.lastIndex = 0;
  for (let match = randomRun.exec(text); match; match = randomRun.exec(text)) {
    const run = match[0].replace(/[.=]+$/, '');
    if (!looksRandom(run)) continue;
    const lineStart = text.lastIndexOf('\n', match.index - 1) + 1;
    const before = text.slice(Math.max(lineStart, match.index - 64), match.index);
    if (credentialWordBefore.test(before)) ranges.push([match.index, match.index + match[0].length]);
  }
  return ranges;
}

/** "my password is hunter2", "the api key was …": the word after it, unless it describes the password instead. */
const saidToBe = /\b(?:password|passwd|passphrase|pass code|pin|api[ _-]?key|secret key|access token|api token|auth token|token)\s+(?:is|was)\s+("[^"\n]{1,200}"|'[^'\n]{1,200}'|\S+)/dgi;
const describingWords = new Set([
  'a', 'an', 'the', 'not', 'no', 'now', 'still', 'also', 'too', 'very', 'so', 'being', 'in', 'on', 'at', 'for', 'from', 'of', 'set', 'unset',
  'wrong', 'invalid', 'expired', 'correct', 'incorrect', 'missing', 'empty', 'required', 'weak', 'strong', 'long', 'short', 'secure',
  'safe', 'fine', 'ok', 'okay', 'stored', 'saved', 'changed', 'reset', 'there', 'here', 'same', 'different', 'private', 'public', 'mine',
  'new', 'old', 'valid', 'gone', 'revoked', 'rotated', 'hashed', 'encrypted', 'sent', 'passed', 'used', 'needed', 'shown', 'null',
  'undefined', 'none', 'blank', 'only', 'just', 'never', 'always', 'usually', 'what', 'how', 'where', 'why', 'that', 'this', 'it',
]);

function saidToBeAccepted(word: string, after: string): boolean {
  if (/^(["']).+\1$/.test(word)) return true; // quoted: "the passphrase is 'correct horse battery staple'"
  const bare = word.replace(/[.,;:!?)"'`]+$/, '').replace(/^["'`(]+/, '');
  if (bare.length < 3 || describingWords.has(bare.toLowerCase())) return false;
  // A plain word is a password only when it ends the clause ("my password is swordfish."), not when a sentence goes
  // on ("the token is expected in the header").
  return /[^A-Za-z]/.test(bare) || bare !== word || !/^[ \t]+[A-Za-z]/.test(after);
}

function groupRanges(text: string, pattern: RegExp, group: number, accept: (match: RegExpExecArray) => boolean = () => true): Range[] {
  const ranges: Range[] = [];
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const span = match.indices?.[group];
    if (span && span[1] > span[0] && accept(match)) ranges.push(unquoted(text, span));
    // A refused match may hold the start of another inside its value (`https://host/?api_key=…`): look again there.
    else if (span && span[0] > match.index) pattern.lastIndex = span[0];
    if (match[0].length === 0) pattern.lastIndex++;
  }
  return ranges;
}

/** The range without the quotes around a quoted value. */
function unquoted(text: string, [start, end]: [number, number]): Range {
  const first = text[start];
  if (end - start >= 2 && (first === '"' || first === "'" || first === '`') && text[end - 1] === first) return [start + 1, end - 1];
  return [start, end];
}

function cookieRanges(text: string): Range[] {
  const ranges: Range[] = [];
  cookieHeader.lastIndex = 0;
  for (let match = cookieHeader.exec(text); match; match = cookieHeader.exec(text)) {
    const setCookie = match[1].toLowerCase() === 'set-cookie';
    const [valuesStart] = match.indices?.[2] ?? [0];
    let offset = valuesStart;
    for (const [index, pair] of match[2].split(';').entries()) {
      const equals = pair.indexOf('=');
      const name = pair.slice(0, equals).trim().toLowerCase();
      const value = pair.slice(equals + 1).trim();
      // A session cookie is random; `theme=dark` is not worth hiding.
      const secretLooking = credentialKind(name) === 'strong' || (value.length >= 8 && /\d/.test(value)) || value.length >= 16;
      if (equals > 0 && secretLooking && (!setCookie || index === 0) && !cookieAttributes.has(name)) {
        const start = offset + equals + 1 + (pair.slice(equals + 1).length - pair.slice(equals + 1).trimStart().length);
        ranges.push([start, start + value.length]);
      }
      offset += pair.length + 1;
    }
  }
  return ranges;
}

/** The few characters after a match: enough to tell a value from the first word of a sentence. */
function following(text: string, match: RegExpExecArray): string {
  const end = match.index + match[0].length;
  return text.slice(end, end + 3);
}

/** Every range the generic rules find in the text. */
export function credentialRanges(text: string): Range[] {
  return [
    ...groupRanges(text, assignment, 4, (m) => acceptValue(credentialKind(m[1]), m[4], m[3], following(text, m))),
    ...groupRanges(text, flag, 2, (m) => acceptValue(credentialKind(m[1]), m[2], m[0].includes('=') ? '=' : ' ', following(text, m))),
    ...groupRanges(text, mysqlPassword, 1),
    ...groupRanges(text, userColonPassword, 1, (m) => !isPlaceholderOrCode(m[1], '')),
    ...groupRanges(text, sshpass, 1, (m) => !isPlaceholderOrCode(m[1], '')),
    ...groupRanges(text, urlPassword, 1, (m) => !isPlaceholderOrCode(m[1], '')),
    ...groupRanges(text, urlUserToken, 1, (m) => looksRandom(m[1])),
    ...cookieRanges(text),
    ...groupRanges(text, saidToBe, 1, (m) => saidToBeAccepted(m[1], following(text, m))),
    ...randomNextToWordRanges(text),
  ];
}
