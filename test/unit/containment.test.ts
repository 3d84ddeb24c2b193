import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { CitationChecker, citeLines, hashLines } from '../../src/core/project/citations';
import { deriveProjectFacts } from '../../src/core/project/derivedFacts';
import { readContained } from '../../src/core/shared/containedFile';
import { textOfContained, WorkspaceToolRunner, workspaceToolNames, type WorkspaceFiles } from '../../src/core/turn/workspaceTools';
import { tempFolder } from '../support/tempStore';

const secret = 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

/** The read tool over the local disk, as the host runs it for a local folder (its open editors aside). */
function localFiles(root: string): WorkspaceFiles {
  return {
    read: async (path, maxBytes) => textOfContained(await readContained([root], path, maxBytes)),
    find: async () => [],
    diagnostics: async () => [],
  };
}

/** Fails the test instead of hanging it, should a read block (a FIFO opened for reading waits for a writer). */
function withinSeconds<T>(seconds: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${seconds} s`)), seconds * 1000)));
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

describe('containment: what a path is, not how it is spelled (hostile fixtures)', () => {
  let temp: ReturnType<typeof tempFolder>;
  let root: string;
  let outside: string;
  let socket: Server;
  let tool: WorkspaceToolRunner;
  const read = (path: string, extra: Record<string, unknown> = {}) =>
    withinSeconds(5, tool.run({ id: 'call', name: workspaceToolNames.readFile, arguments: { path, ...extra } })).then((outcome) => outcome.text);

  before(async () => {
    temp = tempFolder();
    root = join(temp.folder, 'repo');
    outside = join(temp.folder, 'outside');
    mkdirSync(join(root, 'src'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(outside, 'credentials'), `[default]\n${secret}\n`);
    writeFileSync(join(root, 'inside.txt'), 'hello from inside\n');
    writeFileSync(join(root, 'src', 'app.ts'), 'export const answer = 42;\n');
    symlinkSync(join(outside, 'credentials'), join(root, 'notes.md'));
    symlinkSync('../outside', join(root, 'linked'));
    symlinkSync('inside.txt', join(root, 'alias.txt'));
    execFileSync('mkfifo', [join(root, 'pipe')]);
    socket = createServer();
    await new Promise<void>((resolve) => socket.listen(join(root, 'engram.sock'), resolve));
    writeFileSync(join(root, 'one-line.min.js'), 'x'.repeat(500 * 1024));
    writeFileSync(join(root, 'long.txt'), Array.from({ length: 20_000 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
    writeFileSync(join(root, 'big.log'), Array.from({ length: 12_000 }, (_, i) => `${String(i + 1).padStart(6, '0')} ${'y'.repeat(50)}`).join('\n') + '\n');
    tool = new WorkspaceToolRunner(localFiles(root));
  });
  after(async () => {
    await new Promise<void>((resolve) => socket.close(() => resolve()));
    temp.remove();
  });

  it('refuses every escaping spelling and every link that leads out, with an error the model can act on', async () => {
    const escaping = [
      '../outside/credentials',
      '..\\outside\\credentials',
      'src\\..\\..\\outside\\credentials',
      'src/../../outside/credentials',
      `${join(temp.folder, 'repo')}/../outside/credentials`,
      `${join(temp.folder, 'repo')}/../../../../../../etc/shadow`,
      '../../../../etc/passwd',
      '/etc/passwd',
      '/etc/shadow',
      join(outside, 'credentials'),
      'C:\\Windows\\win.ini',
      'notes.md',
      './notes.md',
      'linked/credentials',
      'linked\\credentials',
      'inside.txt\0.png',
    ];
    const answers = await Promise.all(escaping.map((path) => read(path)));
    const refused = answers.filter((text) => text.startsWith('Error: ') && /outside the workspace|NUL/.test(text));
    assert.equal(refused.length, escaping.length, answers.map((text, i) => `${escaping[i]} -> ${text.slice(0, 120)}`).join('\n'));
    assert.ok(answers.every((text) => !text.includes('wJalrXUtnFEMI') && !text.includes('root:')), 'no outside byte reaches the model');
    assert.match(answers[escaping.indexOf('notes.md')], /notes\.md leads outside the workspace \(a symbolic link to .*credentials\)/);
  });

  it('reads what is inside however it is spelled: backslashes, ./, .., absolute, a link that stays inside', async () => {
    for (const path of ['inside.txt', './inside.txt', 'src/../inside.txt', 'src\\..\\inside.txt', join(root, 'inside.txt'), 'alias.txt']) {
      assert.match(await read(path), /lines 1-1 of 1 .*\nhello from inside$/, path);
    }
    assert.match(await read('src\\app.ts'), /^File src\/app\.ts, lines 1-1 of 1/);
  });

  it('answers a FIFO and a socket at once, and refuses folders, without opening them', async () => {
    assert.match(await read('pipe'), /^Error: pipe is not a regular file \(a FIFO, socket or device\)/);
    assert.match(await read('engram.sock'), /^Error: engram\.sock is not a regular file/);
    assert.match(await read('src'), /^Error: src is a folder/);
    assert.match(await read('missing.txt'), /^Error: there is no file missing\.txt in the workspace/);
  });

  it('cuts a 500 KB single line with a visible marker, pages a 20,000-line file, and reads only the head of a big one', async () => {
    const minified = await read('one-line.min.js');
    assert.ok(minified.length < 3_000, `came back with ${minified.length} characters`);
    assert.match(minified, /x{2000} …\[line cut: 510,000 more characters\]$/);
    const long = await read('long.txt');
    assert.match(long, /^File long\.txt, lines 1-400 of 20000 .* call engram_read_file with startLine 401/);
    assert.equal(long.split('\n').length, 401);
    assert.match(await read('long.txt', { startLine: 19_999 }), /lines 19999-20000 of 20000[^\n]*\nline 19999\nline 20000$/);
    const big = await read('big.log', { startLine: 9_000 });
    assert.match(big, /Only the first 512 KB of its 696,000 bytes can be read/);
    assert.match(big, /lines 9000-9\d{3} of 9\d{3}/, 'line numbers within the part that can be read');
  });

  it('guards citations the same way: nothing outside is read or hashed, a FIFO never blocks', () => {
    const checker = new CitationChecker();
    const hash = hashLines([secret]);
    for (const path of ['../../../../etc/passwd', '/etc/shadow', '../outside/credentials', '..\\outside\\credentials', 'notes.md', 'linked/credentials', 'pipe']) {
      assert.equal(citeLines(root, path, 2), undefined, path);
      assert.equal(checker.check(root, { path, lines: [2, 2], hash }), 'vanished', path);
    }
    assert.equal(checker.check(root, { path: 'inside.txt', lines: [1, 1], hash: hashLines(['hello from inside']) }), 'ok');
  });

  it('reads package.json only as a regular file inside the repository', () => {
    const repo = join(temp.folder, 'fifo-repo');
    mkdirSync(repo);
    execFileSync('mkfifo', [join(repo, 'package.json')]);
    assert.deepEqual(deriveProjectFacts(repo), [], 'a FIFO named package.json is not opened');
    const linked = join(temp.folder, 'linked-repo');
    mkdirSync(linked);
    writeFileSync(join(outside, 'package.json'), JSON.stringify({ devDependencies: { vitest: '1' } }, null, 2));
    symlinkSync(join(outside, 'package.json'), join(linked, 'package.json'));
    assert.deepEqual(deriveProjectFacts(linked), [], 'a package.json that links outside is not read');
  });
});
