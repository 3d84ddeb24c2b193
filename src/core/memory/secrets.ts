/**
 * Secrets are never stored: not as facts, and not in the recorded conversation either. These patterns
 * cover the shapes people paste most (provider keys, tokens, private keys, "password is …").
 */

const secretPatterns: readonly RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{12,}/g, // OpenAI-style keys
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{12,}/g, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g, // AWS access key ids
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, // Slack tokens
  /\bAIza[0-9A-Za-z_-]{30,}/g, // Google API keys
  /\b[a-z]{2,8}_(?:live|test)_[A-Za-z0-9]{8,}/g, // Stripe-style live/test keys
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
  // The two shapes below end in "any word": never the marker an earlier pattern left ("token is [secret removed]").
  /\b(?:[A-Z][A-Z0-9]*_)*(?:TOKEN|SECRET|PASSWORD|API_KEY|APIKEY|ACCESS_KEY)[A-Z0-9_]*\s*=\s*(?!\[secret removed\])\S+/g, // FOO_TOKEN=...
  /\b(?:password|passwd|passphrase|pass code|pin|api[ _-]?key|secret key|access token|api token|auth token|token)\s+(?:is|was|=|:)\s*(?!\[secret removed\])\S+/gi,
];

export function containsSecret(text: string): boolean {
  return secretPatterns.some((pattern) => {
    pattern.lastIndex = 0;
    return pattern.test(text);
  });
}

/** The text with every secret replaced by a marker, so a conversation can be remembered without them. */
export function redactSecrets(text: string): string {
  let redacted = text;
  for (const pattern of secretPatterns) {
    pattern.lastIndex = 0;
    redacted = redacted.replace(pattern, '[secret removed]');
  }
  return redacted;
}
