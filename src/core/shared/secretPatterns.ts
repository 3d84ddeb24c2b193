/**
 * Secret shapes by their form: HTTP auth headers, JWTs, and provider tokens secretlint's
 * recommended rules do not cover (Discord, Twilio, Telegram, Azure, Mailgun, DigitalOcean and more, with the
 * formats gitleaks' rules give them). A few secretlint does cover are repeated because it accepts only their exact
 * current lengths and people paste older or shortened ones. Credentials named by what is around them (assignments,
 * flags, URLs, cookies, "my password is …") are found by credentialRules.ts.
 *
 * Each pattern matches only the secret itself (lookbehinds keep the name readable: `Bearer [secret removed]`).
 */

export const ownSecretPatterns: readonly RegExp[] = [
  // HTTP authorization, with or without the header name.
  /(?<=\bauthorization\s*[:=]\s*(?:(?:bearer|basic|token|digest|bot|apikey|ssws)\s+)?)(?!(?:bearer|basic|token|digest|bot|apikey|ssws)\b)[A-Za-z0-9\-._~+/=]{6,}/gi,
  // A bare "Bearer …" / "Basic …" needs a digit in the token: "Basic authentication" is a phrase, not a credential.
  /(?<=\b(?:bearer|basic|ssws)\s+)(?=[A-Za-z\-._~+/]*\d)[A-Za-z0-9\-._~+/]{12,}=*/gi,
  // JSON Web Tokens: header.payload[.signature], each part base64url.
  /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.?[A-Za-z0-9_-]*/g,
  // Keys whose exact lengths change: OpenAI-style sk- and sk-proj-, GitHub, AWS ids, Slack, Google, Stripe.
  /\bsk-(?:proj-|ant-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}/g,
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{12,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bglpat-[A-Za-z0-9_-]{16,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  /\bAIza[0-9A-Za-z_-]{30,}/g,
  /\b[a-z]{2,8}_(?:live|test)_[A-Za-z0-9]{8,}/g,
  // Discord bot tokens (user id in base64, a timestamp, an HMAC) and webhook URLs.
  /\b[MNO][A-Za-z\d_-]{23,27}\.[A-Za-z\d_-]{6}\.[A-Za-z\d_-]{27,40}\b/g,
  /(?<=\bdiscord(?:app)?\.com\/api\/webhooks\/\d{6,}\/)[A-Za-z0-9_-]{40,}/g,
  // Telegram bot tokens: the bot's id, a colon, 35 characters starting with A.
  /(?<!\d)\d{5,16}:A[A-Za-z0-9_-]{34}(?![A-Za-z0-9_-])/g,
  // Twilio API keys (SK…) and auth tokens named as such.
  /\bSK[0-9a-fA-F]{32}\b/g,
  /(?<=\btwilio\b[^\n]{0,40}?\b(?:auth[ _-]?)?token\b\W{0,3})[0-9a-f]{32}\b/gi,
  // Azure: AD client secrets, and the signature of a shared access (SAS) URL.
  /\b[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g,
  /(?<=[?&]sig=)[A-Za-z0-9%+/=]{20,}/g,
  // Mailgun, Mailchimp, Square, PyPI, DigitalOcean, Postman, Doppler, Supabase, Pulumi, New Relic, Google OAuth.
  /\bkey-[0-9a-f]{32}\b/g,
  /\b[0-9a-f]{32}-us\d{1,2}\b/g,
  /\bsq0(?:atp|csp)-[0-9A-Za-z_-]{22,43}/g,
  /\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}/g,
  /\bdo[por]_v1_[a-f0-9]{64}\b/g,
  /\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b/g,
  /\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}\b/g,
  /\bsbp_[a-f0-9]{40}\b/g,
  /\bpul-[a-f0-9]{40}\b/g,
  /\bNRAK-[A-Z0-9]{27}\b/g,
  /\bGOCSPX-[A-Za-z0-9_-]{28}\b/g,
  /\bya29\.[0-9A-Za-z_-]{20,}/g,
  // Terraform Cloud, Atlassian, age, Firebase Cloud Messaging server keys, Heroku, Facebook.
  /\b[a-z0-9]{14}\.atlasv1\.[a-z0-9_-]{60,70}\b/g,
  /\bATATT3[A-Za-z0-9_=-]{100,}/g,
  /\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}\b/g,
  /\bAAAA[A-Za-z0-9_-]{7}:[A-Za-z0-9_-]{100,}/g,
  /\bHRKU-[A-Za-z0-9_-]{20,}/g,
  /\bEAA[A-Za-z0-9]{80,}/g,
  /(?<=\bhooks\.slack\.com\/services\/)T[A-Z0-9]+\/B[A-Z0-9]+\/[A-Za-z0-9]{16,}/g,
  // PEM private keys, also cut off before their END line.
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
];
