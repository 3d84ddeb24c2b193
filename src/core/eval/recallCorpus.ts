/**
 * A generated, labelled corpus for measuring conversation recall: about 120 sessions of coding-assistant
 * talk over a year, and questions phrased differently from the turns that answer them, each labelled with
 * the refs of its evidence turns. Deterministic for a seed (mulberry32), so every run measures the same thing.
 *
 * It was written without reading the recall engine it scores. Each topic family recurs in several sessions
 * with other specifics (service, table, test file…), often with the same underlying cause, so the question's
 * specific name and the session around the evidence matter; some questions need the assistant's answer, some
 * a later follow-up session, some the most recent occurrence; distractor sessions talk about the same topics
 * in general terms and answer nothing.
 */

export interface RecallCorpusTurn {
  readonly session: string;
  readonly role: 'user' | 'assistant';
  readonly text: string;
  readonly at: string;
  readonly ref: string;
}

export interface RecallCorpusQuestion {
  readonly id: string;
  readonly query: string;
  /** Refs of the turns that answer the question. */
  readonly evidence: string[];
}

export interface RecallCorpus {
  readonly turns: RecallCorpusTurn[];
  readonly questions: RecallCorpusQuestion[];
}

/** mulberry32: a small, fast, seeded generator; the same seed gives the same corpus. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A question about one scenario: `e` indexes the scenario's turns (0 the report, 1 the diagnosis, 2 the follow-up ask, 3 the fix). */
interface QuestionTemplate {
  readonly q: string;
  readonly e: readonly number[];
}

interface Variant {
  /** What the user reports after the family's opening line. */
  readonly sym: string;
  /** The assistant's diagnosis. */
  readonly cause: string;
  /** The assistant's fix. */
  readonly fix: string;
  readonly qs: readonly QuestionTemplate[];
  /** The same problem coming back weeks later, in another session. */
  readonly follow?: { readonly u: string; readonly a: string; readonly q: string };
}

interface Family {
  readonly name: string;
  /** `as written in the turns|as a question names it` (the second part defaults to the first). */
  readonly keys: readonly string[];
  readonly opens: readonly string[];
  readonly asks: readonly string[];
  readonly variants: readonly Variant[];
  /** Asked of the family's most recent occurrence, without naming it. */
  readonly latest: QuestionTemplate;
}

interface Slots {
  readonly key: string;
  readonly keyQ: string;
  readonly n: number;
  readonly m: number;
  readonly big: number;
  readonly ver: string;
}

const services = [
  'payments-api', 'ledger-service', 'checkout-web', 'notifier', 'search-indexer', 'auth-gateway', 'billing-worker',
  'catalog-api', 'inventory-sync', 'reporting-etl', 'media-resizer', 'orders-api', 'shipping-quotes', 'profile-service',
  'webhooks-relay', 'analytics-collector',
];

const commonAsks = [
  'OK, that makes sense. What is the proper fix?',
  'Right. How would you fix it properly, not just patch over it?',
  'Got it. What should I change?',
  'Makes sense. What do you recommend?',
  'Ugh. And the clean way to sort it out?',
];

const closes = [
  'Done, and it has been clean for {n} days now.',
  'Applied it; {m} runs in a row without a problem so far.',
  'That did it, thanks. I will note it in the incident doc.',
  'Merged. I will keep an eye on it this week.',
  'Shipped the change this afternoon, looks good so far.',
];

const acks = [
  'Good. Worth adding a short note to the runbook so the next person finds it faster.',
  'Great. If it comes back, grab the logs from the first failure and we will look again.',
  'Nice. A regression test for this exact case would keep it from sneaking back.',
  'Glad it is sorted. Keep the investigation notes with the PR.',
];

