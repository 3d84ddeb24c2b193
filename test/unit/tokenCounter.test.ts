import assert from 'node:assert/strict';
import { cl100kTokenCounter, countTokensInSlices } from '../../src/core/shared/tokenCounter';

describe('token counter', () => {
  it('counts ordinary text exactly with cl100k', () => {
    assert.equal(cl100kTokenCounter.count(''), 0);
    assert.equal(cl100kTokenCounter.count('hello world'), 2);
  });

  it('counts <|endoftext|> as text instead of throwing', () => {
    assert.ok(cl100kTokenCounter.count('a <|endoftext|> b') >= 5);
  });

  it('stays close to the exact count on long prose cut into slices', () => {
    const prose = 'The quick brown fox jumps over the lazy dog while the test suite hangs. '.repeat(200);
    const exact = 15 * 200; // each sentence is 15 tokens in cl100k
    const counted = cl100kTokenCounter.count(prose);
    assert.ok(Math.abs(counted - exact) / exact < 0.02, `counted ${counted}, exact ${exact}`);
  });

  it('extrapolates past the exact limit, so a 1 MB unbroken paste is counted quickly', () => {
    const slices: number[] = [];
    const total = countTokensInSlices('x'.repeat(1024 * 1024), (slice) => {
      slices.push(slice.length);
      return slice.length / 8;
    });
    assert.equal(total, (1024 * 1024) / 8);
    assert.ok(slices.every((length) => length <= 2000), 'no slice is longer than the limit');
    assert.ok(slices.reduce((a, b) => a + b, 0) <= 16_000, 'only the first part is encoded');
  });
});
