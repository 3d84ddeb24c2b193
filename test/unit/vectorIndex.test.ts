import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VectorIndex, vectorFileHeaderBytes, vectorRecordBytes } from '../../src/core/recall/vectorIndex';

/** A small seeded generator (mulberry32), so a failing comparison can be replayed. */
function seededRandom(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomVector(random: () => number, dims: number): number[] {
  return Array.from({ length: dims }, () => random() * 2 - 1);
}

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    aa += a[i] * a[i];
    bb += b[i] * b[i];
  }
  return dot / Math.sqrt(aa * bb);
}

/** The float32 bytes the index stores for `vector`: normalised in float64, then rounded to float32. */
function storedBytes(vector: readonly number[]): Buffer {
  const norm = Math.hypot(...vector);
  return Buffer.from(Float32Array.from(vector, (value) => value / norm).buffer);
}

describe('VectorIndex', () => {
  const dims = 16;
  let folder: string;
  let path: string;
  let index: VectorIndex | undefined;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'engram-vectors-'));
    path = join(folder, 'vectors.f32');
  });
  afterEach(() => {
    index?.close();
    index = undefined;
    rmSync(folder, { recursive: true, force: true });
  });

  /** Opens the file again, as the next process would. */
  function reopen(withDims = dims): VectorIndex {
    index?.close();
    index = VectorIndex.open(path, withDims);
    return index;
  }

  it('keeps vectors across a reopen, normalised, and finds each one as its own best match', () => {
    const random = seededRandom(1);
    const vectors = new Map([...Array(10).keys()].map((i) => [`turn:${i}`, randomVector(random, dims)] as const));
    const first = reopen();
    for (const [key, vector] of vectors) first.add(key, vector);
    const again = reopen();
    assert.equal(again.size, 10);
    for (const [key, vector] of vectors) {
      const [best] = again.search(vector.map((value) => value * 7), 1);
      assert.equal(best.key, key);
      assert.ok(Math.abs(best.score - 1) < 1e-6, `a vector's cosine with itself is 1, got ${best.score}`);
    }
    assert.equal(statSync(path).size, vectorFileHeaderBytes + 10 * vectorRecordBytes(dims));
  });

  it('replaces an existing key and removes keys, also after a reopen', () => {
    const random = seededRandom(2);
    const [a1, a2, b] = [randomVector(random, dims), randomVector(random, dims), randomVector(random, dims)];
    const vectors = reopen();
    vectors.add('fact:a', a1);
    vectors.add('fact:b', b);
    vectors.add('fact:a', a2);
    assert.equal(vectors.size, 2);
    assert.equal(vectors.deletedSlots, 1);
    const reopened = reopen();
    assert.equal(reopened.size, 2);
    const [best] = reopened.search(a2, 1);
    assert.deepEqual([best.key, Math.round(best.score * 1e5) / 1e5], ['fact:a', 1], 'the replacement, not the old vector');
    assert.ok(reopened.search(a1, 2).every((hit) => hit.score < 0.999), 'the old vector is gone');

    assert.equal(reopened.remove(['fact:a', 'fact:missing']), 1);
    assert.equal(reopened.has('fact:a'), false);
    const afterRemove = reopen();
    assert.equal(afterRemove.has('fact:a'), false);
    assert.deepEqual(afterRemove.search(a2, 5).map((hit) => hit.key), ['fact:b']);
    assert.equal(afterRemove.remove(['fact:a']), 0);
    assert.equal(afterRemove.remove(['fact:b']), 1);
    assert.equal(reopen().size, 0);
  });

  it('after a crash between appending a replacement and flagging the old record, keeps the newer and never resurrects', () => {
    const random = seededRandom(3);
    const [old, newer] = [randomVector(random, dims), randomVector(random, dims)];
    const vectors = reopen();
    vectors.add('turn:x', old);
    const before = readFileSync(path);
    vectors.add('turn:x', newer);
    vectors.close();
    // Undo the flag write (the one byte of the old record that changed) as a crash before it would.
    const after = readFileSync(path);
    const changed = [...before.keys()].filter((i) => before[i] !== after[i]);
    assert.equal(changed.length, 1);
    after[changed[0]] = before[changed[0]];
    writeFileSync(path, after);

    const reopened = reopen();
    assert.equal(reopened.size, 1);
    assert.ok(reopened.search(newer, 1)[0].score > 0.99999, 'the later record wins');
    reopened.remove(['turn:x']);
    assert.equal(reopen().has('turn:x'), false, 'the older duplicate must not come back after a remove');
  });

  it('orders results exactly as a brute-force full sort, skipping removed keys and honouring the filter', () => {
    const random = seededRandom(42);
    const all = [...Array(600).keys()].map((i) => ({ key: `turn:${i}`, vector: randomVector(random, dims) }));
    const vectors = reopen();
    for (const { key, vector } of all) vectors.add(key, vector);
    const removed = new Set(all.filter((_, i) => i % 7 === 0).map(({ key }) => key));
    vectors.remove(removed);
    const odd = (key: string) => Number(key.slice(5)) % 2 === 1;
    for (let q = 0; q < 5; q++) {
      const query = randomVector(random, dims);
      const ranked = all
        .filter(({ key }) => !removed.has(key))
        .map(({ key, vector }) => ({ key, score: cosine(query, vector) }))
        .sort((a, b) => b.score - a.score);
      for (const k of [1, 5, 20]) {
        const hits = vectors.search(query, k);
        assert.deepEqual(hits.map((hit) => hit.key), ranked.slice(0, k).map((hit) => hit.key), `query ${q}, k=${k}`);
        hits.forEach((hit, i) => assert.ok(Math.abs(hit.score - ranked[i].score) < 1e-5));
        const filtered = vectors.search(query, k, odd).map((hit) => hit.key);
        assert.deepEqual(filtered, ranked.filter((hit) => odd(hit.key)).slice(0, k).map((hit) => hit.key));
      }
    }
    assert.equal(vectors.search(all[1].vector, 1000).length, 600 - removed.size);
  });

  it('ignores a torn last record and still writes a valid file on the next append', () => {
    const random = seededRandom(4);
    const kept = [randomVector(random, dims), randomVector(random, dims)];
    const vectors = reopen();
    vectors.add('turn:0', kept[0]);
    vectors.add('turn:1', kept[1]);
    vectors.close();
    const whole = statSync(path).size;
    appendFileSync(path, storedBytes(randomVector(random, dims)).subarray(0, 30)); // a kill -9 mid-append

    const reopened = reopen();
    assert.equal(reopened.size, 2);
    const next = randomVector(random, dims);
    reopened.add('turn:2', next);
    assert.equal(statSync(path).size, whole + vectorRecordBytes(dims), 'the torn bytes were cut off');
    const again = reopen();
    assert.equal(again.size, 3);
    [...kept, next].forEach((vector, i) => assert.equal(again.search(vector, 1)[0].key, `turn:${i}`));
  });

  it('rejects a file of another dims or without the magic, naming the file, and leaves it untouched', () => {
    reopen().add('turn:0', randomVector(seededRandom(5), dims));
    index?.close();
    index = undefined;
    const bytes = readFileSync(path);
    assert.throws(() => VectorIndex.open(path, 32), (error: Error) => error.message.includes(path) && /16 dims.*32/.test(error.message));
    assert.deepEqual(readFileSync(path), bytes);

    const notOurs = join(folder, 'other.f32');
    writeFileSync(notOurs, Buffer.concat([Buffer.from('SQLite format 3\0'), bytes.subarray(16)]));
    assert.throws(() => VectorIndex.open(notOurs, dims), (error: Error) => error.message.includes(notOurs) && /not an Engram vector file/.test(error.message));
    assert.equal(readFileSync(notOurs).subarray(0, 6).toString(), 'SQLite');
  });

  it('rejects keys over 60 bytes and vectors of the wrong length', () => {
    const vectors = reopen();
    assert.throws(() => vectors.add(`turn:${'é'.repeat(28)}`, randomVector(seededRandom(6), dims)), /1-60 bytes/);
    assert.throws(() => vectors.add('turn:short', [1, 2, 3]), /3 values/);
    assert.throws(() => vectors.search([1, 2, 3], 1), /3 values/);
    vectors.add(`fact:${'x'.repeat(55)}`, randomVector(seededRandom(6), dims)); // exactly 60 bytes fits
    assert.equal(reopen().has(`fact:${'x'.repeat(55)}`), true);
  });

  it('compacts: the file shrinks, live vectors stay findable, and a removed vector leaves the disk', () => {
    const random = seededRandom(7);
    const forgotten = Array.from({ length: dims }, (_, i) => 1000 + i * 3.25); // a distinctive float pattern
    const live = [...Array(5).keys()].map((i) => ({ key: `turn:${i}`, vector: randomVector(random, dims) }));
    const vectors = reopen();
    vectors.add('fact:forgotten', forgotten);
    for (const { key, vector } of live) vectors.add(key, vector);
    for (let i = 0; i < 4; i++) vectors.add(`turn:gone-${i}`, randomVector(random, dims));
    const pattern = storedBytes(forgotten);
    assert.ok(readFileSync(path).includes(pattern), 'the pattern search sees the vector before compaction');

    vectors.remove(['fact:forgotten', 'turn:gone-0', 'turn:gone-1', 'turn:gone-2', 'turn:gone-3']);
    assert.ok(readFileSync(path).includes(pattern), 'removing only flags the record');
    const sizeBefore = statSync(path).size;
    vectors.compact();
    assert.equal(statSync(path).size, sizeBefore - 5 * vectorRecordBytes(dims));
    const raw = readFileSync(path);
    assert.equal(raw.includes(pattern), false, "the forgotten vector's bytes are gone");
    assert.equal(raw.includes('fact:forgotten'), false, 'and so is its key');
    assert.equal(vectors.deletedSlots, 0);

    const added = randomVector(random, dims);
    vectors.add('turn:after', added); // appends still work on the rewritten file
    const reopened = reopen();
    assert.equal(reopened.size, 6);
    for (const { key, vector } of [...live, { key: 'turn:after', vector: added }]) assert.equal(reopened.search(vector, 1)[0].key, key);
  });
});
