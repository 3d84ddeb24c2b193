/**
 * Secret shapes people paste into a chat, each with the secret part that must never reach the disk. The
 * values are made up (no real credential) but shaped like real ones, with the lengths providers issue. The
 * first 21 are the classic ones; the rest are those a scan of the store found raw (credential-named keys,
 * command-line flags, URL userinfo without a user, connection strings, cookies, providers secretlint lacks).
 */
export interface SecretShape {
  readonly name: string;
  readonly text: string;
  /** The part of the text that must be gone from every file of the store. */
  readonly secret: string;
}

const jwt = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJwcml5YSIsImlhdCI6MTcxNjIzOTAyMn0.Qm9ndXNTaWduYXR1cmVGb3JUZXN0czEyMzQ1';
const azureKey = 'sE95yI+OOHaz0C0atm/Ks4NRLYLw7JdDgrjQFRXHG2jjyPo82Ez2u09pX/Zwnr4zbPiIOvQD5yY4xXhzI3jGxw==';
const serviceBusKey = 'aAOFxrpzUNo1J5u4QInZMj+bV7ABuwOL0Bvssdk0Nk0=';
const discordToken = 'MTA5ODc2NTQzMjEwOTg3NjU0Mw.GhT5yK.abcdEFGHijklMNOPqrstUVWXyz01234567';
const telegramToken = '7123456789:AAH7xKq2LmN9pQrStUvWxYz0123456789ab';
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
  { name: 'a quoted passphrase of words', text: "my ssh passphrase is 'correct horse battery staple' and ssh-add fails", secret: 'correct horse battery staple' },
  { name: 'DB_PASS= (PASS alone)', text: 'in .env: DB_PASS=Zx9kL2pQw7 and DB_HOST=db', secret: 'Zx9kL2pQw7' },
  { name: 'MYSQL_PWD=', text: 'MYSQL_PWD=wq7Rt5yUi0 mysql -u app', secret: 'wq7Rt5yUi0' },
  { name: 'REDIS_AUTH=', text: 'REDIS_AUTH=r3disAuthV4lue', secret: 'r3disAuthV4lue' },
  { name: 'PGPASSWORD before a command', text: 'PGPASSWORD=pgS3cretVal psql -h db.internal app', secret: 'pgS3cretVal' },
  { name: 'APP_KEY (a random value after KEY)', text: 'APP_KEY=base64:Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZg==', secret: 'Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZg==' },
  { name: 'client_secret: in YAML', text: 'oauth:\n  client_id: web\n  client_secret: 8Jk2mP9qRsT4', secret: '8Jk2mP9qRsT4' },
  { name: 'x-api-key header', text: 'curl -H "x-api-key: 4f9a2b7c1d8e3f6a5b0c" https://api.example.org/v1', secret: '4f9a2b7c1d8e3f6a5b0c' },
  { name: 'api_key in a query string', text: 'GET https://api.example.org/v1/items?api_key=abc123XYZ789def&limit=5', secret: 'abc123XYZ789def' },
  { name: '--password=', text: 'pg_dump --password=Pg5ecretPass --host db app', secret: 'Pg5ecretPass' },
  { name: '--password VALUE', text: 'docker login --password D0ckerPassw0rd -u priya registry.example.org', secret: 'D0ckerPassw0rd' },
  { name: 'mysql -pPASSWORD', text: 'mysql -u root -pS3cretMy app_db < dump.sql', secret: 'S3cretMy' },
  { name: 'curl -u user:pw', text: 'curl -u alice:Curl5ecretPw https://api.example.org/status', secret: 'Curl5ecretPw' },
  { name: 'sshpass -p', text: "sshpass -p 'Ssh9assWd' ssh deploy@host", secret: 'Ssh9assWd' },
  { name: 'URL password with an empty user', text: 'REDIS_URL=redis://:R3disPw0rd@cache.internal:6379/0', secret: 'R3disPw0rd' },
  { name: 'mongodb+srv URL', text: 'mongodb+srv://admin:M0ngoPassw@cluster0.example.net/app', secret: 'M0ngoPassw' },
  { name: 'a token as the URL user (Sentry DSN)', text: 'SENTRY_DSN=https://288d46a9d537fdb494a19ae167a9e202@o123456.ingest.sentry.io/42', secret: '288d46a9d537fdb494a19ae167a9e202' },
  { name: 'Azure Storage AccountKey', text: `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${azureKey};EndpointSuffix=core.windows.net`, secret: azureKey },
  { name: 'SQL Server Password= in a connection string', text: 'Server=tcp:db.example.net,1433;Database=app;User ID=sa;Password=Sq1Serv3rPw;Encrypt=true', secret: 'Sq1Serv3rPw' },
  { name: 'Service Bus SharedAccessKey', text: `Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${serviceBusKey}`, secret: serviceBusKey },
  { name: 'Azure SAS signature', text: 'https://acme.blob.core.windows.net/c/f.txt?sv=2022-11-02&ss=b&sig=8%2FFaI%2BQ%2FE4js5FwvALpBv9KSCyJ51ANwdlX2FTwRQgU%3D', secret: '8%2FFaI%2BQ%2FE4js5FwvALpBv9KSCyJ51ANwdlX2FTwRQgU%3D' },
  { name: 'Azure AD client secret', text: 'the app secret is abc8Q~Zx1yW2vU3tS4rQ5pO6nM7lK8jI9hG0fE1d', secret: 'abc8Q~Zx1yW2vU3tS4rQ5pO6nM7lK8jI9hG0fE1d' },
  { name: 'Discord bot token', text: `client.login('${discordToken}')`, secret: discordToken },
  { name: 'Telegram bot token', text: `the bot answers at https://api.telegram.org/bot${telegramToken}/getMe`, secret: telegramToken },
  { name: 'Twilio API key', text: 'twilio key SK19cd6b9d77137119b5646b642b508748 for sms', secret: 'SK19cd6b9d77137119b5646b642b508748' },
  { name: 'Twilio auth token in prose', text: 'our twilio auth token 139ff7f122f60bde2e39c72d823f7c5f stopped working', secret: '139ff7f122f60bde2e39c72d823f7c5f' },
  { name: 'Set-Cookie: session=', text: 'the response had Set-Cookie: session=Zm9vYmFyMTIzNDU2; Path=/; HttpOnly', secret: 'Zm9vYmFyMTIzNDU2' },
  { name: 'Cookie: sessionid=', text: 'Cookie: sessionid=q8w7e6r5t4y3u2i1; theme=dark', secret: 'q8w7e6r5t4y3u2i1' },
  { name: 'a random string next to "key"', text: 'the deploy key for staging: f430abbb65237fb165fa7e010bcdcf51', secret: 'f430abbb65237fb165fa7e010bcdcf51' },
  { name: 'Mailgun key-', text: 'mailgun uses key-28f0bfcd77809cbcebe6c88968467645', secret: 'key-28f0bfcd77809cbcebe6c88968467645' },
  { name: 'DigitalOcean token', text: 'doctl auth init -t dop_v1_fca0caf053b9bb4a50028a1d8d98219bee4122ae99823a14e477d49f91afa144', secret: 'dop_v1_fca0caf053b9bb4a50028a1d8d98219bee4122ae99823a14e477d49f91afa144' },
  { name: 'Google OAuth client secret', text: '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 is in credentials.json', secret: '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' },
];

