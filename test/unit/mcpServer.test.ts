// `node dist/cli.js mcp --db DIR` driven as other agents drive it: the official SDK's client over stdio, and raw
// bytes for what no well-behaved client sends.
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { EngramMemory } from '../../src/core/turn/engramMemory';
import { MemoryToolRunner, memoryToolSpecs, runMemorySearch, runRecall } from '../../src/core/turn/memoryTools';
import { openTestStore, tempFolder, wordCounter } from '../support/tempStore';

const root = join(__dirname, '..', '..', '..');
const cli = join(root, 'dist', 'cli.js');

type ToolText = { content: { type: string; text: string }[]; isError?: boolean };
const textOf = (result: unknown): string => (result as ToolText).content.map((part) => part.text).join('');

/** A store with one confirmed fact and two conversations, written and closed as a VS Code window would leave it. */
async function plantStore(folder: string): Promise<void> {
  const store = await openTestStore(folder);
  const memory = new EngramMemory(store, wordCounter);
  memory.facts.remember('employer', 'Northwind Labs');
  store.recordTurn({ sessionId: 'session-a', role: 'user', text: 'the quokkadb migration failed because the index already existed', at: '2026-11-02T10:00:00Z' });
  store.recordTurn({ sessionId: 'session-a', role: 'assistant', text: 'Drop the duplicate index before the migration runs.', at: '2026-11-02T10:00:05Z' });
  store.recordTurn({ sessionId: 'session-b', role: 'user', text: 'how do I rename a git branch', at: '2026-11-03T09:00:00Z' });
  store.recordTurn({ sessionId: 'session-b', role: 'user', text: 'the deploy token is ghp_0123456789abcdefghijklmnopqrstuv for the zebrafish repo', at: '2026-11-03T09:01:00Z' });
  await store.close({ snapshot: true });
}

async function connect(db: string, name = 'test-agent'): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', '--db', db], stderr: 'pipe' });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** Every journal byte in the store: what "nothing written" is measured against. */
function journalBytes(db: string): Record<string, number> {
  const folder = join(db, 'journals');
  if (!existsSync(folder)) return {};
  return Object.fromEntries(readdirSync(folder).map((name) => [name, statSync(join(folder, name)).size]));
}