const families: readonly Family[] = [
  {
    name: 'flaky-test',
    keys: [
      'checkout.spec.ts|checkout spec', 'invoice-totals.test.js|invoice-totals case', 'signup.e2e.ts|signup e2e',
      'test_cart_merge.py|cart merge check', 'search-suggest.spec.ts|search-suggest spec', 'OrderRepositoryTest.java|OrderRepositoryTest',
      'webhook-retry.test.ts|webhook-retry case', 'avatar-upload.spec.ts|avatar-upload spec',
    ],
    opens: [
      '{key} is flaky again: it failed {n} times in the last 20 CI runs and passes every time on my machine.',
      'Our CI keeps going red on {key}, roughly {n} out of 20 runs, and a re-run usually turns it green.',
    ],
    asks: ['How do I fix it without just adding retries?', 'I would rather not mark it as skipped. What is the real fix?'],
    variants: [
      {
        sym: 'The failures all happened on builds that started shortly after midnight UTC.',
        cause: 'That pattern points at dates. The fixture builds "today" with new Date() in local time while the assertion formats in UTC, so for the first hours after midnight the two disagree by one calendar day.',
        fix: 'Freeze the clock in the test with fake timers set to a fixed instant such as 2025-03-10T12:00:00Z, and build every expected date in UTC. Then the result no longer depends on when the job starts.',
        qs: [
          { q: 'Why would the {key} only break on jobs kicked off just past 00:00?', e: [1] },
          { q: 'How did you propose making the {key} independent of the hour the pipeline begins?', e: [3] },
          { q: 'When during the night were the {key} breakages clustered?', e: [0] },
        ],
      },
      {
        sym: 'It only fails when the whole suite runs; on its own it is always fine.',
        cause: 'Then it depends on state left behind by an earlier test. The previous file inserts rows into the orders table and never cleans up, so the count this test asserts is off whenever the runner orders them that way.',
        fix: 'Wrap each test in a transaction and roll it back in afterEach, or truncate the touched tables in a shared hook. Also run the suite with a random order locally, mocha has --sort off and jest has --randomize, to flush out other hidden dependencies.',
        qs: [
          { q: 'What leftover data was contaminating the {key} when everything ran together?', e: [1] },
          { q: 'Which isolation approach did you recommend for the {key} between cases?', e: [3] },
        ],
        follow: {
          u: 'The {key} went flaky again even with the rollback in afterEach, but only on the parallel CI job.',
          a: 'With parallel workers the rollback is not enough: two workers share one database, so they still see each other\'s rows. Give each worker its own schema, named from the worker index, and create it in the global setup.',
          q: 'Once the {key} was failing under concurrent CI workers, how did you suggest separating their databases?',
        },
      },
      {
        sym: 'The error in the failed runs is "listen EADDRINUSE: address already in use :::4000".',
        cause: 'Two jobs run on the same runner in parallel and both start the test server on the hard-coded port 4000. Whichever starts second cannot bind.',
        fix: 'Start the server on port 0 so the OS picks a free port, read the assigned port from server.address().port and pass that URL to the client under test.',
        qs: [
          { q: 'Why did the {key} collide with other jobs sharing a runner?', e: [0, 1] },
          { q: 'How should the {key} pick where its local server listens?', e: [3] },
        ],
      },
      {
        sym: 'The screenshot of the failure shows the confirm button behind a half-transparent modal.',
        cause: 'The modal fades out over 300 ms and the test clicks immediately after closing it, so sometimes the click lands on the overlay instead of the button.',
        fix: 'Wait for the dialog role to disappear, await expect(page.getByRole("dialog")).toBeHidden(), instead of a fixed sleep, and turn off animations in the test build with prefers-reduced-motion.',
        qs: [
          { q: 'What animation issue made the {key} click miss its target?', e: [1] },
          { q: 'Instead of sleeping, what should the {key} wait for before clicking?', e: [3] },
        ],
      },
      {
        sym: 'When it fails the log says "duplicate key value violates unique constraint users_email_key".',
        cause: 'The factory uses faker to generate emails and with a few thousand users per run it produces the same address now and then, roughly one run in 50.',
        fix: 'Seed faker per test so runs are reproducible, and append a sequence number to generated emails, user-1@example.test, user-2@example.test, so they can never collide.',
        qs: [
          { q: 'Why were random fixtures in the {key} sometimes clashing on uniqueness?', e: [1] },
          { q: 'How did you suggest guaranteeing distinct addresses in the {key}?', e: [3] },
        ],
      },
    ],
    latest: { q: 'The most recent intermittently failing suite we looked at: what turned out to be the reason?', e: [1] },
  },
  {
    name: 'deploy-failure',
    keys: services,
    opens: [
      'The {key} deploy to production failed twice this morning and the rollout got stuck at {n} of 12 pods.',
      'Rolling out {key} version {ver} is failing in prod; the old replicas are still serving but the new ones never settle.',
    ],
    asks: ['Can we get this out today? What should I change?'],
    variants: [
      {
        sym: 'kubectl describe shows the last state as Terminated with exit code 137.',
        cause: 'Exit code 137 means the container was killed by the kernel\'s OOM killer. The pod limit is 512Mi and the new build loads the whole product catalogue into memory at startup, so it goes past the limit before the readiness probe ever passes.',
        fix: 'Raise the memory limit to 1Gi for now and set the request to 768Mi so the scheduler places it on a node with room. Longer term, load the catalogue lazily instead of at boot.',
        qs: [
          { q: 'Why did the new {key} release keep dying right as it came up?', e: [1] },
          { q: 'What RAM ceiling did we settle on for {key}?', e: [3] },
        ],
        follow: {
          u: '{key} is being OOM-killed again even with the 1Gi limit, after about {m} hours of uptime this time.',
          a: 'If it dies after hours rather than at boot, the catalogue is not the issue any more: something grows over time. Take two heap snapshots an hour apart and compare retained sizes; my bet is the per-tenant price cache that never evicts.',
          q: 'When the bigger allowance did not help {key}, what did you suspect was slowly eating RAM?',
        },
      },
      {
        sym: 'The new pods never become Ready and after 10 minutes the deployment reports ProgressDeadlineExceeded.',
        cause: 'The readiness probe hits /healthz on port 8080, but this release moved the server to port 3000 via the PORT variable. The probe gets connection refused, so Kubernetes never routes traffic and the rollout times out.',
        fix: 'Point the readinessProbe and livenessProbe at the named port "http" instead of a number, and define that name in the container ports. Then a port change only happens in one place.',
        qs: [
          { q: 'Why was {key} never marked healthy after shipping?', e: [1] },
          { q: 'How did you suggest avoiding hard-coded numbers in the {key} health checks?', e: [3] },
        ],
      },
      {
        sym: 'The pods sit in ImagePullBackOff and the event says "manifest unknown".',
        cause: 'The CI job tagged the image with the short commit SHA, but the Helm values still reference a tag that was never pushed to the registry. The kubelet asks the registry for a manifest that does not exist.',
        fix: 'Make the pipeline pass the exact tag it pushed to helm upgrade with --set image.tag=$GIT_SHA, and stop using mutable tags for releases.',
        qs: [
          { q: 'Why could the cluster not fetch the {key} container?', e: [1] },
          { q: 'What pipeline change did you recommend so {key} releases reference an artifact that exists?', e: [3] },
        ],
      },
      {
        sym: 'Each container starts and exits within a second; the last log line is "Error: DATABASE_URL is not defined".',
        cause: 'The secret was renamed from {key}-db to {key}-postgres in the last infrastructure change, and the deployment\'s envFrom still points at the old name, so the variable is simply absent.',
        fix: 'Update envFrom to the new secret name and add a startup check that lists every missing variable at once, so the next rename fails loudly in CI rather than in production.',
        qs: [
          { q: 'Which setting went missing for {key} when it booted, and what caused that?', e: [0, 1] },
          { q: 'Besides correcting the reference, what early validation did you propose for {key}?', e: [3] },
        ],
      },
      {
        sym: 'The init container runs the migrations and fails with "relation audit_log does not exist".',
        cause: 'The migration that creates audit_log is timestamped later than the one adding a trigger on it, because two branches were merged on the same day. The runner applies them by timestamp, so the trigger comes first.',
        fix: 'Rename the trigger migration so its timestamp follows the table\'s, and add a CI step that applies every migration to an empty database before merge.',
        qs: [
          { q: 'What sequencing mistake stopped the {key} init step?', e: [1] },
          { q: 'What pre-merge safeguard did you recommend so schema scripts get exercised on a blank DB?', e: [3] },
        ],
      },
    ],
    latest: { q: 'Why did our most recent production release get stuck?', e: [0, 1] },
  },
  {
    name: 'db-migration',
    keys: [
      'order_items|order items', 'invoice_lines|invoice lines', 'user_sessions|user sessions', 'audit_events|audit events',
      'shipment_labels|shipment labels', 'payment_intents|payment intents', 'subscription_plans|subscription plans',
      'product_variants|product variants',
    ],
    opens: [
      'Running the migrations against staging blew up on the {key} table.',
      'The release migration for {key} failed in staging and the deploy pipeline stopped there.',
    ],
    asks: ['How should the migration be written instead?'],
    variants: [
      {
        sym: 'The error is "relation idx_{key}_created_at already exists" and the whole migration rolled back.',
        cause: 'Someone created that index by hand on staging during a performance investigation, so when the migration runs CREATE INDEX with the same name, Postgres refuses and the transaction aborts.',
        fix: 'Use CREATE INDEX IF NOT EXISTS, or better, drop the manual index first in the migration so every environment ends up with the definition from source control.',
        qs: [
          { q: 'Why did adding that index break the schema upgrade for {key}?', e: [0, 1] },
          { q: 'How should the {key} script cope with a lookup structure somebody had put there manually?', e: [3] },
        ],
      },
      {
        sym: 'It fails with "column region of relation {key} contains null values".',
        cause: 'The migration adds region as NOT NULL without a default, and the table already has about {big} thousand rows, which all get NULL. Postgres checks the constraint immediately and rejects it.',
        fix: 'Split it into three steps: add the column as nullable, backfill it in batches of 10,000 rows, then set NOT NULL once every row has a value.',
        qs: [
          { q: 'Why was the new mandatory field on {key} refused for existing records?', e: [1] },
          { q: 'What multi-stage approach did you give for introducing the required {key} attribute?', e: [3] },
        ],
      },
      {
        sym: 'It just hung for a minute and then died with "canceling statement due to lock timeout".',
        cause: 'ALTER TABLE takes an ACCESS EXCLUSIVE lock, and a long-running analytics query was holding a share lock on {key}. The migration queued behind it, and every new query queued behind the migration.',
        fix: 'Set lock_timeout to 5s in the migration and retry in a loop, run it outside business hours, and for any index use CREATE INDEX CONCURRENTLY so writes keep flowing.',
        qs: [
          { q: 'What was the {key} alteration waiting on before it gave up?', e: [1] },
          { q: 'How can changes to {key} avoid blocking everyone\'s reads and writes?', e: [3] },
        ],
        follow: {
          u: 'The {key} change went through with the retry loop, but now the CONCURRENTLY index build left an index marked INVALID.',
          a: 'A concurrent build that fails halfway, here probably because of a deadlock with the nightly vacuum, leaves an invalid index behind. Drop it with DROP INDEX CONCURRENTLY and build it again at a quiet hour; check pg_index.indisvalid afterwards.',
          q: 'After the {key} rework, what did you say to do about the unusable index left behind?',
        },
      },
      {
        sym: 'The new foreign key fails with "insert or update on table {key} violates foreign key constraint".',
        cause: 'There are {m} orphaned rows whose customer_id points at customers deleted years ago by a cleanup job that ignored references. Adding the constraint validates every existing row.',
        fix: 'Add the constraint with NOT VALID first so new writes are checked, clean up or archive the orphans, then run VALIDATE CONSTRAINT separately.',
        qs: [
          { q: 'Why could we not attach the customer reference to {key}?', e: [1] },
          { q: 'What sequence did you propose for enforcing that relationship on {key} without checking old data up front?', e: [3] },
        ],
      },
      {
        sym: 'Adding the value "refunded" to the status enum fails with "ALTER TYPE ... ADD cannot run inside a transaction block".',
        cause: 'On our Postgres 11 servers ALTER TYPE ADD VALUE cannot run inside a transaction, and the migration tool wraps every file in one.',
        fix: 'Mark that migration as non-transactional, the tool supports a "-- no-transaction" header, or switch the column to text with a CHECK constraint so new statuses become an ordinary migration.',
        qs: [
          { q: 'What stopped us introducing the refunded state for {key}?', e: [0, 1] },
          { q: 'What options did you give for extending the permitted {key} states?', e: [3] },
        ],
      },
    ],
    latest: { q: 'Which schema upgrade went wrong most recently, and with what error?', e: [0] },
  },
  {
    name: 'react-rerender',
    keys: ['ProductGrid', 'ChatSidebar', 'InvoiceTable', 'SearchBox', 'DashboardChart', 'CommentThread', 'FilterPanel', 'NotificationBell'],
    opens: [
      '{key} re-renders way too often: the React profiler shows {m} renders when I type a single character.',
      'The {key} component is sluggish and the profiler flame chart lights it up on every keystroke.',
    ],
    asks: ['How do I stop that?'],
    variants: [
      {
        sym: 'It does not even use the input, it only reads the theme.',
        cause: 'Your ThemeProvider passes value={{ theme, setTheme }}, a new object on every render of App, so every consumer of the context, {key} included, re-renders whenever App does.',
        fix: 'Wrap the value in useMemo keyed on theme, or split it into two contexts so components that only call setTheme never re-render on a theme change.',
        qs: [
          { q: 'Why was {key} redrawing whenever anything in the app changed?', e: [1] },
          { q: 'How did you propose keeping the provider from invalidating {key}?', e: [3] },
        ],
      },
      {
        sym: 'It is already wrapped in React.memo, so I expected it to skip.',
        cause: 'React.memo compares props shallowly, and the parent passes onSelect={() => select(id)} inline, so the prop is a new function each time and the comparison always fails.',
        fix: 'Wrap the handler in useCallback with the right dependencies, or pass the id and a stable dispatch down instead of a closure.',
        qs: [
          { q: 'Why was memoization doing nothing for {key}?', e: [1] },
          { q: 'How should the callback given to {key} be made stable?', e: [3] },
        ],
      },
      {
        sym: 'It also fires its data fetch over and over, the network tab is full of requests.',
        cause: 'The effect in {key} depends on options, an object literal created in the parent on each render. The effect runs, sets state, the parent re-renders, creates a new options object, and the loop continues.',
        fix: 'Depend on the primitive fields, options.sort and options.page, instead of the object, or memoise options in the parent with useMemo.',
        qs: [
          { q: 'What kept the {key} effect triggering endlessly?', e: [1] },
          { q: 'Which dependencies should the {key} hook list instead?', e: [3] },
        ],
      },
      {
        sym: 'Worse, when I delete a row the text fields below it lose focus and their typed values jump around.',
        cause: 'The list uses the array index as the key, so deleting one row shifts every key after it; React thinks those rows changed identity and remounts them, which also loses focus.',
        fix: 'Use a stable id from the data, item.id, as the key. If the rows have no id, assign one when they are created, never during render.',
        qs: [
          { q: 'Why did removing an entry in {key} scramble the inputs beneath it?', e: [0, 1] },
          { q: 'What should {key} use to identify each list element?', e: [3] },
        ],
      },
      {
        sym: 'It is connected to the Redux store with useSelector.',
        cause: 'The useSelector call in {key} runs items.filter(...) inside the selector, which returns a new array every time any part of the store changes, and react-redux compares results with ===.',
        fix: 'Move the filtering into a memoised selector built with createSelector from Reselect, or pass shallowEqual as the second argument to useSelector.',
        qs: [
          { q: 'Why was {key} updating after unrelated state changes elsewhere?', e: [1] },
          { q: 'How did you suggest caching the derived list for {key}?', e: [3] },
        ],
      },
    ],
    latest: { q: 'In the latest React slowness issue, what made the component redraw so much?', e: [1] },
  },
  {
    name: 'ci-caching',
    keys: ['web-frontend', 'mobile-app', 'infra-tools', 'design-system', 'data-pipeline', 'admin-portal', 'sdk-js', 'docs-site'],
    opens: [
      'The CI for {key} went from {n} minutes to almost {m} minutes and the cache step says it restored nothing.',
      'Builds on {key} are slow again, around {m} minutes, and the dependency cache never seems to hit.',
    ],
    asks: ['How do I get the cache working again?'],
    variants: [
      {
        sym: 'The log line is "Cache not found for input keys: deps-linux-".',
        cause: 'The cache key is built from hashFiles("package-lock.json"), but the lockfile moved to packages/app/ when you switched to workspaces, so the hash is empty and the key never matches a saved entry.',
        fix: 'Use hashFiles("**/package-lock.json") in the key and add a restore-keys prefix so a partial hit still restores most of the dependencies.',
        qs: [
          { q: 'Why was the {key} workflow never finding its stored packages?', e: [1] },
          { q: 'What glob did you suggest so the {key} key reflects the relocated lock?', e: [3] },
        ],
        follow: {
          u: 'The {key} cache hits now, but the restore itself takes {n} minutes, longer than a clean install.',
          a: 'Then the archive is huge: you are caching node_modules for every workspace package, including build output. Cache only ~/.npm, which compresses well, and let npm ci link from it; restores should drop to seconds.',
          q: 'When restoring the {key} archive became slower than installing fresh, what did you propose storing instead?',
        },
      },
      {
        sym: 'Most of the time goes into the Docker build, which reinstalls every dependency.',
        cause: 'The Dockerfile does COPY . . before npm ci, so any source change invalidates the dependency layer and everything after it is rebuilt.',
        fix: 'Copy only package.json and the lockfile first, run npm ci, then copy the rest. Add a .dockerignore for node_modules and .git so the context stays small.',
        qs: [
          { q: 'Why did every {key} image rebuild redo the package installation?', e: [1] },
          { q: 'How should the {key} Dockerfile be reordered?', e: [3] },
        ],
      },
      {
        sym: 'The cache was hitting last week; now it only hits on the first run after a merge.',
        cause: 'GitHub evicts caches once a repository passes 10 GB, and the job saves a new {big} MB cache per branch, so the main branch entry is evicted within hours.',
        fix: 'Save the cache only on main and let branches restore from it read-only, and drop the build output from the cached paths.',
        qs: [
          { q: 'Why were the {key} saved entries disappearing so quickly?', e: [1] },
          { q: 'Which branch should be allowed to write the {key} cache?', e: [3] },
        ],
      },
      {
        sym: 'It started right after the runner image update.',
        cause: 'The cache key does not include the Node version, so after the runner moved to Node 20 the restored node_modules contains native modules built for Node 18; the postinstall check fails and triggers a full reinstall.',
        fix: 'Put the Node version in the key, deps-${{ runner.os }}-node20-${{ hashFiles(...) }}, and cache the npm download directory instead of node_modules.',
        qs: [
          { q: 'Why did upgrading the runtime on the runners break {key} restores?', e: [1] },
          { q: 'What extra component did you say belongs in the {key} key?', e: [3] },
        ],
      },
      {
        sym: 'We use turbo with remote caching and every task shows "cache miss, executing".',
        cause: 'The remote cache credential stored in the CI secrets expired last week; turbo silently falls back to local caching when it gets a 401, so every task rebuilds from scratch.',
        fix: 'Rotate the credential, run the job with --remote-only so an auth failure breaks the build loudly, and put a reminder in the calendar before the next expiry.',
        qs: [
          { q: 'Why had remote reuse quietly stopped for {key} tasks?', e: [1] },
          { q: 'How did you suggest making an expired cache credential on {key} fail visibly?', e: [3] },
        ],
      },
    ],
    latest: { q: 'The last time our pipeline stopped reusing stored dependencies, what was the reason?', e: [1] },
  },
  {
    name: 'memory-leak',
    keys: services,
    opens: [
      'Memory on {key} keeps climbing: RSS goes from about 200 MB after boot to over {m}00 MB within a day, then the process gets restarted.',
      'We have a slow leak in {key}; Grafana shows heap usage rising steadily until the pod is recycled every {n} hours or so.',
    ],
    asks: ['I have a heap snapshot if that helps. How do I fix it?'],
    variants: [
      {
        sym: 'The logs also show MaxListenersExceededWarning a few times an hour.',
        cause: 'In the heap snapshot most retained memory is in closures registered with emitter.on("message") inside the request handler; each request adds a listener and nothing removes it. The warning is Node telling you exactly that.',
        fix: 'Register the listener once at module level, or use emitter.once and remove it in a finally block. Treat the MaxListeners warning as an error in tests.',
        qs: [
          { q: 'What was accumulating per request inside {key}?', e: [1] },
          { q: 'How should {key} subscribe to those events instead?', e: [3] },
        ],
      },
      {
        sym: 'The biggest retainer in the snapshot is a Map with millions of entries.',
        cause: 'That is the module-level Map used to memoise exchange rates. It is keyed by timestamp, so every request adds an entry and none is ever deleted.',
        fix: 'Replace it with an LRU cache capped at 1,000 entries with a 10 minute TTL, lru-cache does this, and key it by currency pair rather than timestamp.',
        qs: [
          { q: 'Which unbounded structure was growing forever in {key}?', e: [0, 1] },
          { q: 'What bounded replacement did you recommend for the {key} rate lookup?', e: [3] },
        ],
      },
      {
        sym: 'It grows faster on days with more websocket users.',
        cause: 'Every websocket connection starts a setInterval for heartbeats, but the close handler never calls clearInterval, so the timers and the sockets they reference stay alive forever.',
        fix: 'Keep the interval handle on the connection object and clear it in both the close and error handlers. One shared timer that pings all live sockets is even cheaper.',
        qs: [
          { q: 'What was keeping disconnected clients alive in {key}?', e: [1] },
          { q: 'Where should {key} cancel the periodic ping?', e: [3] },
        ],
      },
      {
        sym: 'The jumps line up with large file uploads.',
        cause: 'The debug logger keeps the last records in an array for crash reports, but each record holds the full request object, including uploaded file buffers, so a few large uploads pin hundreds of megabytes.',
        fix: 'Store only a serialised summary, method, path, status and size, in the ring buffer, never the request itself.',
        qs: [
          { q: 'Why did big attachments make {key} hold on to so much RAM?', e: [1] },
          { q: 'What should the {key} crash-report buffer keep instead?', e: [3] },
        ],
      },
      {
        sym: 'It started around the time the downstream pricing API began timing out.',
        cause: 'The retry queue is an in-memory array, and the downstream API has been returning 503 since Tuesday, so jobs pile up faster than they drain.',
        fix: 'Cap the queue, move retries to the Redis-backed job queue with exponential backoff, and alert when the backlog passes 5,000.',
        qs: [
          { q: 'What was piling up inside {key} while the upstream dependency was failing?', e: [1] },
          { q: 'Where did you suggest moving the {key} retries?', e: [3] },
        ],
      },
    ],
    latest: { q: 'In our latest leak investigation, what was holding on to the RAM?', e: [1] },
  },
  {
    name: 'docker-networking',
    keys: services,
    opens: [
      'Inside docker compose, {key} cannot reach its dependencies: connection refused or timeouts.',
      'Running {key} in a container locally, the networking does not work the way it does outside Docker.',
    ],
    asks: ['What do I change in the compose setup?'],
    variants: [
      {
        sym: '{key} connects to postgres at localhost:5432, which works when I run it on the host but not in the container.',
        cause: 'Inside a container, localhost is the container itself, not your machine or the postgres container. Compose puts services on a shared network where each is reachable by its service name.',
        fix: 'Set DATABASE_HOST=postgres, the service name in docker-compose.yml, and keep localhost only for running outside Docker via an .env.local override.',
        qs: [
          { q: 'Why could {key} not find the database from within its box?', e: [1] },
          { q: 'What hostname should {key} use for the DB under compose?', e: [3] },
        ],
      },
      {
        sym: '{key} calls a mock server on my laptop at host.docker.internal:{m}00; fine on my Mac, but colleagues on Linux get "could not resolve host".',
        cause: 'host.docker.internal is provided automatically by Docker Desktop on macOS and Windows, but plain Docker Engine on Linux does not define it.',
        fix: 'Add extra_hosts: ["host.docker.internal:host-gateway"] to the service in compose; Docker 20.10 and later resolve host-gateway to the bridge IP.',
        qs: [
          { q: 'Why did the special name for the machine running Docker fail for teammates on Ubuntu with {key}?', e: [1] },
          { q: 'What compose entry fixes that lookup for {key}?', e: [3] },
        ],
      },
      {
        sym: 'I published the port with "8080:{m}00" but curl to localhost:8080 resets the connection.',
        cause: 'The app inside listens on 127.0.0.1, so it only accepts connections from the container\'s own loopback; traffic forwarded through the published port arrives on eth0 and is refused.',
        fix: 'Make the server bind 0.0.0.0 with HOST=0.0.0.0, then the published port works; keep firewalling at the compose level if you only want it local.',
        qs: [
          { q: 'Why was the mapped port on {key} dropping requests?', e: [1] },
          { q: 'Which interface address should {key} listen on?', e: [3] },
        ],
      },
      {
        sym: 'Small requests work, but downloading anything over a few KB from {key} stalls, and only while I am on the corporate VPN.',
        cause: 'The VPN lowers the path MTU to about 1400 bytes while the Docker bridge uses 1500, and ICMP is blocked, so large packets are dropped silently.',
        fix: 'Set the Docker network MTU to 1380 in daemon.json, "mtu": 1380, or per network in compose with driver_opts com.docker.network.driver.mtu.',
        qs: [
          { q: 'Why did bigger responses from {key} hang on the company tunnel?', e: [1] },
          { q: 'What packet size setting did you give for {key}?', e: [3] },
        ],
      },
      {
        sym: '{key} and redis are in two different compose files, and {key} cannot resolve the name "redis".',
        cause: 'Each compose project creates its own default network, so services from different files cannot see each other\'s names.',
        fix: 'Create a shared external network, docker network create shared-dev, and attach both services to it, or merge them into one project with several -f files.',
        qs: [
          { q: 'Why was the cache hostname unknown to {key} when started separately?', e: [1] },
          { q: 'How did you suggest letting {key} and its cache discover each other?', e: [3] },
        ],
      },
    ],
    latest: { q: 'Most recently, why could one of our containers not talk to another?', e: [1] },
  },
  {
    name: 'auth-tokens',
    keys: ['mobile-app', 'partner-portal', 'admin-console', 'cli-tool', 'storefront', 'support-desk', 'kiosk-app', 'vendor-api'],
    opens: [
      'Users of {key} keep getting 401s and being sent back to the login screen.',
      'We have an auth problem with {key}: sessions break and requests come back unauthorized.',
    ],
    asks: ['What is the right fix here?'],
    variants: [
      {
        sym: 'Roughly {n}% of requests from {key} get 401 "token not yet valid" right after login.',
        cause: 'The nbf and iat claims are set by the identity server, and one of the API nodes has a clock about 40 seconds behind, so it sees freshly issued tokens as coming from the future.',
        fix: 'Run chrony or another NTP client on every node, and allow a small leeway, 60 seconds, when verifying nbf and exp in the JWT library.',
        qs: [
          { q: 'Why did freshly signed-in {key} users get rejected as premature?', e: [1] },
          { q: 'How much tolerance did you suggest for time claims on {key}?', e: [3] },
        ],
      },
      {
        sym: 'People using {key} in two tabs are randomly signed out.',
        cause: 'Refresh tokens are single-use with rotation; when two tabs refresh at the same moment, the second presents a token the first already rotated, the server treats it as reuse and revokes the whole family.',
        fix: 'Serialise refreshes across tabs with a BroadcastChannel or a lock in localStorage, and give the server a short grace window where the previous refresh token is accepted once.',
        qs: [
          { q: 'Why did having several browser windows open log {key} users out?', e: [0, 1] },
          { q: 'How should {key} coordinate renewals between windows?', e: [3] },
        ],
        follow: {
          u: 'The cross-tab lock fixed {key} on desktop, but Safari users on iOS are still signed out every few days.',
          a: 'Safari\'s tracking prevention deletes script-writable storage after seven days without interaction, so the refresh token in localStorage vanishes. Move the refresh token to an HttpOnly, Secure cookie set by your own domain; Safari keeps those.',
          q: 'For the remaining iPhone logouts on {key}, where did you say the renewal credential should live?',
        },
      },
      {
        sym: 'Every call from {key} to the new reports API fails with 401 "invalid audience".',
        cause: 'The access token is issued for the audience api://core, but the reports service validates aud against api://reports, so the token is rejected even though the signature is fine.',
        fix: 'Request a token with both audiences through the scope parameter, or have the gateway exchange it for a reports-specific one using token exchange, RFC 8693.',
        qs: [
          { q: 'Why did the analytics backend refuse credentials coming from {key}?', e: [1] },
          { q: 'What two ways did you give to get {key} a credential the analytics backend accepts?', e: [3] },
        ],
      },
      {
        sym: 'Since about 2am every login to {key} fails with "no matching key found for kid".',
        cause: 'The identity provider rotated its signing key overnight, but our verifier downloaded the JWKS at startup and caches it forever, so it does not know the new kid.',
        fix: 'Refetch the JWKS when an unknown kid appears, rate-limited to once a minute, and cache the rest using the max-age from the response headers.',
        qs: [
          { q: 'Why did {key} sign-ins all break overnight?', e: [1] },
          { q: 'When should the {key} verifier reload the published keys?', e: [3] },
        ],
      },
      {
        sym: 'Since the move to the new domain, {key} loses the session cookie when users come back from the payment provider redirect.',
        cause: 'The cookie is SameSite=Strict, so the browser does not send it on the top-level navigation coming from the payment provider\'s site, and the callback looks like an anonymous visitor.',
        fix: 'Use SameSite=Lax for the session cookie, which is sent on top-level GET navigations, and keep Strict only for the CSRF cookie.',
        qs: [
          { q: 'Why did returning from checkout on the bank page make {key} forget who the user was?', e: [1] },
          { q: 'What cross-site attribute should the {key} login cookie carry?', e: [3] },
        ],
      },
    ],
    latest: { q: 'The last sign-in problem we chased: what was causing the rejections?', e: [1] },
  },
  {
    name: 'i18n',
    keys: ['cart page', 'settings screen', 'invoice PDF', 'onboarding wizard', 'order emails', 'pricing page', 'notification centre', 'help widget'],
    opens: [
      'We got a localisation bug report about the {key}.',
      'Translators flagged a problem in the {key} this week.',
    ],
    asks: ['How should this be done properly?'],
    variants: [
      {
        sym: 'The Polish build shows "5 plik" instead of "5 plików".',
        cause: 'The code picks between two strings with count === 1 ? one : other, but Polish has separate forms for few (2 to 4) and many (5 and up), so anything above 4 gets the wrong form.',
        fix: 'Use Intl.PluralRules or ICU plural syntax in the message, {count, plural, one {...} few {...} many {...} other {...}}, and let translators fill every category.',
        qs: [
          { q: 'Why were quantities worded incorrectly in the {key} for Poland?', e: [1] },
          { q: 'What message format did you suggest for counted nouns on the {key}?', e: [3] },
        ],
      },
      {
        sym: 'In Arabic the icons sit on the wrong side and the back arrow points forward.',
        cause: 'The stylesheet uses margin-left and padding-left and a fixed arrow glyph; setting dir="rtl" flips the text but not physical properties.',
        fix: 'Switch to logical properties such as margin-inline-start and padding-inline-end, and mirror directional icons with [dir=rtl] { transform: scaleX(-1) }.',
        qs: [
          { q: 'Why did the right-to-left {key} layout look mirrored wrongly?', e: [1] },
          { q: 'Which CSS approach did you recommend for directional spacing on the {key}?', e: [3] },
        ],
      },
      {
        sym: 'German users say it shows dates like 03/04/2025 and they cannot tell if it is March or April.',
        cause: 'The formatter hard-codes MM/DD/YYYY with a template string instead of using the user\'s locale.',
        fix: 'Use Intl.DateTimeFormat(locale, { dateStyle: "medium" }) so it renders "4. März 2025" for de-DE, and pass the locale from the user profile, not the browser.',
        qs: [
          { q: 'Why was the {key} calendar notation confusing for people in Germany?', e: [0, 1] },
          { q: 'Which API should render day and month on the {key}?', e: [3] },
        ],
      },
      {
        sym: 'The Japanese version has one sentence that reads like nonsense.',
        cause: 'That sentence is built by concatenating three translated fragments, "You have" + count + "new messages", and Japanese word order needs the number and verb in different places.',
        fix: 'Make it a single message with a placeholder, "You have {count} new messages", so the translator can move the placeholder wherever the grammar needs it.',
        qs: [
          { q: 'Why was the {key} phrase garbled in Japan?', e: [1] },
          { q: 'How should that {key} string be structured for translators?', e: [3] },
        ],
      },
      {
        sym: 'In Turkish, searching finds nothing containing the letter "i".',
        cause: 'The code lowercases with toLocaleLowerCase() in the tr locale, where capital I becomes the dotless ı, so "INVOICE" turns into "ınvoıce" and no longer matches.',
        fix: 'Use toLowerCase(), which is locale-independent, for identifiers and search keys, or normalise both sides with the same explicit locale; keep locale-aware casing for display.',
        qs: [
          { q: 'Why did lookups on the {key} miss results for Turkish customers?', e: [1] },
          { q: 'Which casing function should the {key} use for matching?', e: [3] },
        ],
      },
    ],
    latest: { q: 'In the most recent localisation defect, which language was affected and what went wrong?', e: [0, 1] },
  },
  {
    name: 'regex',
    keys: ['email field', 'log parser', 'slug validator', 'phone input', 'version checker', 'CSV splitter', 'URL router', 'markdown linter'],
    opens: [
      'Something is off with the regular expression in our {key}.',
      'I need help with the regex behind the {key}.',
    ],
    asks: ['What should the expression look like instead?'],
    variants: [
      {
        sym: 'The pattern /^(\\w+\\s?)*$/ pins a CPU at 100% on some inputs; one request took {m} seconds.',
        cause: 'Nested quantifiers: (\\w+\\s?)* can split the same run of letters in exponentially many ways, and when the string does not match, say with a trailing "!", the engine tries all of them.',
        fix: 'Remove the ambiguity: /^\\w+(\\s\\w+)*$/ matches the same language in linear time. Also cap the input length before testing, and consider the re2 package for user-supplied input.',
        qs: [
          { q: 'Why could one bad string freeze the {key} for ages?', e: [1] },
          { q: 'How did you rewrite the {key} pattern so it runs in linear time?', e: [3] },
        ],
      },
      {
        sym: 'The pattern /<b>(.*)<\\/b>/ grabs everything from the first bold tag to the last one on the line.',
        cause: 'The star is greedy, so .* runs to the end of the line and backtracks only as far as the last </b>.',
        fix: 'Use the lazy form (.*?) or a negated class ([^<]*), and for real HTML use a parser such as parse5 instead of a regular expression.',
        qs: [
          { q: 'Why did the {key} capture swallow too much text?', e: [1] },
          { q: 'What non-greedy alternative did you give for the {key}?', e: [3] },
        ],
      },
      {
        sym: '/^ERROR/ only finds the first line even though there are {n} errors in the file.',
        cause: 'Without the m flag, ^ and $ anchor to the start and end of the whole string, not each line, and without g only one match comes back anyway.',
        fix: 'Use /^ERROR/gm with matchAll, or split the text into lines and test each one, which also keeps memory flat on big files.',
        qs: [
          { q: 'Why did the {key} catch only a single failure entry?', e: [1] },
          { q: 'Which flags did the {key} need?', e: [3] },
        ],
      },
      {
        sym: 'It throws "Invalid regular expression: invalid group specifier name", but only in Safari 15.',
        cause: 'The pattern uses a lookbehind, (?<=@); Safari only gained lookbehind support in 16.4, so older versions cannot even compile the expression.',
        fix: 'Rewrite it without lookbehind, capturing the part after the @ in a group and reading match[1], or do the check on the server.',
        qs: [
          { q: 'Why did the {key} crash on older Apple browsers?', e: [1] },
          { q: 'How can the {key} avoid that assertion syntax?', e: [3] },
        ],
      },
      {
        sym: 'It rejects names like "José" and "Zoë".',
        cause: '[a-zA-Z] only covers ASCII letters, so accented characters fail; \\w does not help either, since it is ASCII-only in JavaScript.',
        fix: 'Use Unicode property escapes with the u flag, /^[\\p{L}\\p{M}\' -]+$/u, which accepts letters and combining marks from any script.',
        qs: [
          { q: 'Why did the {key} refuse accented input?', e: [1] },
          { q: 'What character-class syntax handles every alphabet in the {key}?', e: [3] },
        ],
      },
    ],
    latest: { q: 'The latest pattern-matching bug you helped with: what was wrong with the expression?', e: [1] },
  },
  {
    name: 'slow-query',
    keys: ['order history endpoint', 'monthly report', 'admin search', 'customer export', 'activity feed', 'leaderboard', 'audit viewer', 'stock overview'],
    opens: [
      'The {key} has become really slow since the data grew.',
      'Users are complaining that the {key} takes forever to load.',
    ],
    asks: ['What is the fix on the database side?'],
    variants: [
      {
        sym: 'It takes {n}.{n} seconds and the SQL log shows {big} queries for a single page.',
        cause: 'Classic N+1: the ORM loads the list, then lazily loads each row\'s customer and line items in separate queries inside the loop.',
        fix: 'Eager-load the relations with include, or a JOIN, so it is three queries in total, and add a test asserting the query count stays under 10.',
        qs: [
          { q: 'Why was the {key} issuing hundreds of statements per request?', e: [0, 1] },
          { q: 'How did you suggest fetching the related records for the {key}?', e: [3] },
        ],
      },
      {
        sym: 'EXPLAIN shows a sequential scan on a table with 40 million rows.',
        cause: 'There is no index on (account_id, created_at), so filtering by account and sorting by date reads the whole table.',
        fix: 'CREATE INDEX CONCURRENTLY on (account_id, created_at DESC); EXPLAIN ANALYZE should then show an index scan and a few milliseconds.',
        qs: [
          { q: 'Why did the {key} have to read every row?', e: [1] },
          { q: 'Which composite lookup structure did you propose for the {key}?', e: [3] },
        ],
      },
      {
        sym: 'The search box uses LIKE \'%term%\' and every search takes seconds.',
        cause: 'A pattern starting with % cannot use a B-tree index, so every search scans the table.',
        fix: 'Add a trigram GIN index with pg_trgm, which supports LIKE \'%...%\', or move search to the full-text index if you need ranking.',
        qs: [
          { q: 'Why could the {key} substring filter not benefit from the existing indexes?', e: [1] },
          { q: 'What Postgres extension did you recommend for the {key} lookups?', e: [3] },
        ],
      },
      {
        sym: 'Page 1 is fast but page {m}0 takes over {n} seconds.',
        cause: 'OFFSET makes the database produce and throw away every row before the page, so the cost grows linearly with the page number.',
        fix: 'Switch to keyset pagination: WHERE (created_at, id) < (:last_created_at, :last_id) ORDER BY created_at DESC, id DESC LIMIT 50.',
        qs: [
          { q: 'Why were deep pages of the {key} so sluggish?', e: [1] },
          { q: 'What paging technique did you recommend for the {key}?', e: [3] },
        ],
      },
      {
        sym: 'It is only slow because of the total counter at the top.',
        cause: 'SELECT count(*) over the filtered set has to visit every matching row in Postgres; there is no cached row count.',
        fix: 'Show an estimate from pg_class.reltuples or EXPLAIN for large totals, or display "more than 10,000" and stop counting at 10,001 with a LIMIT in a subquery.',
        qs: [
          { q: 'Why was computing the number of results so costly for the {key}?', e: [1] },
          { q: 'How did you suggest approximating the {key} total?', e: [3] },
        ],
      },
    ],
    latest: { q: 'What made the most recent sluggish page we investigated slow at the SQL level?', e: [1] },
  },
  {
    name: 'bundler',
    keys: ['marketing site', 'admin dashboard', 'browser extension', 'embed widget', 'docs portal', 'mobile web shell', 'checkout iframe', 'status board'],
    opens: [
      'Something is wrong with the production bundle of the {key}.',
      'The build output for the {key} is misbehaving since the last dependency bump.',
    ],
    asks: ['How do I fix the build?'],
    variants: [
      {
        sym: 'The bundle jumped to {m}0 KB gzipped more than last month.',
        cause: 'The analyzer shows moment with all its locales, around 230 KB, pulled in by the date picker.',
        fix: 'Swap moment for date-fns or dayjs, or at least use webpack\'s IgnorePlugin for moment/locale and import only the locales you ship.',
        qs: [
          { q: 'What library made the {key} output grow so much?', e: [1] },
          { q: 'What lighter date alternatives did you suggest for the {key}?', e: [3] },
        ],
      },
      {
        sym: 'Tree shaking does not drop unused icons: every icon from the library ends up in the output.',
        cause: 'The icon package does not set sideEffects: false, and it exports everything through one index that registers icons globally, so the bundler must keep all of it.',
        fix: 'Import each icon from its own path, icons/esm/ArrowLeft, or use the plugin that rewrites named imports to deep imports.',
        qs: [
          { q: 'Why could dead-code elimination not remove unused glyphs from the {key}?', e: [1] },
          { q: 'How should the {key} import individual symbols?', e: [3] },
        ],
      },
      {
        sym: 'At runtime it throws "TypeError: Class extends value undefined is not a constructor".',
        cause: 'models/base.ts imports models/index.ts, which re-exports user.ts, which imports base.ts again; in the bundle order user.ts evaluates before base.ts finishes, so the base class is still undefined.',
        fix: 'Break the cycle: import Base directly from "./base" instead of the barrel file, and add madge --circular to CI to catch new cycles.',
        qs: [
          { q: 'Why was a parent class missing when the {key} started?', e: [1] },
          { q: 'What tool did you suggest to catch loops between modules in the {key}?', e: [3] },
        ],
      },
      {
        sym: 'It works in dev but the production build throws "default is not a function".',
        cause: 'The library ships CommonJS with module.exports = fn; in dev the bundler adds interop, but the production config treats it as ESM and the default import becomes the namespace object.',
        fix: 'Enable the same interop setting in both configs, or use the package\'s ESM entry through its exports field, which newer versions provide.',
        qs: [
          { q: 'Why did the {key} call fail only in the optimised release?', e: [1] },
          { q: 'How should the {key} configs agree on module compatibility?', e: [3] },
        ],
      },
      {
        sym: 'Stack traces from it in Sentry point at minified line 1, column {big}{m}.',
        cause: 'The build generates source maps but they are never uploaded to Sentry, and the release name in the SDK does not match the one CI uses.',
        fix: 'Upload the maps in CI with sentry-cli sourcemaps upload using the same release string as Sentry.init, and do not serve the .map files publicly.',
        qs: [
          { q: 'Why were error reports from the {key} unreadable?', e: [1] },
          { q: 'How should the {key} pipeline publish its debugging artifacts?', e: [3] },
        ],
      },
    ],
    latest: { q: 'The latest front-end packaging problem: what was behind it?', e: [1] },
  },
  {
    name: 'typescript',
    keys: ['api client', 'form schema', 'event bus', 'config loader', 'state store', 'query builder', 'plugin host', 'router module'],
    opens: [
      'TypeScript is giving me grief in the {key}.',
      'I am stuck on a type error in our {key}.',
    ],
    asks: ['What is the idiomatic fix?'],
    variants: [
      {
        sym: 'It says "Property data does not exist on type Result" even after I check status === "ok".',
        cause: 'You destructured status out of the object before the check; narrowing applies to the original variable, and TypeScript before 4.6 does not narrow separately destructured variables.',
        fix: 'Check result.status directly instead of the destructured variable, or upgrade to TypeScript 4.6 or later, where destructured discriminants narrow together as long as they are const.',
        qs: [
          { q: 'Why did the compiler not refine the union in the {key} after the comparison?', e: [1] },
          { q: 'How can the {key} get the discriminant check to work?', e: [3] },
        ],
      },
      {
        sym: 'A helper returns string instead of the literal union "draft" | "published".',
        cause: 'The generic parameter is inferred from an array literal, which TypeScript widens to string[] unless told otherwise.',
        fix: 'Add a const type parameter, function keys<const T extends readonly string[]>(...), available from TypeScript 5.0, or call it with as const.',
        qs: [
          { q: 'Why did the {key} lose its exact literal types?', e: [1] },
          { q: 'What modifier did you recommend for the {key} generic?', e: [3] },
        ],
      },
      {
        sym: 'Turning on strict mode produced {big} errors.',
        cause: 'Most of them come from strictNullChecks: optional fields read without checking, and find() results used as if always present.',
        fix: 'Enable the flags one at a time, strictNullChecks last, fix folder by folder with a @ts-expect-error budget tracked in CI, and add guards or non-null assertions only where a comment explains why.',
        qs: [
          { q: 'Where did most {key} complaints come from after tightening compiler settings?', e: [1] },
          { q: 'How did you suggest rolling out the stricter {key} checks gradually?', e: [3] },
        ],
      },
      {
        sym: 'Adding a user field to Express\'s Request gives "Property user does not exist on type Request".',
        cause: 'The declaration file that augments Express is not included by tsconfig, and it has no import or export, so TypeScript treats it as a global script instead of a module augmentation.',
        fix: 'Put it in src/types/express.d.ts with import "express" at the top and declare module "express-serve-static-core" { interface Request { user?: User } }, and make sure the folder is in include.',
        qs: [
          { q: 'Why was the extra request property unknown to the {key} typings?', e: [1] },
          { q: 'Where and how should the {key} extend the framework types?', e: [3] },
        ],
      },
      {
        sym: 'It ships a const enum that breaks when consumed from the published package: the values are undefined.',
        cause: 'const enums are inlined by tsc, but with isolatedModules, as under esbuild or Babel, the consumer cannot see the values, and the package did not emit them.',
        fix: 'Replace the const enum with a plain object marked as const and a union type derived from it, which works with every compiler.',
        qs: [
          { q: 'Why were the {key} constants missing for downstream users?', e: [1] },
          { q: 'What did you propose instead of the inlined {key} enumeration?', e: [3] },
        ],
      },
    ],
    latest: { q: 'What was the most recent compiler complaint we untangled about?', e: [0] },
  },
  {
    name: 'git',
    keys: [
      'feature/bulk-export|bulk-export', 'feature/pricing-v2|pricing-v2', 'hotfix/login-loop|login-loop', 'feature/search-rewrite|search-rewrite',
      'feature/onboarding-flow|onboarding-flow', 'feature/dark-mode|dark-mode', 'feature/audit-trail|audit-trail', 'feature/tax-rules|tax-rules',
    ],
    opens: ['I made a mess with git on {key}.', 'Git question about the {key} branch, and it is a bit urgent.'],
    asks: ['What is the safest way out?'],
    variants: [
      {
        sym: 'I ran git reset --hard and three days of commits are gone.',
        cause: 'They are not gone yet: reset only moves the branch pointer, and the old commits stay reachable from the reflog for 90 days by default.',
        fix: 'Run git reflog, find the entry before the reset, for example HEAD@{1}, and create a branch there with git branch rescue HEAD@{1}, or reset back to it.',
        qs: [
          { q: 'Were my vanished {key} changes actually lost after that destructive command?', e: [1] },
          { q: 'How do I recover the {key} work I discarded?', e: [3] },
        ],
      },
      {
        sym: 'The push is rejected: "File data/dump.sql is {big} MB; this exceeds GitHub\'s file size limit of 100 MB".',
        cause: 'The file was committed two commits ago; deleting it in a later commit does not help, because the push still contains the commit that added it.',
        fix: 'Remove it from history with git filter-repo --path data/dump.sql --invert-paths, or an interactive rebase dropping it, add it to .gitignore, and use Git LFS if it must live in the repo.',
        qs: [
          { q: 'Why did removing the huge SQL dump not let {key} upload?', e: [1] },
          { q: 'How do I purge that oversized export from the {key} history?', e: [3] },
        ],
      },
      {
        sym: 'Rebasing onto main makes me resolve the same package-lock.json conflict in {n} commits in a row.',
        cause: 'Each commit touched the lockfile, so the rebase replays the conflict once per commit.',
        fix: 'Enable git rerere so resolutions are recorded and reused, or squash the branch first; for the lockfile itself, take main\'s version and run npm install to regenerate it.',
        qs: [
          { q: 'Why did I keep fixing identical clashes while replaying {key}?', e: [1] },
          { q: 'Which setting remembers conflict resolutions for {key}?', e: [3] },
        ],
      },
      {
        sym: 'After I force-pushed, Sam\'s two commits from this morning disappeared from the remote.',
        cause: 'A plain --force replaces the remote branch with yours, whatever it contains; Sam pushed those commits after your last fetch.',
        fix: 'Sam still has them locally; he can push them to a new branch and you cherry-pick them. From now on use --force-with-lease, which refuses if the remote moved since you last fetched.',
        qs: [
          { q: 'How did my colleague\'s work on {key} get overwritten?', e: [1] },
          { q: 'Which safer overwrite option should I use on {key} from now on?', e: [3] },
        ],
      },
      {
        sym: 'Something broke the PDF export between tag v{ver} and today, about {m}0 commits.',
        cause: 'git bisect finds it in about 6 or 7 steps: run git bisect start, mark the current commit bad and the v{ver} tag good, and git checks out the midpoint each time.',
        fix: 'Automate it with git bisect run npm test -- pdf-export.test.ts; it stops at the first bad commit and prints it, then git bisect reset returns you to where you were.',
        qs: [
          { q: 'How can I hunt down which {key} change ruined the document download?', e: [1] },
          { q: 'Can the {key} binary search be scripted so it runs unattended?', e: [3] },
        ],
      },
    ],
    latest: { q: 'The most recent version-control accident: what had happened?', e: [0] },
  },
  {
    name: 'rate-limit',
    keys: ['Stripe', 'GitHub API', 'Shopify', 'Twilio', 'Salesforce', 'Google Maps', 'HubSpot', 'Zendesk'],
    opens: [
      'Our sync with {key} started failing with HTTP 429 Too Many Requests.',
      'We are being throttled by {key}: lots of 429 responses since this morning.',
    ],
    asks: ['How should we handle it?'],
    variants: [
      {
        sym: 'It recovers for a moment and then fails again in waves.',
        cause: 'All workers retry immediately on 429, so as soon as the window resets they all fire at once and hit the limit again.',
        fix: 'Honour the Retry-After header and add exponential backoff with full jitter, capped at 60 seconds.',
        qs: [
          { q: 'Why did our {key} integration keep getting blocked in bursts?', e: [1] },
          { q: 'What waiting strategy did you recommend after a {key} refusal?', e: [3] },
        ],
        follow: {
          u: 'Backoff helped with {key}, but the nightly import now takes {n} hours instead of one.',
          a: 'Backoff only reacts to refusals. Since the import is steady, pace it proactively: read the X-RateLimit-Remaining header and keep a client-side budget so you never hit 429 in the first place, and schedule the import in {key}\'s quiet hours.',
          q: 'Once the {key} job became very slow, how did you suggest pacing calls ahead of time?',
        },
      },
      {
        sym: 'The import runs {m} parallel workers against it.',
        cause: 'The limit is 100 requests per second per account, and the {m} workers have no shared limiter, so together they blow through it.',
        fix: 'Put a shared token bucket in Redis, bottleneck with its Redis store works, so all workers together stay at about 80% of the limit.',
        qs: [
          { q: 'Why did concurrency make {key} reject us?', e: [1] },
          { q: 'What coordination between processes did you propose for {key} calls?', e: [3] },
        ],
      },
      {
        sym: 'The sync updates records one call at a time, {big} calls per run.',
        cause: 'The API has a bulk endpoint taking 100 records per request, but the sync uses the single-record one.',
        fix: 'Use the batch endpoint with chunks of 100, which cuts the number of calls by two orders of magnitude.',
        qs: [
          { q: 'Why was our {key} traffic so chatty, record by record?', e: [0, 1] },
          { q: 'How did you suggest grouping the {key} updates?', e: [3] },
        ],
      },
      {
        sym: 'The poller asks for changes every {n} seconds for every customer.',
        cause: 'Most of those calls return nothing new and still count against the quota.',
        fix: 'Subscribe to their webhooks for change events and keep a slow nightly reconciliation poll as a safety net.',
        qs: [
          { q: 'What was wasting our {key} allowance?', e: [0, 1] },
          { q: 'What push-based approach did you recommend for {key} changes?', e: [3] },
        ],
      },
      {
        sym: 'Production traffic has not changed at all this week.',
        cause: 'Every environment, staging and developers\' laptops included, uses the same credentials, so the quota is shared with test runs.',
        fix: 'Issue separate credentials per environment and point staging at the provider\'s sandbox, which has its own limits.',
        qs: [
          { q: 'Why was our {key} allowance exhausted with unchanged real load?', e: [1] },
          { q: 'How should non-production systems talk to {key}?', e: [3] },
        ],
      },
    ],
    latest: { q: 'The last time a third-party service throttled us, what was the cause?', e: [1] },
  },
  {
    name: 'redis-cache',
    keys: ['product pages', 'user profiles', 'pricing rules', 'search results', 'feature config', 'exchange rates', 'shipping zones', 'store hours'],
    opens: ['We have a caching problem with {key}.', 'The Redis cache in front of {key} is misbehaving.'],
    asks: ['What is the right way to handle it?'],
    variants: [
      {
        sym: 'Editors change {key} in the admin and the site keeps showing the old version for up to an hour.',
        cause: 'The cache entry is written with a one hour TTL, and the admin update writes to Postgres but never deletes the key.',
        fix: 'Delete the key in the same code path that commits the update, after the commit, and publish an invalidation message for other instances\' in-process caches.',
        qs: [
          { q: 'Why did edits to {key} take so long to appear publicly?', e: [0, 1] },
          { q: 'How should saving {key} evict outdated entries?', e: [3] },
        ],
        follow: {
          u: 'We added the delete after saving {key}, but once in a while a stale value still sticks around until expiry.',
          a: 'That is the race between a reader that loaded the old row just before your commit and writes it back after your delete. Delete again a second or so later, a delayed double delete, or store a version number with the entry and refuse to overwrite a newer one.',
          q: 'What race remained after invalidating {key} on write, and how did you propose closing it?',
        },
      },
      {
        sym: 'Every hour on the hour database CPU spikes to 100% for {n}0 seconds and requests for {key} time out.',
        cause: 'All the {key} keys were written at the same moment with the same TTL, so they expire together, every request misses at once and hits the database.',
        fix: 'Add random jitter to the TTL, and use a lock or single-flight so only one request recomputes a missing key while the others wait or serve the stale value.',
        qs: [
          { q: 'Why did the DB get hammered at regular intervals by {key} traffic?', e: [1] },
          { q: 'How can simultaneous expiry of {key} be avoided?', e: [3] },
        ],
      },
      {
        sym: 'Redis is at maxmemory and writes for {key} fail with "OOM command not allowed when used memory > maxmemory".',
        cause: 'maxmemory-policy is noeviction, the default, so once memory is full Redis refuses writes instead of dropping old keys.',
        fix: 'Set maxmemory-policy to allkeys-lru on the cache instance, and keep queues and sessions on a separate instance that must never evict.',
        qs: [
          { q: 'Why did storing {key} start erroring when the instance filled up?', e: [1] },
          { q: 'Which eviction configuration did you recommend for the {key} instance?', e: [3] },
        ],
      },
      {
        sym: 'After reading {key} from the cache, dates are strings and the code crashes on .getTime().',
        cause: 'JSON.stringify turns Date objects into ISO strings and JSON.parse does not turn them back, so cached objects differ from freshly loaded ones.',
        fix: 'Use a reviver when parsing, or superjson, and add a test that compares a cached round-trip with a fresh load.',
        qs: [
          { q: 'Why did timestamps in cached {key} come back with the wrong type?', e: [1] },
          { q: 'How should {key} be deserialised to restore proper objects?', e: [3] },
        ],
      },
      {
        sym: 'Latency for {key} is fine on average, but p99 jumped to {m}0 ms.',
        cause: 'One hash holds all {key} under a single key of about {n}0 MB; every HGETALL on it blocks Redis\'s single thread for milliseconds and everything else waits.',
        fix: 'Split it into one key per item, or bucketed hashes, and fetch only the fields you need with HMGET.',
        qs: [
          { q: 'Why were tail response times for {key} so bad?', e: [1] },
          { q: 'How should the {key} data be laid out instead?', e: [3] },
        ],
      },
    ],
    latest: { q: 'What was wrong in the most recent cache incident?', e: [1] },
  },
  {
    name: 'scheduled-job',
    keys: ['invoice run', 'daily digest email', 'nightly backup', 'usage rollup', 'subscription renewal', 'report snapshot', 'data retention purge', 'payout batch'],
    opens: ['Our scheduled {key} misbehaved again.', 'The {key} job did something weird this week.'],
    asks: ['How do we make it reliable?'],
    variants: [
      {
        sym: 'It was skipped entirely last Sunday, and in October it ran twice.',
        cause: 'The cron is scheduled at 02:30 Europe/Berlin; on the spring clock change 02:30 does not exist, so it was skipped, and in autumn that time happens twice.',
        fix: 'Schedule it in UTC, or pick a local time outside 02:00 to 03:00, and make the job idempotent with a per-day run record.',
        qs: [
          { q: 'Why did daylight saving make the {key} vanish or repeat?', e: [1] },
          { q: 'What timing and idempotency changes did you suggest for the {key}?', e: [3] },
        ],
      },
      {
        sym: 'For Australian customers it includes yesterday\'s data.',
        cause: 'The job computes "today" on the server in UTC, and for Sydney, UTC+10 or +11, the local day begins at 13:00 or 14:00 UTC the previous day.',
        fix: 'Compute day boundaries per customer timezone with Temporal or luxon, storing the customer\'s IANA zone rather than a fixed offset.',
        qs: [
          { q: 'Why did the {key} pick the wrong date range for Sydney clients?', e: [1] },
          { q: 'How should the {key} work out where each customer\'s day starts?', e: [3] },
        ],
      },
      {
        sym: 'It now takes longer than its interval, and two copies run at the same time.',
        cause: 'It is triggered every 15 minutes and now takes about {m} minutes with the data growth, and nothing stops a second instance from starting.',
        fix: 'Take a Postgres advisory lock with pg_try_advisory_lock at the start and exit if it is not acquired; then look at making it incremental.',
        qs: [
          { q: 'Why were there overlapping executions of the {key}?', e: [0, 1] },
          { q: 'What mutual exclusion mechanism did you propose for the {key}?', e: [3] },
        ],
      },
      {
        sym: 'On 31 January it scheduled next month\'s run for 3 March.',
        cause: 'Adding one month with setMonth(getMonth() + 1) on 31 January gives 31 February, which JavaScript rolls over to 3 March.',
        fix: 'Clamp to the last day of the month, date-fns addMonths does that, and test the 29th to 31st edge cases explicitly.',
        qs: [
          { q: 'Why did the {key} jump into the wrong month after January ended?', e: [1] },
          { q: 'Which helper handles calendar arithmetic properly for the {key}?', e: [3] },
        ],
      },
      {
        sym: 'The Kubernetes CronJob did not run at all last night.',
        cause: 'The controller was down for the cluster upgrade, and after more than 100 missed schedules with no startingDeadlineSeconds it stops trying and logs "too many missed start times".',
        fix: 'Set startingDeadlineSeconds to 3600 so it only counts recent misses, and alert on the job\'s last successful time.',
        qs: [
          { q: 'Why did the cluster never launch the {key} after the upgrade?', e: [1] },
          { q: 'What deadline field did you recommend on the {key} spec?', e: [3] },
        ],
      },
    ],
    latest: { q: 'The most recent problem with a periodic task: why did it misfire?', e: [1] },
  },
  {
    name: 'websocket',
    keys: ['live chat', 'trading ticker', 'collab editor', 'delivery tracker', 'game lobby', 'ops dashboard', 'auction room', 'support inbox'],
    opens: ['The websocket connections of the {key} are unstable.', 'Realtime updates in the {key} keep breaking.'],
    asks: ['How do we fix the connection handling?'],
    variants: [
      {
        sym: 'Connections drop after exactly 60 seconds of silence.',
        cause: 'The AWS load balancer\'s idle timeout is 60 seconds; with no traffic it closes the connection.',
        fix: 'Send a ping frame from the server every 25 seconds, and raise the ALB idle timeout if you need longer quiet periods.',
        qs: [
          { q: 'Why did quiet {key} sockets get cut after a minute?', e: [1] },
          { q: 'What keep-alive interval did you suggest for the {key}?', e: [3] },
        ],
      },
      {
        sym: 'Since we scaled to 3 instances it shows "Session ID unknown" errors.',
        cause: 'Socket.IO starts with HTTP long-polling, and each poll can land on a different instance that does not know the session.',
        fix: 'Enable sticky sessions on the load balancer or force the websocket transport only, and use the Redis adapter so broadcasts reach clients on every instance.',
        qs: [
          { q: 'Why did horizontal scaling break the {key} handshakes?', e: [1] },
          { q: 'What affinity and adapter setup did you recommend for the {key}?', e: [3] },
        ],
      },
      {
        sym: 'It works locally, but behind nginx the handshake fails with 400.',
        cause: 'nginx does not forward the Upgrade and Connection headers by default, and it proxies with HTTP/1.0.',
        fix: 'Add proxy_http_version 1.1; proxy_set_header Upgrade $http_upgrade; proxy_set_header Connection "upgrade"; to that location block.',
        qs: [
          { q: 'Why did the reverse proxy reject the {key} protocol switch?', e: [1] },
          { q: 'Which proxy directives does the {key} need?', e: [3] },
        ],
      },
      {
        sym: 'After the deploy it got {big}0 reconnects in one second and the servers fell over.',
        cause: 'Every client reconnects immediately with the same fixed 1 second delay, so all of them hit the new pods together.',
        fix: 'Use exponential backoff with random jitter on the client, and drain old pods gradually so clients do not all disconnect at once.',
        qs: [
          { q: 'Why did {key} users overwhelm the backend right after shipping?', e: [0, 1] },
          { q: 'How should {key} clients space out their retries?', e: [3] },
        ],
      },
      {
        sym: 'Server memory climbs whenever one client is on a slow connection.',
        cause: 'The server keeps calling send() and the messages buffer in memory because that client cannot read them fast enough; bufferedAmount grows without limit.',
        fix: 'Check socket.bufferedAmount before sending, drop or coalesce updates when it passes about 1 MB, and close clients that stay behind.',
        qs: [
          { q: 'Why did a laggy {key} subscriber inflate server RAM?', e: [1] },
          { q: 'What backpressure check did you suggest for the {key}?', e: [3] },
        ],
        follow: {
          u: 'Dropping updates for slow {key} clients works, but now they see stale values until the next change.',
          a: 'Coalesce instead of dropping: keep only the latest state per topic for a slow client and send that snapshot once its buffer drains, so it skips intermediate updates but always ends current.',
          q: 'Instead of discarding messages for lagging {key} users, what did you propose sending?',
        },
      },
    ],
    latest: { q: 'In the last realtime connection problem, what was the cause?', e: [1] },
  },
  {
    name: 'python-deps',
    keys: ['ml-training', 'etl-scripts', 'django-backend', 'airflow-dags', 'pdf-service', 'scraper', 'forecasting', 'notebook-tools'],
    opens: ['Python dependency trouble in {key} again.', 'I cannot get the {key} environment to install cleanly.'],
    asks: ['How do I get it working reliably?'],
    variants: [
      {
        sym: 'pip fails with "ResolutionImpossible" between pandas and numpy.',
        cause: 'The pinned pandas only works with numpy below 2, while the new scipy you added requires numpy 2 or later.',
        fix: 'Pin scipy to the last release that supports numpy 1.26, or upgrade pandas to 2.2.2 or later, which supports numpy 2; record the result in a lock file with pip-tools.',
        qs: [
          { q: 'Why could the installer not find compatible versions for {key}?', e: [1] },
          { q: 'How did you suggest resolving the numerical-library clash in {key}?', e: [3] },
        ],
      },
      {
        sym: 'Installing psycopg2 in the Docker image fails with "pg_config executable not found".',
        cause: 'psycopg2 builds from source and needs the libpq headers, which the slim base image does not have.',
        fix: 'Use psycopg2-binary for development, or install libpq-dev and gcc in a build stage and copy the wheel into the slim runtime image.',
        qs: [
          { q: 'Why did the Postgres driver fail to compile in the {key} container?', e: [1] },
          { q: 'What multi-stage approach did you suggest for the {key} image?', e: [3] },
        ],
      },
      {
        sym: 'It imports fine in the terminal, but VS Code says "Import requests could not be resolved".',
        cause: 'The Python extension is using the system interpreter, not the .venv inside the project.',
        fix: 'Pick the interpreter with "Python: Select Interpreter" and point it at .venv/bin/python; add python.defaultInterpreterPath to the workspace settings.',
        qs: [
          { q: 'Why did the editor flag {key} packages as missing?', e: [1] },
          { q: 'How do I make the IDE use the {key} virtual environment?', e: [3] },
        ],
      },
      {
        sym: 'It broke overnight without any code change: "ImportError: cannot import name url_quote from werkzeug.urls".',
        cause: 'Flask\'s dependency werkzeug released 3.0, which removed url_quote, and nothing pinned it, so the fresh build pulled it in.',
        fix: 'Pin werkzeug below 3 until Flask is upgraded, and generate a full requirements lock with hashes so builds are reproducible.',
        qs: [
          { q: 'What upstream release broke {key} with no commits from us?', e: [1] },
          { q: 'How do we keep transitive packages in {key} from drifting?', e: [3] },
        ],
      },
      {
        sym: 'Colleagues on M1 and M2 Macs cannot install the dependencies: no matching tensorflow wheel.',
        cause: 'The pinned tensorflow version has no wheel for macOS arm64.',
        fix: 'Use tensorflow-macos and tensorflow-metal on Apple Silicon through an environment marker, or run the project in the x86 Docker image.',
        qs: [
          { q: 'Why could Apple Silicon laptops not set up {key}?', e: [1] },
          { q: 'What platform-specific requirement did you suggest for {key}?', e: [3] },
        ],
      },
    ],
    latest: { q: 'The most recent Python packaging breakage: what caused it?', e: [1] },
  },
  {
    name: 'logging',
    keys: services,
    opens: ['I have a logging problem with {key}.', 'Observability question about {key}.'],
    asks: ['What should we change?'],
    variants: [
      {
        sym: 'The logging bill for {key} went up by {m}% this month.',
        cause: 'Debug logging was left on after the incident, and every request logs its full payload, about 8 KB per line.',
        fix: 'Return the level to info, log payload sizes rather than bodies, and sample successful requests at 1% while keeping every error.',
        qs: [
          { q: 'Why did {key} observability costs spike?', e: [1] },
          { q: 'How did you suggest trimming what {key} emits?', e: [3] },
        ],
      },
      {
        sym: 'I cannot follow a request from {key} into the downstream services.',
        cause: 'The trace context is not propagated: the HTTP client does not send the traceparent header, so every service starts a new trace.',
        fix: 'Use the OpenTelemetry auto-instrumentation for the HTTP client, and include trace_id in the log formatter so logs and traces link up.',
        qs: [
          { q: 'Why was correlation across hops broken for {key} calls?', e: [1] },
          { q: 'What instrumentation did you recommend so {key} spans connect?', e: [3] },
        ],
      },
      {
        sym: 'Alerts on {key} error rates never fire, though errors are clearly there.',
        cause: 'The logs are plain text, and the alert query filters on level=error, a field that only exists in JSON logs.',
        fix: 'Switch the logger to JSON output, pino does this, with level as a field, and test the alert query against a sample line.',
        qs: [
          { q: 'Why did monitoring never page anyone about {key} failures?', e: [1] },
          { q: 'What output format should the {key} logger produce?', e: [3] },
        ],
      },
      {
        sym: 'Security found email addresses and card last-fours in the {key} logs.',
        cause: 'The request logger serialises the whole body, and nothing redacts fields.',
        fix: 'Configure pino\'s redact option with paths such as body.email and body.card, and add a scanner to CI for obvious patterns.',
        qs: [
          { q: 'How did personal data leak into what {key} records?', e: [1] },
          { q: 'How should {key} mask sensitive properties?', e: [3] },
        ],
      },
      {
        sym: 'When {key} crashes, the last few seconds of logs never show up.',
        cause: 'The logger writes asynchronously through a buffer, and process.exit() in the crash handler kills the process before the buffer is flushed.',
        fix: 'Flush the logger synchronously in the fatal handler, pino.final or logger.flush(), and let the process exit on its own instead of calling process.exit.',
        qs: [
          { q: 'Why were the final messages before a {key} failure missing?', e: [1] },
          { q: 'How should {key} terminate so nothing is lost?', e: [3] },
        ],
      },
    ],
    latest: { q: 'In our most recent observability issue, what went wrong?', e: [1] },
  },
  {
    name: 'cors',
    keys: ['partner dashboard', 'checkout widget', 'docs playground', 'status page', 'mobile web app', 'embed SDK', 'careers site', 'survey form'],
    opens: ['CORS errors again, this time from the {key}.', 'The browser blocks API calls from the {key}.'],
    asks: ['What headers or setup do we need?'],
    variants: [
      {
        sym: 'The console says "Response to preflight request does not pass access control check".',
        cause: 'The request sends a custom X-Request-Id header, which makes it non-simple, so the browser sends OPTIONS first, and the API returns 404 for OPTIONS.',
        fix: 'Handle OPTIONS in the API or gateway, answering with Access-Control-Allow-Headers: X-Request-Id, Content-Type plus the allowed methods, and cache it with Access-Control-Max-Age.',
        qs: [
          { q: 'Why did the {key} fail before even sending the real request?', e: [1] },
          { q: 'How should the server answer the {key} OPTIONS call?', e: [3] },
        ],
      },
      {
        sym: 'Adding credentials: "include" to fetch causes the error.',
        cause: 'With credentials the browser refuses Access-Control-Allow-Origin: *; it needs the exact origin echoed back and Allow-Credentials: true.',
        fix: 'Echo the request\'s Origin only if it is in an allow-list, set Access-Control-Allow-Credentials: true, and add Vary: Origin so caches do not mix responses.',
        qs: [
          { q: 'Why did sending cookies from the {key} trip the browser check?', e: [1] },
          { q: 'How should the API respond to the {key} when cookies are involved?', e: [3] },
        ],
      },
      {
        sym: 'It works for the first site that requests a font, then fails for everyone else.',
        cause: 'The CDN cached the font with the first caller\'s Access-Control-Allow-Origin header and serves it to everyone, since the response lacks Vary: Origin.',
        fix: 'Add Vary: Origin on the origin server, or have the CDN set the header itself per request.',
        qs: [
          { q: 'Why did the {key} get blocked only after a different site loaded the asset?', e: [1] },
          { q: 'Which response header keeps the edge from mixing {key} responses?', e: [3] },
        ],
      },
      {
        sym: 'Only one endpoint fails, and it returns a 301.',
        cause: 'The API redirects /v1/items to /v1/items/ with a trailing slash, and the redirect response carries no CORS headers, so the browser blocks it before following.',
        fix: 'Call the canonical URL with the trailing slash directly, and add CORS headers in the middleware that runs before redirects.',
        qs: [
          { q: 'Why did a single {key} route fail the cross-origin check?', e: [1] },
          { q: 'What URL change did you suggest for that {key} call?', e: [3] },
        ],
      },
      {
        sym: 'In development it runs on localhost:5173 and cannot call the staging API.',
        cause: 'The staging allow-list contains only the production origins.',
        fix: 'Use the Vite dev server proxy, server.proxy for /api, so the browser sees one origin, instead of adding localhost to staging\'s list.',
        qs: [
          { q: 'Why could local {key} development not reach the test backend?', e: [0, 1] },
          { q: 'What dev-server feature did you suggest for the {key}?', e: [3] },
        ],
      },
    ],
    latest: { q: 'The latest cross-origin failure we looked at: why did the browser block it?', e: [1] },
  },
  {
    name: 'file-upload',
    keys: ['avatar upload', 'invoice import', 'video upload', 'bulk CSV import', 'document scanner', 'attachment picker', 'logo uploader', 'receipt capture'],
    opens: ['Uploads are failing in the {key}.', 'We have a problem with large files in the {key}.'],
    asks: ['How should uploads work here?'],
    variants: [
      {
        sym: 'Anything above 1 MB fails with "413 Request Entity Too Large".',
        cause: 'nginx\'s client_max_body_size defaults to 1m, and the ingress rejects larger bodies before they reach the app.',
        fix: 'Set nginx.ingress.kubernetes.io/proxy-body-size: 50m on the ingress, matching the limit the app enforces.',
        qs: [
          { q: 'Why were bigger files refused before reaching the {key} code?', e: [1] },
          { q: 'Which ingress annotation did you give for the {key}?', e: [3] },
        ],
      },
      {
        sym: 'The server runs out of memory when several people upload big files.',
        cause: 'multer is configured with memoryStorage, so every file is held whole in RAM.',
        fix: 'Stream the upload straight to S3 with a multipart upload, busboy plus @aws-sdk/lib-storage, or let clients upload directly with presigned URLs.',
        qs: [
          { q: 'Why did concurrent {key} transfers exhaust RAM?', e: [1] },
          { q: 'How should the {key} handle the bytes instead of buffering them?', e: [3] },
        ],
      },
      {
        sym: 'Large uploads fail with 403 "Request has expired" after a while.',
        cause: 'The presigned PUT URL is valid for 5 minutes, and slow connections take longer than that to finish.',
        fix: 'Use a multipart upload with one presigned URL per part, refreshed as needed, or raise the expiry to an hour.',
        qs: [
          { q: 'Why did slow {key} transfers get denied midway?', e: [1] },
          { q: 'How did you suggest keeping long {key} transfers authorised?', e: [3] },
        ],
      },
      {
        sym: 'It accepts files with a .png extension that turn out to be HTML.',
        cause: 'Validation checks only the file extension and the client-provided Content-Type, both of which the client controls.',
        fix: 'Check the magic bytes with the file-type package, re-encode images on the server, and serve uploads from a separate domain with Content-Disposition: attachment.',
        qs: [
          { q: 'Why could disguised documents get past the {key} checks?', e: [1] },
          { q: 'How should the {key} verify what a file really is?', e: [3] },
        ],
      },
      {
        sym: 'It fails for files that take over 60 seconds to process.',
        cause: 'Processing happens inside the request, and the load balancer closes requests after 60 seconds.',
        fix: 'Return 202 Accepted with a job id right after the upload, process in a background worker, and let the client poll or get a notification.',
        qs: [
          { q: 'Why did heavy {key} work get cut off at one minute?', e: [1] },
          { q: 'What asynchronous flow did you recommend for the {key}?', e: [3] },
        ],
      },
    ],
    latest: { q: 'The most recent broken file submission: what was the reason?', e: [1] },
  },
  {
    name: 'concurrency',
    keys: services,
    opens: ['We have a concurrency bug in {key} under load.', '{key} misbehaves only when traffic is high.'],
    asks: ['How do we make it safe?'],
    variants: [
      {
        sym: '{key} logs "deadlock detected" a few times an hour.',
        cause: 'Two code paths update the same two accounts in opposite order: transfers lock the sender then the receiver, refunds lock the receiver then the sender.',
        fix: 'Always lock rows in a consistent order, SELECT ... FOR UPDATE ordered by id, and retry the transaction on SQLSTATE 40P01.',
        qs: [
          { q: 'Why did {key} transactions block each other in a cycle?', e: [1] },
          { q: 'What row ordering rule did you give for {key}?', e: [3] },
        ],
      },
      {
        sym: 'The goroutine count of {key} grows from about 200 to {big}00 over a day.',
        cause: 'Each request starts a goroutine that sends its result on an unbuffered channel, but when the request times out nobody reads the channel, so the sender blocks forever.',
        fix: 'Make the channel buffered with capacity 1, or select on ctx.Done() in the sender so it returns when the caller gives up.',
        qs: [
          { q: 'Why were {key} background routines never finishing?', e: [1] },
          { q: 'How should the {key} sender avoid hanging after a timeout?', e: [3] },
        ],
      },
      {
        sym: 'Stock counts in {key} are occasionally off by one or two after busy sales.',
        cause: 'The code reads the quantity, subtracts in application code and writes it back; two concurrent requests read the same value and one decrement is lost.',
        fix: 'Do it atomically in SQL, UPDATE stock SET qty = qty - 1 WHERE id = $1 AND qty > 0, or use optimistic locking with a version column.',
        qs: [
          { q: 'Why did {key} inventory numbers drift when many buyers checked out?', e: [0, 1] },
          { q: 'How should {key} decrement quantities safely?', e: [3] },
        ],
      },
      {
        sym: 'Throughput of {key} flatlines at about {m}0 requests per second no matter how many cores we give it.',
        cause: 'A global mutex around the config map is held while the handler makes an HTTP call, so requests run one at a time.',
        fix: 'Copy the value you need under the lock and release it before any IO, or use an RWMutex or atomic.Value for the config snapshot.',
        qs: [
          { q: 'Why did adding CPUs not speed {key} up?', e: [1] },
          { q: 'How should {key} read shared settings without serialising everything?', e: [3] },
        ],
      },
      {
        sym: '{key} hangs under load with "timeout acquiring a connection from the pool".',
        cause: 'A transaction calls another function that asks the pool for a second connection while holding the first; with a pool of 10, ten concurrent requests each hold one and wait for another.',
        fix: 'Pass the transaction\'s client down to nested calls instead of acquiring a new one, and set a statement timeout so stuck requests fail fast.',
        qs: [
          { q: 'Why did {key} starve itself of database handles?', e: [1] },
          { q: 'How should nested {key} functions reuse the open transaction?', e: [3] },
        ],
      },
    ],
    latest: { q: 'The latest race or locking bug we chased: what was the cause?', e: [1] },
  },
  {
    name: 'config-flags',
    keys: services,
    opens: ['A configuration surprise in {key} today.', 'A feature flag or setting in {key} is not doing what we expect.'],
    asks: ['How do we prevent this?'],
    variants: [
      {
        sym: 'The new pricing flag is on in staging but {key} still behaves as if it were off.',
        cause: 'The deployment sets FEATURE_NEW_PRICNG, missing an I, so the app reads undefined and falls back to false.',
        fix: 'Validate configuration at startup with a schema, zod or envalid, that rejects unknown FEATURE_ variables and lists the known ones.',
        qs: [
          { q: 'Why was the toggle ignored by {key} even though we enabled it?', e: [1] },
          { q: 'What startup validation did you suggest for {key} environment variables?', e: [3] },
        ],
      },
      {
        sym: 'Setting ENABLE_CACHE=false for {key} still enables the cache.',
        cause: 'Environment variables are strings; the code does if (process.env.ENABLE_CACHE), and "false" is a non-empty string, so it is truthy.',
        fix: 'Parse booleans explicitly, accepting only "true" or "false" and "1" or "0", and fail on anything else.',
        qs: [
          { q: 'Why did switching {key} caching off have no effect?', e: [1] },
          { q: 'How should {key} interpret true/false settings?', e: [3] },
        ],
      },
      {
        sym: 'A value in the config.yaml of {key} is ignored in production.',
        cause: 'The loader merges defaults, then the file, then environment variables, and the Helm chart sets the same key as an environment variable with the old value.',
        fix: 'Remove the duplicate from the chart and log the effective config, with the source of each value, at startup.',
        qs: [
          { q: 'Why did the YAML setting lose out in {key}?', e: [1] },
          { q: 'What diagnostic output did you suggest for {key} at launch?', e: [3] },
        ],
      },
      {
        sym: 'Turning off the kill switch for {key} took 10 minutes to have an effect.',
        cause: 'The SDK polls the flag service every 5 minutes, and each pod also caches evaluated flags for 5 minutes.',
        fix: 'Use the SDK\'s streaming mode for kill switches so changes arrive in seconds, and do not cache kill-switch evaluations.',
        qs: [
          { q: 'Why was the {key} emergency toggle so slow to apply?', e: [1] },
          { q: 'What delivery mode did you recommend for {key} kill switches?', e: [3] },
        ],
      },
      {
        sym: 'After an old flag was deleted from the dashboard, {key} crashes on startup.',
        cause: 'The code calls flags.get("checkout_v2") and dereferences the result; when the flag no longer exists the SDK returns undefined instead of a default.',
        fix: 'Always pass a default to the flag lookup, and remove flags from the code before deleting them in the dashboard.',
        qs: [
          { q: 'Why did retiring a toggle make {key} fail to boot?', e: [0, 1] },
          { q: 'What order should flag cleanup follow for {key}?', e: [3] },
        ],
      },
    ],
    latest: { q: 'What went wrong in the most recent settings mix-up?', e: [1] },
  },
  {
    name: 'queue-jobs',
    keys: ['email sender', 'thumbnail generator', 'payout worker', 'import processor', 'webhook dispatcher', 'search reindexer', 'invoice mailer', 'sms notifier'],
    opens: ['The {key} queue is misbehaving.', 'Problem with our {key} background jobs.'],
    asks: ['How do we make the consumer robust?'],
    variants: [
      {
        sym: 'It processes some messages two or three times.',
        cause: 'The SQS visibility timeout is 30 seconds, but large jobs take up to {n} minutes, so the message becomes visible again and another worker picks it up.',
        fix: 'Set the visibility timeout above the longest job, extend it with ChangeMessageVisibility as a heartbeat for long ones, and make the handler idempotent with a processed-ids table.',
        qs: [
          { q: 'Why was the {key} handling the same item repeatedly?', e: [1] },
          { q: 'How should long {key} tasks keep their claim on a message?', e: [3] },
        ],
        follow: {
          u: 'With the longer visibility timeout the {key} no longer double-processes, but one crashed worker now delays its message for {m} minutes.',
          a: 'That is the cost of a long timeout. Keep the default short, two minutes, and extend it every minute while the job runs; a crashed worker stops extending, so its message comes back within two minutes.',
          q: 'How did you reconcile fast redelivery after a crash with long-running {key} work?',
        },
      },
      {
        sym: 'It is stuck: the same message fails over and over, and nothing behind it moves.',
        cause: 'A malformed payload throws on parse and is retried forever, and the queue is FIFO, so it blocks the whole message group.',
        fix: 'Configure a dead-letter queue with maxReceiveCount 5, and alert when messages land there.',
        qs: [
          { q: 'Why did one bad payload halt the whole {key} pipeline?', e: [1] },
          { q: 'Where should repeatedly failing {key} items go?', e: [3] },
        ],
      },
      {
        sym: 'Some jobs vanish when a worker restarts.',
        cause: 'The consumer acknowledges each message as soon as it is received, before processing, so a crash mid-job loses it.',
        fix: 'Acknowledge only after the work is committed, with manual acks, and make processing idempotent, since redelivery becomes possible.',
        qs: [
          { q: 'Why were {key} tasks lost during deploys?', e: [1] },
          { q: 'When should the {key} confirm receipt?', e: [3] },
        ],
      },
      {
        sym: 'One worker is busy while the other {n} sit idle.',
        cause: 'RabbitMQ\'s prefetch is unlimited, so the first worker to connect takes the whole backlog into its buffer.',
        fix: 'Set channel.prefetch(1), or a small number like 10, so messages are distributed as workers become free.',
        qs: [
          { q: 'Why was the {key} load so unevenly spread across consumers?', e: [1] },
          { q: 'Which channel setting did you recommend for the {key}?', e: [3] },
        ],
      },
      {
        sym: 'During the provider outage it made {big}000 attempts in ten minutes.',
        cause: 'Failed jobs are retried immediately, with no delay and no cap.',
        fix: 'Use exponential backoff starting at 30 seconds with at most 8 attempts, and pause the queue automatically when the error rate passes a threshold.',
        qs: [
          { q: 'Why did the {key} hammer the vendor during their downtime?', e: [0, 1] },
          { q: 'What retry schedule did you propose for the {key}?', e: [3] },
        ],
      },
    ],
    latest: { q: 'In the latest background-worker incident, what was going wrong?', e: [1] },
  },
];

