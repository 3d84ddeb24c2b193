/**
 * Secret shapes people paste into a chat, each with the secret part that must never reach the disk. The
 * values are made up (no real credential) but shaped like real ones, with the lengths providers issue.
 */
export interface SecretShape {
  readonly name: string;
  readonly text: string;
  /** The part of the text that must be gone from every file of the store. */
  readonly secret: string;
}

const jwt = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJwcml5YSIsImlhdCI6MTcxNjIzOTAyMn0.Qm9ndXNTaWduYXR1cmVGb3JUZXN0czEyMzQ1';
const pemBody = Array.from({ length: 6 }, (_, i) => `MIIEow${i}BAAKCAQEA7Jt3kX9qLmN0pQrStUvWxYz0123456789abcdefghijklmnopq`).join('\n');

export const secretShapes: readonly SecretShape[] = [
  { name: 'password= without spaces', text: 'the db config has password=hunter2 in it', secret: 'hunter2' },
  { name: 'JWT, bare', text: `the session cookie is ${jwt} today`, secret: jwt },
  { name: 'JWT after token:', text: `my token: ${jwt}`, secret: jwt },
  { name: 'Authorization: Bearer', text: 'curl -H "Authorization: Bearer 9f8e7d6c5b4a39281726354abcdef" https://api.example.org', secret: '9f8e7d6c5b4a39281726354abcdef' },
  { name: 'credentials in a postgres URL', text: 'connect with postgres://app:Zq8secretW0rd@db.internal:5432/app', secret: 'Zq8secretW0rd' },
  { name: 'AWS access key id', text: 'aws key AKIAQ3EGRTLMN4XYZ7PA for the bucket', secret: 'AKIAQ3EGRTLMN4XYZ7PA' },
  { name: 'AWS secret access key', text: 'aws_secret_access_key = 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', secret: 'h7Fq2Lk9Xz3Wm5Np8Rt1Vb6Yc4Jd0Gs2Hu7Ke9Qw' },
  { name: 'GitHub token', text: 'use ghp_R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf12 to push', secret: 'ghp_R4nd0mT0k3nV4lu3F0rT3st1ngAbCdEf12' },
  { name: 'GitLab token', text: 'GITLAB glpat-Xy9wV8uT7sR6qP5oN4mL is the CI token', secret: 'glpat-Xy9wV8uT7sR6qP5oN4mL' },
  { name: 'Slack token', text: 'the bot uses xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx', secret: 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx' },
  { name: 'Stripe key', text: 'charge with sk_live_51HqLyjWDarjtT1zdp7dcXyZ', secret: 'sk_live_51HqLyjWDarjtT1zdp7dcXyZ' },
  { name: 'sk- key', text: 'OPENAI key sk-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z', secret: 'sk-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z' },
  { name: 'sk-proj- key', text: 'new key sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zT3BlbkFJ', secret: 'sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zT3BlbkFJ' },
  { name: 'PEM private key', text: `-----BEGIN RSA PRIVATE KEY-----\n${pemBody}\n-----END RSA PRIVATE KEY-----`, secret: pemBody },
  { name: 'TOKEN= assignment', text: 'export GH_TOKEN=tok3nValue42abc', secret: 'tok3nValue42abc' },
  { name: 'Secret : assignment, spaced, mixed case', text: 'Client_Secret : "s3cr3t-Value-77"', secret: 's3cr3t-Value-77' },
  { name: 'api_key in JSON', text: '{"api_key": "k9v8b7n6m5"}', secret: 'k9v8b7n6m5' },
  { name: '.env lines', text: 'my .env:\nDATABASE_PASSWORD=Pa55w0rdEnv\nSESSION_SECRET=envS3cretZ', secret: 'Pa55w0rdEnv' },
  { name: 'basic-auth URL', text: 'clone https://bob:Hunter2Url@git.example.org/repo.git', secret: 'Hunter2Url' },
  { name: 'Authorization: Basic', text: 'Authorization: Basic Ym9iOnNlY3JldHBhc3N3b3Jk', secret: 'Ym9iOnNlY3JldHBhc3N3b3Jk' },
  { name: 'password is …', text: 'my password is Tr0ub4dor&3 do not share', secret: 'Tr0ub4dor&3' },
];
