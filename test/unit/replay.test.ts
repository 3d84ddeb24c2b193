import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const cli = join(root, 'dist', 'cli.js');
const fixture = join(root, 'test', 'fixtures', 'replay-priya.jsonl');

interface ReplayJson {
  wrongTurns: number;
  falseRetirements: number;
  userTurns: number;
  staleTurns: number;
  timeline: { turn: number; live: string[] }[];
}

function replay(...flags: string[]): ReplayJson {
  return replayOf(fixture, ...flags);
}

function replayOf(file: string, ...flags: string[]): ReplayJson {
  const run = spawnSync(process.execPath, [cli, 'replay', file, '--json', ...flags], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

describe('replay of the seed story (Priya, Northwind Labs to Calico)', function () {
  this.timeout(60_000);
  it('gives 11, 0, 3 and 0 wrong turns for defer, consolidate, corrections and both, retiring no true belief', () => {
    const figures = Object.fromEntries(['defer', 'consolidate', 'corrections', 'both'].map((policy) => [policy, replay('--policy', policy)]));
    assert.deepEqual(
      Object.fromEntries(Object.entries(figures).map(([policy, r]) => [policy, [r.wrongTurns, r.falseRetirements]])),
      { defer: [11, 0], consolidate: [0, 0], corrections: [3, 0], both: [0, 0] },
    );
    assert.equal(figures.defer.userTurns, 24);
    assert.equal(figures.defer.timeline.length, 24, 'one timeline entry per user turn');
  });

  it('the same story with a new employer whose name is also an editor\'s ("I work at Helix Robotics now"): superseded again', () => {
    const helix = join(root, 'test', 'fixtures', 'replay-priya-helix.jsonl');
    const figures = Object.fromEntries(['defer', 'consolidate', 'corrections', 'both'].map((policy) => [policy, replayOf(helix, '--policy', policy)]));
    assert.deepEqual(
      Object.fromEntries(Object.entries(figures).map(([policy, r]) => [policy, [r.wrongTurns, r.falseRetirements]])),
      { defer: [11, 0], consolidate: [0, 0], corrections: [3, 0], both: [0, 0] },
    );
    assert.ok(figures.consolidate.timeline.at(-1)?.live.includes('employer=Helix Robotics'));
  });

  it('acts on the correction in its own turn, never earlier', () => {
    const { timeline } = replay('--policy', 'corrections');
    const northwindLive = (turn: number): boolean => timeline[turn - 1].live.includes('employer=Northwind Labs');
    assert.deepEqual([13, 14, 15, 16, 17].map(northwindLive), [true, true, true, true, false]);
  });

  it('with --broad-corrections reproduces the stretch: the true "no meat" belief is retired', () => {
    const broad = replay('--policy', 'corrections', '--broad-corrections');
    assert.ok(broad.falseRetirements >= 1);
    const stated = broad.timeline.findIndex((entry) => entry.live.includes('diet=no meat'));
    const dietGone = broad.timeline.findIndex((entry, index) => index > stated && !entry.live.includes('diet=no meat')) + 1;
    assert.equal(dietGone, 19, 'retired at "Still no meat, but pescatarian now"');
  });

  it('no prompt presents a retired belief as true, on the seed story and a second one; without the marks some do', () => {
    const second = join(root, 'test', 'fixtures', 'replay-sam.jsonl');
    const figures = [fixture, second].map((file) => [replayOf(file, '--policy', 'both').staleTurns, replayOf(file, '--policy', 'both', '--no-stale-marks').staleTurns]);
    assert.deepEqual(figures, [
      [0, 8],
      [0, 6],
    ]);
    assert.equal(replayOf(second, '--policy', 'both').wrongTurns, 0);
  });
});