/**
 * Questions answered by the user's own report (turn 0), per family and variant ('' where a variant already
 * has one): what was seen, when, which error; the assistant's turns do not hold these answers.
 */
const reportQuestions: Record<string, readonly string[]> = {
  'flaky-test': [
    '',
    'Did the {key} break in isolation or only alongside the rest of the suite?',
    '',
    'What did the picture of the broken {key} attempt show?',
    'Which database complaint appeared whenever the {key} broke?',
  ],
  'deploy-failure': [
    'What exit status did the orchestrator show for the failing {key} containers?',
    'What state did the {key} release finish in once the deadline passed?',
    'What state did the {key} workloads show while fetching the image?',
    '',
    'Which table did the {key} init step say was missing?',
  ],
  'db-migration': [
    '',
    'What did Postgres say about empty values when upgrading {key}?',
    'How long did the {key} change sit before Postgres aborted it?',
    'What message came back when linking {key} to customers?',
    '',
  ],
  'react-rerender': [
    'What was the only thing {key} took from context?',
    'Was {key} memoised before we started investigating?',
    'What else was {key} doing repeatedly besides redrawing, according to the devtools?',
    '',
    'How does {key} get its data from the global store?',
  ],
  'ci-caching': [
    'What did the {key} cache lookup print when it came up empty?',
    'Which step consumed the bulk of {key} pipeline duration?',
    'Under what circumstances did {key} still get a hit, once things degraded?',
    'What infrastructure change coincided with the {key} slowdown?',
    'What message did each {key} job log from the monorepo tool?',
  ],
  'memory-leak': [
    'Which runtime warning kept showing up for {key}?',
    '',
    'What usage pattern made the {key} leak speed up?',
    'Which user activity coincided with the sudden {key} RAM increases?',
    'Which upstream service was struggling when the {key} growth appeared?',
  ],
  'docker-networking': [
    'What database host was configured in {key} originally?',
    'Who hit the name lookup error when running {key}?',
    'What happened when I tested the forwarded {key} endpoint from my laptop?',
    'Under which circumstances did {key} downloads stall?',
    'Where were {key} and its cache defined?',
  ],
  'auth-tokens': [
    'What share of {key} calls failed right after signing in?',
    '',
    'What error did {key} get from the reporting service?',
    'When did {key} sign-ins start failing?',
    'At which point in the purchase flow did {key} forget the user?',
  ],
  i18n: [
    'What wrong word form did the Polish {key} display?',
    'Which visual elements were flipped incorrectly in the Arabic {key}?',
    '',
    'Which language version of the {key} had an unreadable line?',
    'For Turkish users, which character made {key} lookups come back empty?',
  ],
  regex: [
    'What was the worst latency we saw from the {key} pattern?',
    'How much text did the {key} expression take between the b elements?',
    'How many problems were in the file that the {key} only partly found?',
    'Which browser threw the {key} syntax error?',
    'Which people\'s spellings did the {key} refuse?',
  ],
  'slow-query': [
    '',
    'What did the {key} execution plan reveal?',
    'Which comparison operator did the {key} text filtering rely on?',
    'How did the {key} speed vary between the first screen and later ones?',
    'Which widget on the {key} was responsible for the wait?',
  ],
  bundler: [
    'By how much did the {key} download grow?',
    'Which assets stayed in the {key} JavaScript despite not being used?',
    'What exception did the {key} throw at startup?',
    'In which environment did the {key} work fine?',
    'What location did the crash reports from the {key} reference?',
  ],
  typescript: [
    'Which member did tsc claim was absent on the result in the {key}?',
    'What did the {key} utility hand back rather than the exact words?',
    'How big was the diagnostic count after enabling the tougher mode on {key}?',
    'Which extra attribute on incoming HTTP calls was the {key} missing in its typings?',
    'Which language construct in the shipped {key} package misbehaved for consumers?',
  ],
  git: [
    'Which command did I run before the {key} work disappeared?',
    'What size was the database dump that the server refused on {key}?',
    'How often did I fix the dependency lock clash when replaying {key}?',
    'Whose work disappeared from the server after I overwrote {key}?',
    'What functionality stopped working on {key}, and since which tag?',
  ],
  'rate-limit': [
    'How did the {key} failures come and go over time?',
    'How many concurrent processes were hitting {key}?',
    '',
    '',
    'Did actual customer load on {key} increase before the throttling?',
  ],
  'redis-cache': [
    '',
    'At what times of day did the DB overload hit for {key}?',
    'What message did Redis give when saving {key} on a full instance?',
    'Which method blew up after loading {key} from cache?',
    'How slow did the worst {key} requests get?',
  ],
  'scheduled-job': [
    'How did the {key} behave around the clock changes?',
    'Which country\'s clients got the previous day in the {key}?',
    '',
    'Which day did the {key} wrongly pick from the end of the first month?',
    'What went wrong with the {key} schedule on the cluster yesterday evening?',
  ],
  websocket: [
    'After how long did idle {key} connections die?',
    'What error showed up once {key} ran on several nodes?',
    'Which status code did the {key} handshake return through the proxy?',
    '',
    'What did the backend RAM do when a {key} user had poor bandwidth?',
  ],
  'python-deps': [
    'Which two libraries did pip say were incompatible for {key}?',
    'What tool was absent while compiling the driver for {key}?',
    'What did the editor complain about in {key} even though the shell was fine?',
    'Which symbol went missing from a web toolkit dependency of {key}?',
    'Whose laptops failed to set up the {key} requirements?',
  ],
  logging: [
    'By what percentage did the {key} logging spend grow?',
    'What was impossible to track end to end starting at {key}?',
    'What was odd about paging for {key} problems?',
    'Which personal data did security find in {key} output?',
    'What went missing from the {key} logs when it crashed?',
  ],
  cors: [
    'Which message appeared in devtools when the {key} called the API?',
    'Which request setting made the {key} break?',
    'Which site succeeded at loading the typeface before the {key} broke?',
    'Which redirect code came back from the broken {key} route?',
    '',
  ],
  'file-upload': [
    'Past what size did the {key} reject files?',
    'Under what load did the {key} backend fall over?',
    'What HTTP error did long {key} transfers end with?',
    'What kind of files slipped through the {key} disguised as images?',
    'Which {key} submissions timed out?',
  ],
  concurrency: [
    'Which database error kept appearing in {key} output?',
    'How many lightweight threads did {key} accumulate by the end of a day?',
    '',
    'What was the maximum rate {key} could serve regardless of CPUs?',
    'What error did {key} show when it hung?',
  ],
  'config-flags': [
    'Which environment was the pricing toggle enabled in for {key}?',
    'Which variable did we set to turn the {key} cache off?',
    'Which settings document did {key} disregard in prod?',
    'How long until the emergency off-toggle for {key} actually worked?',
    '',
  ],
  'queue-jobs': [
    'How often did the {key} repeat work on an item?',
    'What was blocking everything else in the {key}?',
    'During what event did {key} work go missing?',
    'How was activity distributed among the {key} processes?',
    '',
  ],
};