/** The server as a plain child process, read line by line, for bytes no SDK client would send. */
class RawServer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: string[] = [];
  stderr = '';
  private buffered = '';
  private waiters: (() => void)[] = [];
  readonly exited: Promise<number | null>;

  constructor(db: string) {
    this.child = spawn(process.execPath, [cli, 'mcp', '--db', db]);
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      this.buffered += chunk;
      for (let at = this.buffered.indexOf('\n'); at !== -1; at = this.buffered.indexOf('\n')) {
        this.lines.push(this.buffered.slice(0, at));
        this.buffered = this.buffered.slice(at + 1);
      }
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
  }

  send(text: string): void {
    this.child.stdin.write(text);
  }

  /** The next reply line, parsed. */
  async reply(timeoutMs = 10_000): Promise<{ id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } }> {
    const deadline = Date.now() + timeoutMs;
    while (this.lines.length === 0) {
      if (Date.now() > deadline) throw new Error(`no reply within ${timeoutMs} ms; stderr: ${this.stderr}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
    return JSON.parse(this.lines.shift() as string);
  }
}

/** The process's TCP and UDP sockets (its stdio are socket pairs: UNIX sockets, which are not a network). */
function networkSockets(pid: number): string[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode) inodes.add(inode);
    } catch {
      // the fd closed while listing
    }
  }
  const found: string[] = [];
  for (const table of ['tcp', 'tcp6', 'udp', 'udp6']) {
    const file = `/proc/${pid}/net/${table}`;
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const columns = line.trim().split(/\s+/);
      if (columns[9] && inodes.has(columns[9])) found.push(`${table} ${columns[1]}`);
    }
  }
  return found;
}

const initialize = (id: number): string =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-client', version: '0' } } })}\n`;

describe('engram mcp (dist/cli.js, over stdio)', function () {
  this.timeout(60_000);
  let temp: ReturnType<typeof tempFolder>;
  let db: string;
  before(() => assert.ok(existsSync(cli), 'dist/cli.js is missing: run npm run build'));
  beforeEach(async () => {
    temp = tempFolder();
    db = join(temp.folder, 'store');
    await plantStore(db);
  });
  afterEach(() => temp.remove());

  it('lists memory_search, recall_conversation and propose_fact with the VS Code tools\' input schemas', async () => {
    const client = await connect(db);
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((tool) => tool.name).sort(), ['memory_search', 'propose_fact', 'recall_conversation']);
      const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { contributes: { languageModelTools: { name: string; inputSchema: object }[] } };
      for (const spec of memoryToolSpecs) {
        const listed = tools.find((tool) => tool.name === spec.name);
        assert.deepEqual(listed?.inputSchema, spec.inputSchema, `${spec.name}: the core's schema`);
        assert.deepEqual(listed?.inputSchema, manifest.contributes.languageModelTools.find((tool) => tool.name === spec.name)?.inputSchema, `${spec.name}: the VS Code tool's schema`);
        assert.equal(listed?.annotations?.readOnlyHint, true, `${spec.name} is read-only`);
      }
      const propose = tools.find((tool) => tool.name === 'propose_fact');
      assert.deepEqual(propose?.inputSchema.required, ['key', 'value']);
      assert.match(propose?.description ?? '', /NOT confirmed/);
      assert.match(client.getInstructions() ?? '', /confirmed facts \(reviewed and approved by the user/);
    } finally {
      await client.close();
    }
  });

  it('answers recall_conversation and memory_search exactly as the core engines do', async () => {
    const client = await connect(db);
    let recalled: string;
    let searched: string;
    try {
      const recall = await client.callTool({ name: 'recall_conversation', arguments: { query: 'quokkadb index migration' } });
      recalled = textOf(recall);
      assert.match(recalled, /quokkadb migration failed because the index already existed/);
      assert.ok(!(recall as ToolText).isError);
      const search = await client.callTool({ name: 'memory_search', arguments: { query: 'employer' } });
      searched = textOf(search);
      assert.match(searched, /employer: Northwind Labs/);
      const secret = textOf(await client.callTool({ name: 'recall_conversation', arguments: { query: 'zebrafish deploy token' } }));
      assert.match(secret, /\[secret removed\] for the zebrafish repo/);
      assert.doesNotMatch(secret, /ghp_/, 'no secret is handed out');
    } finally {
      await client.close();
    }
    const store = await openTestStore(db, { readOnly: true });
    try {
      assert.equal(recalled, runRecall(new EngramMemory(store, wordCounter), { query: 'quokkadb index migration' }).text, 'the same text as the recall_conversation tool');
      assert.equal(searched, runMemorySearch(store, { query: 'employer' }).text, 'the same text as the memory_search tool');
    } finally {
      await store.close();
    }
  });

  it('marks a recalled turn that says a retired belief as out of date, word for word as the VS Code tool does', async () => {
    // The owner moved on after the assistant said where they work: the newer value retires Northwind Labs.
    const writer = await openTestStore(db);
    writer.recordTurn({ sessionId: 'session-c', role: 'assistant', text: 'You work at Northwind Labs, so their VPN profile applies.', at: '2026-11-04T09:00:00Z' });
    new EngramMemory(writer, wordCounter).facts.remember('employer', 'Calico');
    await writer.close({ snapshot: true });
    const query = { query: 'Northwind VPN profile' };
    const client = await connect(db);
    let recalled: string;
    try {
      recalled = textOf(await client.callTool({ name: 'recall_conversation', arguments: query }));
    } finally {
      await client.close();
    }
    assert.match(recalled, /You work at Northwind Labs, so their VPN profile applies\.\n\[Out of date: employer = Northwind Labs is no longer true\.\]/);
    const store = await openTestStore(db, { readOnly: true });
    try {
      const memory = new EngramMemory(store, wordCounter);
      // RecallConversationTool (VS Code's tool) runs runRecall over the window's EngramMemory; the tool loop runs it too.
      assert.equal(recalled, runRecall(memory, query).text, 'the same text as the VS Code tool');
      const inTurn = await new MemoryToolRunner(() => store, undefined, () => memory.retiredBeliefs()).run({ name: 'recall_conversation', arguments: query });
      assert.equal(inTurn.text, recalled, "the same text as in a turn's tool loop");
    } finally {
      await store.close();
    }
  });

  it('lands propose_fact in Proposed (tier C, from the agent), never in Confirmed', async () => {
    const client = await connect(db);
    try {
      const proposed = await client.callTool({ name: 'propose_fact', arguments: { key: 'employer', value: 'Calico', evidence: "I'm at Calico now" } });
      assert.match(textOf(proposed), /Proposed employer = Calico for the user's review\. It is not a confirmed fact/);
      const again = await client.callTool({ name: 'propose_fact', arguments: { key: 'employer', value: 'Calico' } });
      assert.match(textOf(again), /already waiting for the user's review/);
      const search = await client.callTool({ name: 'memory_search', arguments: { query: 'employer' } });
      assert.doesNotMatch(textOf(search), /Calico/, 'a proposal is not confirmed memory');
    } finally {
      await client.close();
    }
    const store = await openTestStore(db, { readOnly: true });
    try {
      const memory = new EngramMemory(store, wordCounter);
      const proposals = memory.facts.list('proposed');
      assert.equal(proposals.length, 1, 'saying it twice proposes it once');
      assert.deepEqual(
        { key: proposals[0].key, value: proposals[0].value, tier: proposals[0].tier, origin: proposals[0].origin, words: proposals[0].sourceWords },
        { key: 'employer', value: 'Calico', tier: 'C', origin: 'agent', words: "I'm at Calico now" },
      );
      assert.deepEqual(memory.facts.list('confirmed').map((fact) => fact.value), ['Northwind Labs']);
      assert.match(memory.facts.history(proposals[0].id)[0].reason, /proposed by the agent "test-agent" over MCP/);
    } finally {
      await store.close();
    }
  });

  it("records every call with the client's name, and stats shows which agent used which memory", async () => {
    const client = await connect(db, 'claude-code');
    try {
      await client.callTool({ name: 'memory_search', arguments: { query: 'employer' } });
      await client.callTool({ name: 'recall_conversation', arguments: { query: 'quokkadb migration' } });
      await client.callTool({ name: 'recall_conversation', arguments: { query: 'nothing like this was ever said zzzq' } });
    } finally {
      await client.close();
    }
    const run = spawn(process.execPath, [cli, 'stats', '--db', db, '--json']);
    let out = '';
    run.stdout.on('data', (chunk) => (out += chunk));
    await new Promise((resolve) => run.on('exit', resolve));
    const stats = JSON.parse(out) as { memoriesUsed: number; agents: { client: string; calls: number; tools: Record<string, number>; memories: { kind: string; label: string }[] }[] };
    assert.equal(stats.agents.length, 1);
    const agent = stats.agents[0];
    assert.equal(agent.client, 'claude-code');
    assert.equal(agent.calls, 3, 'a call that found nothing is recorded too');
    assert.deepEqual(agent.tools, { memory_search: 1, recall_conversation: 2 });
    assert.ok(agent.memories.some((memory) => memory.kind === 'fact' && memory.label === 'employer = Northwind Labs'), JSON.stringify(agent.memories));
    assert.ok(agent.memories.some((memory) => memory.kind === 'turn'));
    assert.ok(stats.memoriesUsed >= 1, 'the fact handed to the agent counts as used');

    const store = await openTestStore(db, { readOnly: true });
    try {
      const vias = store.read((db) => db.exec('SELECT DISTINCT via FROM retrieval_log ORDER BY via')[0]?.values.map((row) => row[0]));
      assert.deepEqual(vias, ['mcp:claude-code:memory_search', 'mcp:claude-code:recall_conversation']);
      const reports = new EngramMemory(store, wordCounter).reportsOfSession('mcp:claude-code');
      assert.equal(reports.length, 3);
      assert.doesNotMatch(JSON.stringify(reports), /index already existed/, 'a record names the turns it handed out, it does not copy their words');
    } finally {
      await store.close();
    }
  });

  it('refuses secrets, keys off the allowlist, huge arguments and unknown tools, and writes nothing', async () => {
    const client = await connect(db);
    try {
      const refusals: [string, Record<string, unknown>, RegExp][] = [
        ['propose_fact', { key: 'employer', value: 'token is ghp_abcdefghijklmnopqrstuvwxyz123456' }, /looks like a secret/],
        ['propose_fact', { key: 'favourite_colour', value: 'teal' }, /not a key Engram may learn/],
        ['propose_fact', { key: 'employer' }, /propose_fact needs/],
        ['propose_fact', { key: 'employer', value: 'Calico', evidence: 'x'.repeat(100_000) }, /evidence must be/],
        ['memory_search', { query: 'employer '.repeat(50_000) }, /query is too long/],
        ['recall_conversation', { query: 'quokkadb', k: 1e9 }, /k must be a whole number/],
        ['recall_conversation', {}, /recall_conversation needs/],
      ];
      for (const [name, args, expected] of refusals) {
        const result = (await client.callTool({ name, arguments: args })) as ToolText;
        assert.equal(result.isError, true, `${name} ${JSON.stringify(args).slice(0, 80)} is an error`);
        assert.match(textOf(result), expected);
      }
      await assert.rejects(client.callTool({ name: 'drop_everything', arguments: {} }), (error: Error & { code?: number }) => {
        assert.equal(error.code, -32602);
        assert.match(error.message, /no tool named "drop_everything"; its tools are memory_search, recall_conversation, propose_fact/);
        return true;
      });
      const still = await client.callTool({ name: 'memory_search', arguments: { query: 'employer' } });
      assert.match(textOf(still), /Northwind Labs/, 'the server still answers');
    } finally {
      await client.close();
    }
    // The one good call above is recorded; the refused ones left nothing behind.
    const store = await openTestStore(db, { readOnly: true });
    try {
      const memory = new EngramMemory(store, wordCounter);
      assert.equal(memory.facts.list('proposed').length, 0);
      assert.equal(memory.reportsOfSession('mcp:test-agent').length, 1);
    } finally {
      await store.close();
    }
  });

  it('answers junk on stdin with JSON-RPC errors, writes nothing, and keeps serving', async () => {
    const before = { journals: journalBytes(db), snapshot: statSync(join(db, 'engram.sqlite')).mtimeMs };
    const server = new RawServer(db);
    try {
      server.send('this is not json\n');
      assert.equal((await server.reply()).error?.code, -32700);
      server.send('{"jsonrpc": "1.0", "id": 3, "method": "tools/list"}\n');
      const wrongVersion = await server.reply();
      assert.deepEqual([wrongVersion.id, wrongVersion.error?.code], [3, -32600]);
      server.send('[{"jsonrpc": "2.0", "id": 4, "method": "tools/list"}]\n');
      assert.equal((await server.reply()).error?.code, -32600, 'batches are refused');
      server.send('{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": "drop"}\n');
      assert.equal((await server.reply()).error?.code, -32600);
      server.send(`{"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "memory_search", "arguments": {"query": "${'a'.repeat(5 * 1024 * 1024)}"}}}\n`);
      const tooLarge = await server.reply();
      assert.deepEqual([tooLarge.id, tooLarge.error?.code], [6, -32600], 'the id is read off the start of the line');
      assert.match(tooLarge.error?.message ?? '', /longer than 4194304 bytes/);
      server.send('{"jsonrpc": "2.0", "id": 7, "method": "no/such/method"}\n');
      assert.deepEqual([(await server.reply()).error?.code], [-32002], 'nothing but initialize before initialize');

      server.send(initialize(8));
      const init = await server.reply();
      assert.equal(init.id, 8);
      assert.equal((init.result?.serverInfo as { name: string }).name, 'engram');
      server.send('{"jsonrpc": "2.0", "method": "notifications/initialized"}\n');
      server.send('{"jsonrpc": "2.0", "id": 9, "method": "tools/list"}\n');
      const list = await server.reply();
      assert.equal(list.id, 9);
      assert.equal((list.result?.tools as unknown[]).length, 3, 'still serving after the junk');
      server.send('{"jsonrpc": "2.0", "id": 10, "method": "no/such/method"}\n');
      assert.equal((await server.reply()).error?.code, -32601);
      assert.match(server.stderr, /parse error/, 'junk is explained on stderr too');
    } finally {
      server.child.stdin.end();
    }
    assert.equal(await server.exited, 0);
    assert.deepEqual({ journals: journalBytes(db), snapshot: statSync(join(db, 'engram.sqlite')).mtimeMs }, before, 'nothing was written');
  });

  it('exits cleanly when the client closes the pipe, on either end, and opens no socket', async function () {
    const server = new RawServer(db);
    server.send(initialize(1));
    await server.reply();
    if (process.platform === 'linux') assert.deepEqual(networkSockets(server.child.pid as number), [], 'no TCP or UDP socket, listening or not');
    server.child.stdin.end();
    assert.equal(await server.exited, 0);
    assert.match(server.stderr, /the client closed its end of the connection; stopping/);

    const deaf = new RawServer(db);
    deaf.send(initialize(1));
    await deaf.reply();
    deaf.child.stdout.destroy();
    deaf.send('{"jsonrpc": "2.0", "id": 2, "method": "tools/list"}\n');
    deaf.send('{"jsonrpc": "2.0", "id": 3, "method": "tools/list"}\n');
    const timer = setTimeout(() => deaf.child.kill('SIGKILL'), 15_000);
    const code = await deaf.exited;
    clearTimeout(timer);
    assert.equal(code, 0, `a closed stdout ends the server cleanly; stderr: ${deaf.stderr}`);
  });

  it('refuses a --db that is not a store, and creates nothing there', async () => {
    const empty = join(temp.folder, 'empty');
    mkdirSync(empty);
    const foreign = join(temp.folder, 'foreign');
    mkdirSync(foreign);
    const header = Buffer.alloc(4096);
    header.write('SQLite format 3\0', 'latin1');
    writeFileSync(join(foreign, 'engram.sqlite'), header);
    for (const [folder, expected] of [
      [empty, /holds no Engram store \(no engram\.sqlite, no journals\/\)/],
      [foreign, /a SQLite file, but not one of Engram's/],
      [join(temp.folder, 'missing'), /does not exist/],
    ] as const) {
      const run = spawn(process.execPath, [cli, 'mcp', '--db', folder]);
      let stderr = '';
      run.stderr.on('data', (chunk) => (stderr += chunk));
      const code = await new Promise((resolve) => run.on('exit', resolve));
      assert.equal(code, 2, stderr);
      assert.match(stderr, expected);
    }
    assert.deepEqual(readdirSync(empty), []);
    assert.deepEqual(readdirSync(foreign), ['engram.sqlite']);
    assert.ok(!existsSync(join(temp.folder, 'missing')));
  });
});
