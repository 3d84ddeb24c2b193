/**
 * The secret shapes no maintained pattern set covers, because they are not one provider's token format but
 * the ways people write credentials down: assignments, `.env` lines, HTTP auth headers, JWTs, credentials in
 * URLs, "my password is …". Provider tokens (AWS, GitHub, GitLab, Slack, Stripe, OpenAI, PEM keys, …) come
 * from secretlint's recommended rules (see secrets.ts); a few of them are repeated here because secretlint
 * accepts only their exact current lengths and people paste older or shortened ones.
 *
 * Each pattern matches only the secret itself (lookbehinds keep the key name readable: `password=[secret removed]`).
 */

/**
 * A key name ending in a word that makes its value a secret, in any case: `DB_PASSWORD=`, `"apiKey":`, `client-secret =`.
 * It must end there: `token_count: 5` and `maxTokens: 4096` are not secrets.
 */
const secretKey = String.raw`[A-Za-z0-9_.-]*?(?:password|passwd|pwd|passphrase|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|secret[_-]?key|auth[_-]?key|signing[_-]?key|encryption[_-]?key|master[_-]?key|session[_-]?key)`;
/** A value: quoted (anything up to the closing quote) or bare (up to whitespace, a comma or a semicolon). */
const value = String.raw`(?:"[^"\n]+"|'[^'\n]+'|[^\s"',;]+)`;

export const ownSecretPatterns: readonly RegExp[] = [
  // KEY=value, key: value, "key": "value", key => value, in any case and spacing.
  new RegExp(String.raw`(?<=\b${secretKey}["']?\s*(?:=>|=|:)\s*)${value}`, 'gi'),
  // "my password is hunter2", "the api key was …".
  /(?<=\b(?:password|passwd|passphrase|pass code|pin|api[ _-]?key|secret key|access token|api token|auth token|token)\s+(?:is|was)\s+)\S+/gi,
  // HTTP authorization, with or without the header name.
  /(?<=\bauthorization\s*[:=]\s*(?:(?:bearer|basic|token|digest|bot|apikey)\s+)?)(?!(?:bearer|basic|token|digest|bot|apikey)\b)[A-Za-z0-9\-._~+/=]{6,}/gi,
  /(?<=\b(?:bearer|basic)\s+)[A-Za-z0-9\-._~+/]{12,}=*/gi,
  // JSON Web Tokens: header.payload[.signature], each part base64url.
  /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.?[A-Za-z0-9_-]*/g,
  // Credentials in a URL of any scheme: postgres://app:secret@host, https://user:pass@host.
  /(?<=\b[a-z][a-z0-9+.-]*:\/\/)[^\s/:@]+:[^\s/@]+(?=@)/gi,
  // Keys whose exact lengths change: OpenAI-style sk- and sk-proj-, GitHub, AWS ids, Slack, Google, Stripe.
  /\bsk-(?:proj-|ant-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}/g,
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{12,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bglpat-[A-Za-z0-9_-]{16,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  /\bAIza[0-9A-Za-z_-]{30,}/g,
  /\b[a-z]{2,8}_(?:live|test)_[A-Za-z0-9]{8,}/g,
  // PEM private keys, also cut off before their END line.
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
];