/** General talk on the same topics: shares the vocabulary, answers none of the questions. */
const generalExchanges: readonly (readonly [string, string])[] = [
  ['In general, when is it worth adding a database index?', 'When a column is used to filter, join or sort in frequent queries and it is selective. Every index slows writes and takes space, so measure with EXPLAIN first.'],
  ['What is the difference between a liveness and a readiness probe?', 'Readiness decides whether a pod receives traffic; liveness decides whether it gets restarted. A failing readiness probe is harmless, a failing liveness probe kills the container.'],
  ['Should we use JWTs or opaque session ids for a first-party web app?', 'For a first-party app, opaque session ids in an HttpOnly cookie are simpler and revocable. JWTs shine when several services verify tokens without calling the issuer.'],
  ['How do React keys work, conceptually?', 'Keys tell React which element in a list is which between renders, so it can keep state and DOM nodes attached to the right item.'],
  ['Is it better to cache node_modules or the npm cache in CI?', 'Usually the npm cache directory: it is portable across Node versions and npm ci is fast with a warm cache. node_modules caches break when native modules or paths change.'],
  ['How do I take a heap snapshot of a running Node process?', 'Start it with --inspect, open chrome://inspect and use the Memory tab, or call v8.writeHeapSnapshot() from code. Compare two snapshots taken some time apart.'],
  ['What is the difference between bridge and host networking in Docker?', 'Bridge gives each container its own network namespace behind NAT; host shares the machine\'s network stack directly, faster but without isolation or port mapping.'],
  ['How do ICU plural categories work?', 'Each language uses some of zero, one, two, few, many and other; the CLDR rules map a number to a category, and the message supplies text per category.'],
  ['Any tips for writing readable regular expressions?', 'Name your groups, build long patterns from small named pieces, add tests with matching and non-matching examples, and prefer a parser once nesting appears.'],
  ['What is keyset pagination?', 'Paging by remembering the last row\'s sort key and asking for rows after it, instead of skipping N rows. It stays fast on deep pages and is stable when rows are inserted.'],
  ['How does tree shaking decide what to drop?', 'The bundler follows ES module imports and drops exports nobody uses, but only if evaluating the module has no side effects, which packages declare with the sideEffects field.'],
  ['When should I use unknown instead of any in TypeScript?', 'Almost always: unknown forces a check before use, any silently turns off type checking for everything it touches.'],
  ['What is a good git workflow for a small team?', 'Short-lived branches off main, small pull requests with review, rebase or squash to keep history readable, and protect main with required checks.'],
  ['How should a client handle HTTP 429 responses in general?', 'Respect Retry-After when present, otherwise back off exponentially with jitter, and make retried operations idempotent.'],
  ['What eviction policies does Redis support?', 'noeviction, allkeys-lru, allkeys-lfu, allkeys-random, and volatile-* variants that only consider keys with a TTL. For a pure cache, allkeys-lru or allkeys-lfu.'],
  ['Why is it recommended to run servers in UTC?', 'Logs and timestamps line up across machines, there are no daylight saving jumps, and conversion to local time happens once, at the edge, for display.'],
  ['How do websocket heartbeats work?', 'One side sends ping frames at an interval and the other replies with pong; missing pongs reveal dead connections, and the traffic keeps proxies from closing idle ones.'],
  ['pip-tools or poetry for a service?', 'pip-tools if you want plain requirements files and a lock with hashes; poetry if you also want it to manage the virtualenv and packaging. Both pin transitive dependencies.'],
  ['What should go into a structured log line?', 'Timestamp, level, message, service name, trace and span ids, and a few fields specific to the event. Keep payloads and personal data out.'],
  ['Why do browsers send preflight requests at all?', 'To ask the server whether a cross-origin request with non-simple methods or headers is allowed before sending it, protecting servers that predate CORS.'],
  ['What is the safest way to accept file uploads in a web app?', 'Limit the size, check content not names, store outside the web root or in object storage, and serve user files from a separate domain.'],
  ['How does Postgres detect deadlocks?', 'After deadlock_timeout, one second by default, a waiting backend checks the lock graph for a cycle and aborts one of the transactions involved with an error.'],
  ['How do you retire a feature flag cleanly?', 'Roll it to 100%, remove the code paths and the flag checks, deploy, and only then delete the flag in the flag service.'],
  ['What does idempotent mean for a queue consumer?', 'Processing the same message twice has the same effect as processing it once, usually by recording processed message ids or using natural keys.'],
  ['How do I make a flaky test reproducible locally?', 'Run it in a loop, with the same seed and test order as CI, under CPU stress if timing matters, and record the failure output of the first failing iteration.'],
  ['What does a zero-downtime schema change look like?', 'Expand then contract: add the new structure compatibly, deploy code that writes both, backfill, switch reads, then remove the old structure in a later release.'],
  ['What is a memory leak in a garbage-collected language, really?', 'Memory that is still reachable but will never be used again: caches without limits, listeners never removed, timers never cleared, closures holding large objects.'],
  ['How do I read EXPLAIN ANALYZE output?', 'Start at the innermost nodes, compare estimated and actual rows, and look for sequential scans on large tables and nested loops with many iterations.'],
  ['How should secrets reach a container?', 'From the orchestrator\'s secret store as files or environment variables at runtime, never baked into the image or committed to the repository.'],
  ['Is it worth writing end-to-end tests for every feature?', 'No: cover the critical user journeys end to end and push the rest down to unit and integration tests, which are faster and less flaky.'],
  ['How do I choose a TTL for a cache entry?', 'From how stale the data may be for its readers, not from how expensive it is to compute; add jitter so entries do not expire together.'],
  ['What does a CDN do with CORS headers?', 'It caches them with the response like any other header, so responses that vary by Origin need Vary: Origin or per-request handling at the edge.'],
];

