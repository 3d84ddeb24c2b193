// `engram` as installed (dist/cli.js): runs the CLI bundle (dist/cliMain.js) from V8's code cache. Compiling the 4.7 MB
// bundle was a third of the CPU an `engram mcp` spends before it answers `tools/list` (0.28 s of CPU with the compile,
// 0.18 s from the cache, for `help`). The cache lives in the user's own cache folder (never a shared temp folder: code
// read from there would run as the user); V8 rejects a cache made for other source or another V8, and it is made again.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

interface ModuleInternals {
  _nodeModulePaths(from: string): string[];
  _resolveFilename(request: string, parent: NodeModule): string;
  wrap(source: string): string;
}

const bundle = join(__dirname, 'cliMain.js');
const internals = Module as unknown as ModuleInternals;
const cacheFolder = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'engram', 'compile-cache');
// V8 checks a cache against the source's length only, so a rebuilt bundle of the same length (a 20 made a 10) would
// run the old code: the bundle's size and modification time name the cache, and every build gets its own.
const built = statSync(bundle);
const cacheFile = join(cacheFolder, `cli-${createHash('sha256').update(`${bundle}\0${process.version}\0${built.size}\0${built.mtimeMs}`).digest('hex').slice(0, 16)}.bin`);

function readCache(): Buffer | undefined {
  try {
    return readFileSync(cacheFile);
  } catch {
    return undefined;
  }
}

/** Written once the CLI has run (its functions compiled then are in the cache too), through a temp file and a rename. */
function writeCache(script: Script): void {
  try {
    mkdirSync(cacheFolder, { recursive: true, mode: 0o700 });
    const temp = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(temp, script.createCachedData(), { mode: 0o600 });
    renameSync(temp, cacheFile);
    // The caches of earlier builds are never read again.
    for (const name of readdirSync(cacheFolder)) if (/^cli-[0-9a-f]{16}\.bin$/.test(name) && join(cacheFolder, name) !== cacheFile) rmSync(join(cacheFolder, name), { force: true });
  } catch {
    // No cache folder to write (read-only home): the next start compiles again, nothing else changes.
  }
}

const cachedData = readCache();
const script = new Script(internals.wrap(readFileSync(bundle, 'utf8')), { filename: bundle, cachedData });
const main = new Module(bundle, module);
main.filename = bundle;
main.paths = internals._nodeModulePaths(dirname(bundle));
const requireFromBundle = Object.assign((id: string) => main.require(id), {
  resolve: (request: string) => internals._resolveFilename(request, main),
}) as unknown as NodeJS.Require;
if (!cachedData || script.cachedDataRejected) process.once('exit', () => writeCache(script));
(script.runInThisContext() as (...args: unknown[]) => void).call(main.exports, main.exports, requireFromBundle, main, bundle, dirname(bundle));