/**
 * Lines of ordinary code and prose full of the words secrets hide behind (password, token, key, secret, pass,
 * auth, session, cookie): each must come back from the redactor unchanged.
 */
export const harmlessLines: readonly string[] = [
  'the token_count is 5 and maxTokens: 4096, fetch(url, { credentials: "include" })',
  'interface User { id: string; password: string; apiKey?: string }',
  'const password = req.body.password;',
  'const token = jwt.sign(payload, secretKey);',
  'apiKey: process.env.OPENAI_API_KEY,',
  'primaryKey: true, sortKey: "createdAt", cacheKey = `user:${id}`',
  'Run `docker login --password-stdin` or `mysql -u root -p` (it prompts for the password).',
  'git commit 5289871a4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f fixed the flaky test',
  'my password is wrong, so the login fails',
  'the token is expected in the Authorization header',
  'Token: the lexer emits one per word.',
  'Secret: keep the public API small.',
  'pwd: /home/priya/project',
  'bypass: true, compass: north',
  'listening on http://localhost:3000 and cloning ssh://git@github.com/org/repo.git',
  'Time: 12:30:45, key: value, keyboard layout: dvorak',
  'The session id is in the cookie; Set-Cookie headers are sent by the server.',
  'uuid 550e8400-e29b-41d4-a716-446655440000 is the request id',
  'sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  'pass the key to the function: encrypt(data, key)',
  'SELECT password_hash FROM users WHERE id = 42',
  'Use the --token flag or set GITHUB_TOKEN in your environment.',
  'The API key should be passed as a header, never in the URL.',
  'JWT tokens expire after 15 minutes; refresh tokens after 30 days.',
  'in .env set DATABASE_URL=postgres://localhost/app',
  'Basic authentication is supported; Bearer tokens are preferred.',
  'curl -u "$USER:$TOKEN" https://api.example.org',
  'password: ${DB_PASSWORD}, token: <your token here>, secret: ********',
  'Cookie: theme=dark; lang=en',
  'the key is in /usr/local/lib/node_modules/typescript/lib/typescript.js',
  "if (auth === undefined) throw new Error('no auth');",
  'tests_pass: 42, pass: 120, tokens: 1200',
  'The password must be at least 12 characters and the PIN 4 digits.',
];