const fillers: readonly (readonly [string, string])[] = [
  ['Thanks, that worked.', 'Great, glad it is sorted.'],
  ['Can you write a short commit message for that change?', 'Something like "Fix the root cause and add a regression test", with the details in the body. Keep the subject under 72 characters.'],
  ['Quick unrelated one: how do I undo my last commit but keep the changes?', 'git reset --soft HEAD~1 keeps them staged; --mixed keeps them unstaged.'],
  ['What is a good name for a helper that formats byte counts?', 'formatBytes is the usual one, with an optional number of decimals.'],
  ['Is it OK to leave a TODO for the cleanup?', 'Yes, if it links to a ticket so it does not get lost.'],
  ['Can you turn that into a checklist for the PR description?', '- Reproduce the problem\n- Apply the fix\n- Add a test\n- Verify in staging'],
  ['I will try that after lunch.', 'Sounds good. Ping me with the output if it still fails.'],
  ['How do I run only one mocha test?', 'Use it.only in the file, or pass --grep with part of the test name.'],
  ['Does this need a changelog entry?', 'If users can notice the change, yes; a one-liner under "Fixed" is enough.'],
  ['Can you make the error message friendlier?', 'Say what went wrong and what to do next, for example: "Could not save the file: the disk is full. Free some space and try again."'],
  ['What is the shortcut for multi-cursor in VS Code?', 'Alt+Click, or Ctrl+Alt+Down and Up on Windows and Linux; Option+Cmd on macOS.'],
  ['Should I squash before merging?', 'For a branch of small fixups, yes; keep separate commits when each one stands on its own.'],
  ['Morning! Picking up where we left off yesterday.', 'Morning. Go ahead, what are you seeing today?'],
  ['How do I pretty-print JSON in the terminal?', 'Pipe it through jq . or python -m json.tool.'],
  ['Let me check with the team first.', 'Sure. If they need context, the summary above should be enough.'],
  ['Can you sketch a unit test skeleton for that?', 'describe("the fix", () => { it("handles the edge case", ...); it("keeps the normal path working", ...); }) with one test for the failing input and one for the usual one.'],
  ['What is the difference between npm ci and npm install?', 'npm ci installs exactly what the lockfile says and fails if package.json disagrees; use it in CI and Docker builds.'],
  ['Hi, got a few minutes for some debugging?', 'Of course. What are you looking at?'],
  ['Can you explain that last part more simply?', 'In short: the system did what it was configured to do, but the configuration did not match what the code expected.'],
  ['One more thing before I forget: how do I rename a local branch?', 'git branch -m new-name while on it, or git branch -m old new from elsewhere.'],
  ['OK, I will write this up for the team wiki.', 'Good idea. Include the symptom as people would search for it, so the page is easy to find.'],
  ['Do you think this deserves a postmortem?', 'If customers were affected or it could recur, a short blameless one is worth it: timeline, cause, and two or three follow-ups.'],
];

