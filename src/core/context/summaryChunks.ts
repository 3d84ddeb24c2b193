import type { TokenCounter } from '../shared/tokenCounter';
import type { TurnRecord } from '../store/turnRepository';
import { extractiveHeading, isExtractive, truncateToTokens } from './assemble';

/** A pending turn as one summary request carries it: whole, or cut by whole lines with a marker. */
export interface ChunkTurn {
  readonly seq: number;
  readonly role: 'user' | 'assistant';
  readonly text: string;
  readonly tokens: number;
}

/** Tokens a transcript line costs beyond its text ("user: " and the newline). */
const lineCost = 4;

/** Cuts a turn to about `budget` tokens at whole lines, saying how many lines were left out. */
export function cutByLines(text: string, budget: number, tokens: TokenCounter): { text: string; tokens: number } {
  const lines = text.split('\n');
  const kept: string[] = [];
  let used = 0;
  const markerOf = (left: number): string => `[… ${left} more line${left === 1 ? '' : 's'} of this turn not shown]`;
  const markerTokens = tokens.count(markerOf(lines.length));
  for (const line of lines) {
    const cost = tokens.count(line) + 1;
    if (used + cost + markerTokens > budget) break;
    kept.push(line);
    used += cost;
  }
  if (kept.length === 0) {
    // One line longer than the whole chunk: its front, cut inside, is all that fits.
    const fit = truncateToTokens(lines[0], Math.max(16, budget - markerTokens), tokens);
    kept.push(fit.text);
  }
  const left = lines.length - kept.length;
  const cut = left > 0 ? `${kept.join('\n')}\n${markerOf(left)}` : kept.join('\n');
  return { text: cut, tokens: tokens.count(cut) };
}

/**
 * The pending turns, oldest first, packed into chunks that each fit `room` tokens of a summary request. A turn
 * longer than a chunk is cut by whole lines, so every chunk fits and the roll always makes progress.
 */
export function chunkTurns(turns: readonly TurnRecord[], room: number, tokens: TokenCounter): ChunkTurn[][] {
  const chunks: ChunkTurn[][] = [];
  let chunk: ChunkTurn[] = [];
  let used = 0;
  for (const turn of turns) {
    let item: ChunkTurn = { seq: turn.seq, role: turn.role, text: turn.text, tokens: turn.tokens };
    if (item.tokens + lineCost > room) {
      const cut = cutByLines(turn.text, room - lineCost, tokens);
      item = { ...item, text: cut.text, tokens: cut.tokens };
    }
    if (chunk.length > 0 && used + item.tokens + lineCost > room) {
      chunks.push(chunk);
      chunk = [];
      used = 0;
    }
    chunk.push(item);
    used += item.tokens + lineCost;
  }
  if (chunk.length) chunks.push(chunk);
  return chunks;
}

/** The first line of a turn, as the extractive summary keeps it. */
function firstLine(turn: ChunkTurn): string {
  const line = turn.text.split('\n').find((candidate) => candidate.trim() !== '') ?? '';
  const trimmed = line.trim();
  return `- ${turn.role}: ${trimmed.length > 200 ? `${trimmed.slice(0, 200)}…` : trimmed}`;
}

/**
 * The summary kept when the model's answer is not usable: what there was, and under a heading that says so, the
 * first line of each turn of the chunk. Past `cap` tokens the oldest extractive lines go (recall still reaches them).
 */
export function extractiveSummary(previous: string | undefined, chunk: readonly ChunkTurn[], cap: number, tokens: TokenCounter): string {
  const [before, after = ''] = (previous ?? '').split(extractiveHeading);
  const lines = [...after.split('\n').filter((line) => line.startsWith('- ')), ...chunk.map(firstLine)];
  const head = before.trim();
  const compose = (kept: readonly string[]): string => [head, `${extractiveHeading}\n${kept.join('\n')}`].filter(Boolean).join('\n\n');
  let kept = lines;
  while (kept.length > 1 && tokens.count(compose(kept)) > cap) kept = kept.slice(1);
  const text = compose(kept);
  return tokens.count(text) > cap ? truncateToTokens(text, cap, tokens).text : text;
}

/** The summary as a request carries it: within `cap` tokens (the oldest extractive lines go first, then the end). */
export function cappedSummary(summary: string | undefined, cap: number, tokens: TokenCounter): string | undefined {
  if (!summary || tokens.count(summary) <= cap) return summary;
  if (isExtractive(summary)) return extractiveSummary(summary, [], cap, tokens);
  return truncateToTokens(summary, cap, tokens).text;
}
