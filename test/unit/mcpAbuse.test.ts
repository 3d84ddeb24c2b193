// What an agent in a loop, a broken client or a hostile one can do to `engram mcp`, and what it gets: caps and rates
// with exact counts (a clock the test moves), errors it can match, a read-only disk, and a close that leaves no lock.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { AgentLimits } from '../../src/core/turn/agentLimits';
import { AgentTools, type AgentToolResult } from '../../src/core/turn/agentTools';
import { EngramMemory } from '../../src/core/turn/engramMemory';
import { cli, mountTmpfs } from '../support/storeFiles';
import { openTestStore, tempFolder, wordCounter } from '../support/tempStore';

const initialize = `${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'loop-agent', version: '0' } } })}\n`;

/** The CLI's MCP server with every reply line collected. */
function rawServer(db: string): {
  send(text: string): void;
  replies(count: number, timeoutMs?: number): Promise<Record<string, unknown>[]>;
  end(): Promise<number | null>;
  kill(signal: NodeJS.Signals): void;
  stderr(): string;
} {
  const child = spawn(process.execPath, [cli, 'mcp', '--db', db]);
  const lines: string[] = [];
  let buffered = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    lines.push(...parts);
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return {
    send: (text) => void child.stdin.write(text),
    async replies(count, timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      while (lines.length < count) {
        if (Date.now() > deadline) throw new Error(`${lines.length} of ${count} replies; stderr: ${stderr.slice(-2000)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return lines.splice(0, count).map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    end: () => {
      child.stdin.end();
      return exited;
    },
    kill: (signal) => void child.kill(signal),
    stderr: () => stderr,
  };
}

const toolText = (reply: Record<string, unknown>): string => ((reply.result as { content: { text: string }[] }).content ?? []).map((part) => part.text).join('');
const isToolError = (reply: Record<string, unknown>): boolean => (reply.result as { isError?: boolean }).isError === true;

describe('engram mcp under abuse', function () {
  this.timeout(180_000);
  let temp: ReturnType<typeof tempFolder>;
  let db: string;
  beforeEach(async () => {
    temp = tempFolder('engram-mcp-abuse-');
    db = join(temp.folder, 'store');
    const store = await openTestStore(db);
    store.recordTurn({ sessionId: 's', role: 'user', text: 'the migration failed on the quokka index' });
    await store.close({ snapshot: true });
  });
  afterEach(() => temp.remove());

  /** The agent tools over the test's store, on a clock the test moves. */
  async function agentTools(limits?: AgentLimits): Promise<{ tools: AgentTools; clock: { now: number }; close(): Promise<void>; proposed(): number }> {
    const store = await openTestStore(db);
    const memory = new EngramMemory(store, wordCounter);
    const clock = { now: Date.parse('2026-12-01T10:00:00Z') };
    const tools = new AgentTools(memory, () => ['editor', 'employer'], () => new Date(clock.now), limits);
    return { tools, clock, close: () => store.close(), proposed: () => memory.facts.list('proposed').length };
  }

  it('caps one client at 50 waiting proposals: of 10,000, exactly 50 are proposed and 9,950 answered with the cap', async () => {
    const { tools, clock, close, proposed } = await agentTools();
    const results: AgentToolResult[] = [];
    try {
      for (let i = 0; i < 10_000; i++) {
        clock.now += 10_000; // slow enough that no rate limit applies: only the cap
        results.push(await tools.call('loop-agent', 'propose_fact', { key: 'editor', value: `Editor ${i}` }));
      }
      assert.equal(results.filter((result) => !result.isError).length, 50);
      const capped = results.filter((result) => result.isError);
      assert.equal(capped.length, 9_950);
      assert.ok(capped.every((result) => /"loop-agent" already has 50 proposals waiting for the user's review \(at most 50\); Engram takes no more from it/.test(result.text)), capped[0].text);
      assert.equal(proposed(), 50, 'the store holds exactly the 50');
      const other = await tools.call('another-agent', 'propose_fact', { key: 'editor', value: 'Helix' });
      assert.equal(other.isError, false, 'the cap is per client');
    } finally {
      await close();
    }
  });

  it('rate-limits calls per client (120 at once, then 2 a second) and proposals (a burst, then 10 a minute), exactly', async () => {
    const { tools, clock, close, proposed } = await agentTools(new AgentLimits({ calls: { burst: 120, perMinute: 120 }, proposals: { burst: 5, perMinute: 10 }, pendingPerClient: 50 }));
    try {
      const searches: AgentToolResult[] = [];
      for (let i = 0; i < 10_000; i++) searches.push(await tools.call('loop-agent', 'memory_search', { query: 'editor' }));
      assert.equal(searches.filter((result) => !result.isError).length, 120);
      assert.equal(searches.filter((result) => /too many calls from "loop-agent": Engram answers at most 120 a minute per client\. Wait 1 s/.test(result.text)).length, 9_880);
      clock.now += 30_000;
      const later: AgentToolResult[] = [];
      for (let i = 0; i < 100; i++) later.push(await tools.call('loop-agent', 'memory_search', { query: 'editor' }));
      assert.equal(later.filter((result) => !result.isError).length, 60, '30 s later, 60 more');
      assert.equal((await tools.call('fresh-agent', 'memory_search', { query: 'editor' })).isError, false, 'another client has its own rate');

      clock.now += 120_000;
      const proposals: AgentToolResult[] = [];
      for (let i = 0; i < 20; i++) proposals.push(await tools.call('loop-agent', 'propose_fact', { key: 'editor', value: `Editor ${i}` }));
      assert.equal(proposals.filter((result) => !result.isError).length, 5);
      assert.ok(proposals.slice(5).every((result) => /too many proposals from "loop-agent": Engram takes at most 10 a minute per client\. Wait 6 s/.test(result.text)));
      clock.now += 6_000;
      assert.equal((await tools.call('loop-agent', 'propose_fact', { key: 'editor', value: 'Editor 99' })).isError, false, 'one more after 6 s');
      assert.equal(proposed(), 6);
    } finally {
      await close();
    }
  });

  it('refuses control, bidi and zero-width characters, lone surrogates and markup in keys and values, and stores none', async () => {
    const { tools, close, proposed } = await agentTools();
    const refused: [Record<string, unknown>, RegExp][] = [
      [{ key: 'editor', value: 'Helix\u0000' }, /value holds a control character \(U\+0000\)/],
      [{ key: 'editor', value: 'Helix\u001b[31m' }, /control character \(U\+001B\)/],
      [{ key: 'editor', value: 'Helix \ud800' }, /value holds a lone surrogate/],
      [{ key: 'editor', value: 'Vim\u202eedoC SV' }, /value holds a bidirectional control character \(U\+202E\)/],
      [{ key: 'editor', value: 'Vim\u2066x\u2069' }, /bidirectional control character \(U\+2066\)/],
      [{ key: 'editor', value: 'He\u200blix' }, /value holds an invisible character \(U\+200B\)/],
      [{ key: 'edi\u200dtor', value: 'Helix' }, /key holds an invisible character \(U\+200D\)/],
      [{ key: 'editor', value: '\ufeffHelix' }, /invisible character \(U\+FEFF\)/],
      [{ key: 'editor', value: '<img src=x onerror=alert(1)>' }, /value holds markup \("<img src=x onerror=alert\(1\)>"\)/],
      [{ key: 'editor', value: '[Helix](command:workbench.action.terminal.new)' }, /value holds markup/],
      [{ key: 'editor', value: 'Helix &lt;3' }, /value holds markup/],
      [{ key: 'editor', value: 'Helix', evidence: 'I use Helix\u202e' }, /evidence holds a bidirectional control character/],
    ];
    try {
      for (const [args, expected] of refused) {
        const result = await tools.call('agent', 'propose_fact', args);
        assert.equal(result.isError, true, JSON.stringify(args));
        assert.match(result.text, expected);
      }
      const fine = await tools.call('agent', 'propose_fact', { key: 'editor', value: 'Helix', evidence: 'I switched to Helix.\nIt is fast.' });
      assert.equal(fine.isError, false, 'line breaks in evidence are fine');
      assert.equal(proposed(), 1);
    } finally {
      await close();
    }
  });

  it('over stdio: 10,000 proposals from one client give exactly 50 proposed and 9,950 errors', async () => {
    const server = rawServer(db);
    server.send(initialize);
    await server.replies(1);
    server.send('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    const lines: string[] = [];
    for (let i = 1; i <= 10_000; i++) {
      lines.push(JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'propose_fact', arguments: { key: 'editor', value: `Editor ${i}` } } }));
    }
    server.send(`${lines.join('\n')}\n`);
    const replies = await server.replies(10_000);
    assert.equal(await server.end(), 0, server.stderr());
    // A proposal is answered once it is on disk, a refusal at once: every call is answered, with its id, in any order.
    assert.deepEqual(replies.map((reply) => Number(reply.id)).sort((a, b) => a - b), Array.from({ length: 10_000 }, (_, i) => i + 1));
    assert.equal(replies.filter((reply) => !isToolError(reply) && /^Proposed editor = Editor \d+ for the user's review/.test(toolText(reply))).length, 50);
    const errors = replies.filter(isToolError);
    assert.equal(errors.length, 9_950);
    assert.ok(errors.every((reply) => /already has 50 proposals waiting|too many (calls|proposals) from "loop-agent"/.test(toolText(reply))), toolText(errors[0]));
    const store = await openTestStore(db, { readOnly: true });
    try {
      assert.equal(new EngramMemory(store, wordCounter).facts.list('proposed').length, 50);
    } finally {
      await store.close();
    }
  });

  it('answers a 10 MB line with an error carrying its id, which the SDK client matches at once', async () => {
    const server = rawServer(db);
    server.send(initialize);
    await server.replies(1);
    // The SDK puts the id last; other clients put it first. Either way the reply names it.
    const huge = 'a'.repeat(10 * 1024 * 1024);
    server.send(`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"memory_search","arguments":{"query":"${huge}"}},"id":41}\n`);
    server.send(`{"jsonrpc":"2.0","id":"first-42","method":"tools/call","params":{"name":"memory_search","arguments":{"query":"${huge}"}}}\n`);
    server.send('{"jsonrpc":"2.0","id":43,"method":"tools/call","params":{"name":"memory_search" BROKEN\n');
    const [byTail, byHead, broken] = await server.replies(3);
    assert.deepEqual([byTail.id, (byTail.error as { code: number }).code], [41, -32600]);
    assert.match((byTail.error as { message: string }).message, /longer than 4194304 bytes was refused/);
    assert.deepEqual([byHead.id, (byHead.error as { code: number }).code], ['first-42', -32600]);
    assert.deepEqual([broken.id, (broken.error as { code: number }).code], [43, -32700]);
    server.send('not json at all\n');
    const [junk] = await server.replies(1);
    assert.deepEqual([junk.id, (junk.error as { code: number }).code], [null, -32700], 'no id to read: "id": null, as JSON-RPC says');
    await server.end();

    const client = new Client({ name: 'sdk-agent', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', '--db', db], stderr: 'pipe' }));
    try {
      await assert.rejects(client.callTool({ name: 'memory_search', arguments: { query: huge } }, undefined, { timeout: 30_000 }), (error: Error & { code?: number }) => {
        assert.equal(error.code, -32600, `the server's error, not the client's timeout: ${error.message}`);
        assert.match(error.message, /longer than 4194304 bytes/);
        return true;
      });
      const after = await client.callTool({ name: 'recall_conversation', arguments: { query: 'quokka index' } });
      assert.match(JSON.stringify(after), /quokka index/, 'the connection still serves');
    } finally {
      await client.close();
    }
  });

  it('answers no call before initialize, and runs none', async () => {
    const server = rawServer(db);
    server.send('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"propose_fact","arguments":{"key":"editor","value":"Helix"}}}\n');
    server.send('{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n');
    server.send('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    server.send('{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
    const [call, list, ping] = await server.replies(3);
    assert.deepEqual([call.id, (call.error as { code: number }).code], [1, -32002]);
    assert.match((call.error as { message: string }).message, /not initialized: send "initialize" first \(tools\/call was refused\)/);
    assert.deepEqual([list.id, (list.error as { code: number }).code], [2, -32002]);
    assert.deepEqual([ping.id, ping.result], [3, {}], 'ping is allowed');
    server.send(initialize);
    server.send('{"jsonrpc":"2.0","id":4,"method":"tools/list"}\n');
    const [, tools] = await server.replies(2);
    assert.equal((tools.result as { tools: unknown[] }).tools.length, 3);
    assert.equal(await server.end(), 0);
    const store = await openTestStore(db, { readOnly: true });
    try {
      assert.equal(new EngramMemory(store, wordCounter).facts.list('proposed').length, 0, 'the early call did not run');
    } finally {
      await store.close();
    }
  });

  it('answers propose_fact on a read-only disk with an error, stores nothing, and still answers reads', async function () {
    const disk = mountTmpfs(8192);
    if (typeof disk === 'string') {
      if (process.env.CI) assert.fail(`the read-only test cannot run: ${disk}`);
      this.skip();
    }
    try {
      const store = join(disk.folder, 'store');
      const planted = await openTestStore(store);
      planted.recordTurn({ sessionId: 's', role: 'user', text: 'the migration failed on the quokka index' });
      await planted.close({ snapshot: true });
      assert.equal(spawnSync('mount', ['-o', 'remount,ro', disk.folder]).status, 0, 'the disk is read-only now');
      const client = new Client({ name: 'ro-agent', version: '1.0.0' });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', '--db', store], stderr: 'pipe' }));
      try {
        const proposed = (await client.callTool({ name: 'propose_fact', arguments: { key: 'editor', value: 'Helix' } })) as { isError?: boolean; content: { text: string }[] };
        assert.equal(proposed.isError, true, proposed.content[0].text);
        assert.match(proposed.content[0].text, /^Error: Writing to the memory journal failed: .*read-only file system.*\. Nothing was stored\.$/);
        assert.doesNotMatch(proposed.content[0].text, /Proposed/);
        const again = (await client.callTool({ name: 'propose_fact', arguments: { key: 'editor', value: 'Helix' } })) as { isError?: boolean; content: { text: string }[] };
        assert.equal(again.isError, true, 'still not stored, not "already waiting"');
        const recalled = await client.callTool({ name: 'recall_conversation', arguments: { query: 'quokka index' } });
        assert.match(JSON.stringify(recalled), /quokka index/);
      } finally {
        await client.close();
      }
      spawnSync('mount', ['-o', 'remount,rw', disk.folder]);
      const reader = await openTestStore(store, { readOnly: true });
      try {
        assert.equal(new EngramMemory(reader, wordCounter).facts.list('proposed').length, 0);
      } finally {
        await reader.close();
      }
    } finally {
      disk.unmount();
    }
  });

  it('closes as the SDK client does (stdin, then SIGTERM) without keeping it: no snapshot on its path, the proposal durable', async () => {
    // A big journal no snapshot holds yet: a closing snapshot would have a lot to fold (it once kept the client 2 s).
    const writer = await openTestStore(db);
    for (let i = 0; i < 15_000; i++) writer.recordTurn({ sessionId: `big-${i % 50}`, role: 'user', text: `turn ${i} about the quokka index and word${i % 997} word${(i * 7) % 991}` });
    await writer.close();
    const snapshotBefore = statSync(join(db, 'engram.sqlite')).mtimeMs;
    const server = rawServer(db);
    server.send(initialize);
    await server.replies(1);
    server.send('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"propose_fact","arguments":{"key":"editor","value":"Helix"}}}\n');
    const [proposed] = await server.replies(1);
    assert.match(toolText(proposed), /^Proposed editor = Helix/);
    // The SDK client sends SIGTERM two seconds after closing stdin; the server is gone on stdin's end, without it.
    assert.equal(await server.end(), 0, server.stderr());
    assert.ok(!existsSync(join(db, 'snapshot.lock')), 'no snapshot was begun, no lock is left behind');
    assert.equal(statSync(join(db, 'engram.sqlite')).mtimeMs, snapshotBefore, 'the snapshot is left to the next writer');
    const reader = await openTestStore(db, { readOnly: true });
    try {
      assert.equal(new EngramMemory(reader, wordCounter).facts.list('proposed').length, 1, 'the proposal is in the journal');
      assert.equal(reader.stats().turns, 15_001);
    } finally {
      await reader.close();
    }
  });
});