interface PlannedInstance {
  readonly family: number;
  readonly round: number;
}

interface Block {
  readonly turns: string[];
  /** Questions with indexes into this block's turns. */
  readonly questions: { query: string; evidence: number[] }[];
  readonly instance?: { family: number; latestEvidence: number[] };
  readonly followOf?: number;
}

function fill(template: string, slots: Slots, question: boolean): string {
  return template.replace(/\{(key|n|m|big|ver)\}/g, (_, name: string) => {
    switch (name) {
      case 'key':
        return question ? slots.keyQ : slots.key;
      case 'ver':
        return slots.ver;
      default:
        return String(slots[name as 'n' | 'm' | 'big']);
    }
  });
}

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length)];
}

const sessionCount = 120;
const maxTurnsPerSession = 24;
const minTurns = 2000;

/**
 * The corpus for a seed. Turns come in time order (sessions spread over 2025, turns a minute or few apart),
 * each with a ref `cNNN-TT`; questions reference those refs.
 */
export function generateRecallCorpus(seed = 7): RecallCorpus {
  const random = mulberry32(seed);
  const int = (low: number, high: number): number => low + Math.floor(random() * (high - low + 1));

  // Which sessions only talk in general terms (distractors), and how many scenarios each of the others holds.
  const distractor = shuffle(Array.from({ length: sessionCount }, (_, i) => i < 16), random);
  const scenarioCounts = distractor.map((d): number => (d ? (random() < 0.5 ? 1 : 0) : random() < 0.45 ? 2 : 1));
  const needed = scenarioCounts.reduce((a, b) => a + b, 0);

  // Instances go round the families, so each topic recurs through the year with new specifics.
  const planned: PlannedInstance[] = [];
  for (let round = 0; planned.length < needed; round++) {
    planned.push(...shuffle(families.map((_, family) => ({ family, round })), random));
  }
  const keyOrder = families.map((family) => shuffle(family.keys.map((_, i) => i), random));
  const variantOrder = families.map((family) => shuffle(family.variants.map((_, i) => i), random));

  const makeInstance = (instance: PlannedInstance, asked: boolean): { block: Block; follow?: Block } => {
    const family = families[instance.family];
    const [key, keyQ] = family.keys[keyOrder[instance.family][instance.round % family.keys.length]].split('|');
    const variantIndex = variantOrder[instance.family][instance.round % family.variants.length];
    const variant = family.variants[variantIndex];
    const report = reportQuestions[family.name]?.[variantIndex];
    const slots: Slots = {
      key,
      keyQ: keyQ ?? key,
      n: int(2, 9),
      m: int(11, 95),
      big: int(120, 980),
      ver: `${int(1, 4)}.${int(0, 12)}.${int(0, 9)}`,
    };
    const turns = [
      `${fill(pick(family.opens, random), slots, false)} ${fill(variant.sym, slots, false)}`,
      fill(variant.cause, slots, false),
      pick([...family.asks, ...commonAsks], random),
      fill(variant.fix, slots, false),
    ];
    if (random() < 0.55) turns.push(fill(pick(closes, random), slots, false), pick(acks, random));
    const questions = asked
      ? shuffle([...variant.qs, ...(report ? [{ q: report, e: [0] }] : [])], random)
          .slice(0, 2)
          .map((q) => ({ query: fill(q.q, slots, true), evidence: [...q.e] }))
      : [];
    const block: Block = { turns, questions, instance: { family: instance.family, latestEvidence: [...family.latest.e] } };
    if (!asked || !variant.follow) return { block };
    const follow: Block = {
      turns: [fill(variant.follow.u, slots, false), fill(variant.follow.a, slots, false)],
      questions: [{ query: fill(variant.follow.q, slots, true), evidence: [1] }],
      followOf: instance.family,
    };
    return { block, follow };
  };

  // Session start times: spread over 2025, in working hours, in order.
  const yearStart = Date.parse('2025-01-06T00:00:00Z');
  const starts = Array.from({ length: sessionCount }, () => Math.floor(random() * 350) * 86_400_000 + int(7, 17) * 3_600_000 + int(0, 59) * 60_000)
    .sort((a, b) => a - b)
    .map((offset) => yearStart + offset);

  let next = 0;
  const pendingFollows: { due: number; block: Block }[] = [];
  const sessions: Block[][] = [];
  for (let s = 0; s < sessionCount; s++) {
    const blocks: Block[] = [];
    let used: number[] = [];
    for (let i = 0; i < scenarioCounts[s]; i++) {
      // Two scenarios in one session are of different families.
      let at = next;
      while (at < planned.length && used.includes(planned[at].family)) at++;
      if (at >= planned.length) break;
      [planned[next], planned[at]] = [planned[at], planned[next]];
      const made = makeInstance(planned[next++], !distractor[s]);
      used = [...used, made.block.instance!.family];
      blocks.push(made.block);
      if (made.follow) pendingFollows.push({ due: s + int(3, 12), block: made.follow });
    }
    let length = blocks.reduce((sum, block) => sum + block.turns.length, 0);
    if (!distractor[s]) {
      const due = pendingFollows.findIndex((follow) => follow.due <= s);
      if (due >= 0 && length + 2 <= maxTurnsPerSession) {
        blocks.push(pendingFollows.splice(due, 1)[0].block);
        length += 2;
      }
    }
    const target = 12 + 2 * int(0, 6);
    const generalShare = distractor[s] ? 0.7 : 0.35;
    while (length < target) {
      const [u, a] = random() < generalShare ? pick(generalExchanges, random) : pick(fillers, random);
      blocks.push({ turns: [u, a], questions: [] });
      length += 2;
    }
    sessions.push(shuffle(blocks, random));
  }

  // At least minTurns: top up the shortest sessions with small talk (a no-op for the default seed).
  let total = sessions.reduce((sum, blocks) => sum + blocks.reduce((n, block) => n + block.turns.length, 0), 0);
  while (total < minTurns) {
    const lengths = sessions.map((blocks) => blocks.reduce((n, block) => n + block.turns.length, 0));
    const shortest = lengths.indexOf(Math.min(...lengths));
    const [u, a] = pick(fillers, random);
    sessions[shortest].push({ turns: [u, a], questions: [] });
    total += 2;
  }

  const turns: RecallCorpusTurn[] = [];
  const questions: RecallCorpusQuestion[] = [];
  const latest = new Map<number, { session: number; refs: string[] }>();
  const lastFollow = new Map<number, number>();
  const ask = (query: string, evidence: string[]): void => {
    questions.push({ id: `q${String(questions.length + 1).padStart(3, '0')}`, query, evidence });
  };
  sessions.forEach((blocks, s) => {
    const session = `conv-${String(s + 1).padStart(3, '0')}`;
    let at = starts[s];
    let index = 0;
    for (const block of blocks) {
      const refs = block.turns.map((text, i) => {
        const ref = `c${String(s + 1).padStart(3, '0')}-${String(index + 1).padStart(2, '0')}`;
        const role = index % 2 === 0 ? 'user' : 'assistant';
        index++;
        at += int(40, 280) * 1000 + (i === 0 ? int(0, 600) * 1000 : 0);
        turns.push({ session, role, text, at: new Date(at).toISOString(), ref });
        return ref;
      });
      for (const question of block.questions) ask(question.query, question.evidence.map((i) => refs[i]));
      if (block.instance) latest.set(block.instance.family, { session: s, refs: block.instance.latestEvidence.map((i) => refs[i]) });
      if (block.followOf !== undefined) lastFollow.set(block.followOf, s);
    }
  });

  // "The most recent …" questions: answered by the family's last occurrence, unless a follow-up came later.
  families.forEach((family, index) => {
    const last = latest.get(index);
    if (!last || (lastFollow.get(index) ?? -1) > last.session) return;
    ask(family.latest.q, last.refs);
  });

  return { turns, questions };
}
