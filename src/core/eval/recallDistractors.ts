/**
 * Newer conversations that answer none of the planted questions but talk the same way: the corpus's own topic
 * families told again about other files and services (names the questions never use), its general exchanges, its
 * small talk. So the questions share their common words ("flaky", "deploy", "timeout", "fix") with thousands of
 * newer turns, as a year of real history would.
 */

import corpusData from './recallCorpusData.json';
import { mulberry32 } from './recallCorpus';

export interface DistractorTurn {
  readonly session: string;
  readonly role: 'user' | 'assistant';
  readonly text: string;
  readonly at: string;
  readonly ref: string;
}

interface Data {
  readonly commonAsks: readonly string[];
  readonly closes: readonly string[];
  readonly acks: readonly string[];
  readonly families: readonly { readonly keys: readonly string[]; readonly opens: readonly string[]; readonly asks: readonly string[]; readonly variants: readonly { sym: string; cause: string; fix: string }[] }[];
  readonly generalExchanges: readonly (readonly [string, string])[];
  readonly fillers: readonly (readonly [string, string])[];
}

const data = corpusData as unknown as Data;

/** Made-up names no planted turn or question holds (each ends in digits, which no corpus key does). */
const nameParts = 'quartz nimbus falcon harbor juniper onyx pebble tundra zephyr cobalt ember lumen marlin opal sierra talon'.split(' ');

function otherName(key: string, random: () => number): string {
  const written = key.split('|')[0];
  const extension = /(\.[a-z]+)+$/i.exec(written)?.[0] ?? '';
  const name = `${nameParts[Math.floor(random() * nameParts.length)]}${Math.floor(random() * 900) + 100}`;
  return `${name}${extension}`;
}

function fill(template: string, key: string, random: () => number): string {
  const int = (low: number, high: number): number => low + Math.floor(random() * (high - low + 1));
  return template
    .replace(/\{key\}/g, key)
    .replace(/\{n\}/g, String(int(2, 9)))
    .replace(/\{m\}/g, String(int(10, 60)))
    .replace(/\{big\}/g, String(int(120, 980)))
    .replace(/\{ver\}/g, `${int(1, 4)}.${int(0, 12)}.${int(0, 9)}`);
}

function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length)];
}

/** `count` distractor turns in sessions of 6 to 20, a few minutes apart, starting at `from` (all after the planted ones). */
export function generateDistractors(count: number, from: Date, seed = 11): DistractorTurn[] {
  const random = mulberry32(seed);
  const turns: DistractorTurn[] = [];
  let at = from.getTime();
  for (let session = 0; turns.length < count; session++) {
    const id = `d${session}`;
    const texts: string[] = [];
    const length = 6 + Math.floor(random() * 15);
    if (random() < 0.6) {
      const family = pick(data.families, random);
      const variant = pick(family.variants, random);
      const key = otherName(pick(family.keys, random), random);
      texts.push(`${fill(pick(family.opens, random), key, random)} ${fill(variant.sym, key, random)}`, fill(variant.cause, key, random));
      texts.push(fill(pick([...family.asks, ...data.commonAsks], random), key, random), fill(variant.fix, key, random));
      texts.push(fill(pick(data.closes, random), key, random), pick(data.acks, random));
    }
    while (texts.length < length) texts.push(...pick(random() < 0.5 ? data.generalExchanges : data.fillers, random));
    for (const [index, text] of texts.slice(0, length).entries()) {
      if (turns.length === count) break;
      at += (1 + Math.floor(random() * 4)) * 60_000;
      turns.push({ session: id, role: index % 2 === 0 ? 'user' : 'assistant', text, at: new Date(at).toISOString(), ref: `${id}-${index + 1}` });
    }
    at += 6 * 3_600_000;
  }
  return turns;
}
