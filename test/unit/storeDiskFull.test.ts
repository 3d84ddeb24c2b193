import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { engram, engramAsync, fillDisk, finished, mountTmpfs, turnsFile } from '../support/storeFiles';
import { tempFolder } from '../support/tempStore';

/** A real full disk: a small tmpfs filled while an import writes to it. */
describe('store on a full disk (a real tmpfs)', function () {
  this.timeout(120_000);
  let temp: ReturnType<typeof tempFolder>;
  let disk: ReturnType<typeof mountTmpfs>;
  beforeEach(function () {
    disk = mountTmpfs(4096);
    if (typeof disk === 'string') {
      // CI runs as root and must run these: there a missing tmpfs is a failure, never a quiet skip.
      if (process.env.CI) assert.fail(`the full-disk tests cannot run: ${disk}`);
      console.log(`      skipped (not root, outside CI): ${disk}`);
      this.skip();
    }
    temp = tempFolder('engram-diskfull-');
  });
  afterEach(() => {
    if (typeof disk !== 'string') disk.unmount();
    temp?.remove();
  });

  function mounted(): { folder: string } {
    assert.ok(typeof disk !== 'string');
    return disk;
  }

  it('waits while the disk is full mid-import and stores all 2000 turns once space is back', async () => {
    const store = join(mounted().folder, 'store');
    const file = turnsFile(temp.folder, 'big.jsonl', 'big', 2000);
    const filler = fillDisk(mounted().folder, 150 * 1024);
    const run = engramAsync(['import', file, '--db', store, '--json']);
    const done = finished(run);
    let sawFull = false;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the import never found the disk full')), 60_000);
      run.stderr?.on('data', (chunk: Buffer) => {
        if (!sawFull && /the disk is full/.test(chunk.toString())) {
          sawFull = true;
          clearTimeout(timer);
          // Space comes back a moment later, as when another program deletes its temp files.
          setTimeout(() => {
            rmSync(filler);
            resolve();
          }, 300);
        }
      });
    });
    const result = await done;
    assert.equal(result.code, 0, result.stderr);
    assert.equal(JSON.parse(result.stdout).imported, 2000);
    const stats = engram(['stats', '--db', store, '--json']);
    assert.equal(JSON.parse(stats.stdout).turns, 2000, 'every acknowledged turn is stored: no hole');
    assert.equal(stats.stderr, '', 'no torn or damaged journal line is left behind');
  });

  it('stops when the disk stays full, says exactly what is saved, and the rerun completes it', async () => {
    const store = join(mounted().folder, 'store');
    const file = turnsFile(temp.folder, 'big.jsonl', 'big', 2000);
    const filler = fillDisk(mounted().folder, 150 * 1024);
    const run = engram(['import', file, '--db', store, '--json'], { ENGRAM_DISK_FULL_PATIENCE_MS: '1500' });
    assert.equal(run.code, 1);
    const said = /The first (\d+) turns of this import \(through line (\d+)\) are saved; nothing after line \2 was stored\. Free some disk space, then run the same import again/.exec(run.stderr);
    assert.ok(said, run.stderr);
    const saved = Number(said[1]);
    assert.ok(saved > 0 && saved < 2000, `part of the import was saved (${saved})`);
    assert.equal(Number(said[2]), saved, 'one turn per line');
    const stats = engram(['stats', '--db', store, '--json']);
    assert.equal(JSON.parse(stats.stdout).turns, saved, 'exactly the turns it said are saved');
    rmSync(filler);
    const rerun = engram(['import', file, '--db', store, '--json']);
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.deepEqual([JSON.parse(rerun.stdout).imported, JSON.parse(rerun.stdout).alreadyStored], [2000 - saved, saved]);
    assert.equal(JSON.parse(engram(['stats', '--db', store, '--json']).stdout).turns, 2000);
  });
});
