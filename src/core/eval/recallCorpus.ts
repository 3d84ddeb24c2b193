/**
 * A generated, labelled corpus for measuring conversation recall: about 120 sessions of coding-assistant
 * talk over a year, and questions phrased differently from the turns that answer them, each labelled with
 * the refs of its evidence turns. Deterministic for a seed (mulberry32), so every run measures the same thing.
 *
 * It was written without reading the recall engine it scores. Each topic family recurs in several sessions
 * with other specifics (service, table, test file…), often with the same underlying cause, so the question's
 * specific name and the session around the evidence matter; some questions need the assistant's answer, some
 * a later follow-up session, some the most recent occurrence; distractor sessions talk about the same topics
 * in general terms and answer nothing.
 */

import corpusData from './recallCorpusData.json';

export interface RecallCorpusTurn {
  readonly session: string;
  readonly role: 'user' | 'assistant';
  readonly text: string;
  readonly at: string;
  readonly ref: string;
}

export interface RecallCorpusQuestion {
  readonly id: string;
  readonly query: string;
  /** Refs of the turns that answer the question. */
  readonly evidence: string[];
}

export interface RecallCorpus {
  readonly turns: RecallCorpusTurn[];
  readonly questions: RecallCorpusQuestion[];
}

/** mulberry32: a small, fast, seeded generator; the same seed gives the same corpus. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A question about one scenario: `e` indexes the scenario's turns (0 the report, 1 the diagnosis, 2 the follow-up ask, 3 the fix). */
interface QuestionTemplate {
  readonly q: string;
  readonly e: readonly number[];
}

interface Variant {
  /** What the user reports after the family's opening line. */
  readonly sym: string;
  /** The assistant's diagnosis. */
  readonly cause: string;
  /** The assistant's fix. */
  readonly fix: string;
  readonly qs: readonly QuestionTemplate[];
  /** The same problem coming back weeks later, in another session. */
  readonly follow?: { readonly u: string; readonly a: string; readonly q: string };
}

interface Family {
  readonly name: string;
  /** `as written in the turns|as a question names it` (the second part defaults to the first). */
  readonly keys: readonly string[];
  readonly opens: readonly string[];
  readonly asks: readonly string[];
  readonly variants: readonly Variant[];
  /** Asked of the family's most recent occurrence, without naming it. */
  readonly latest: QuestionTemplate;
}

interface Slots {
  readonly key: string;
  readonly keyQ: string;
  readonly n: number;
  readonly m: number;
  readonly big: number;
  readonly ver: string;
}

/**
 * The corpus's raw material (topic families with their variants and question templates, small talk, openers)
 * is data, kept in recallCorpusData.json; this file only generates from it.
 */
interface CorpusData {
  readonly commonAsks: readonly string[];
  readonly closes: readonly string[];
  readonly acks: readonly string[];
  readonly families: readonly Family[];
  readonly reportQuestions: Record<string, readonly string[]>;
  readonly generalExchanges: readonly (readonly [string, string])[];
  readonly openers: readonly (readonly [string, string])[];
  readonly closers: readonly (readonly [string, string])[];
  readonly fillers: readonly (readonly [string, string])[];
}

const { commonAsks, closes, acks, families, reportQuestions, generalExchanges, openers, closers, fillers } = corpusData as unknown as CorpusData;
interface PlannedInstance {
  readonly family: number;
  readonly round: number;
}

interface Block {
  readonly turns: string[];
  /** Questions with indexes into this block's turns. */
  readonly questions: { query: string; evidence: number[] }[];
  readonly instance?: { family: number; latestEvidence: number[] };
  readonly followOf?: number;
}

function fill(template: string, slots: Slots, question: boolean): string {
  return template.replace(/\{(key|n|m|big|ver)\}/g, (_, name: string) => {
    switch (name) {
      case 'key':
        return question ? slots.keyQ : slots.key;
      case 'ver':
        return slots.ver;
      default:
        return String(slots[name as 'n' | 'm' | 'big']);
    }
  });
}

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length)];
}

const sessionCount = 120;
const maxTurnsPerSession = 24;
const minTurns = 2000;

/**
 * The corpus for a seed. Turns come in time order (sessions spread over 2025, turns a minute or few apart),
 * each with a ref `cNNN-TT`; questions reference those refs.
 */
export function generateRecallCorpus(seed = 7): RecallCorpus {
  const random = mulberry32(seed);
  const int = (low: number, high: number): number => low + Math.floor(random() * (high - low + 1));

  // Which sessions only talk in general terms (distractors), and how many scenarios each of the others holds.
  const distractor = shuffle(Array.from({ length: sessionCount }, (_, i) => i < 16), random);
  const scenarioCounts = distractor.map((d): number => (d ? (random() < 0.5 ? 1 : 0) : random() < 0.45 ? 2 : 1));
  const needed = scenarioCounts.reduce((a, b) => a + b, 0);

  // Instances go round the families, so each topic recurs through the year with new specifics.
  const planned: PlannedInstance[] = [];
  for (let round = 0; planned.length < needed; round++) {
    planned.push(...shuffle(families.map((_, family) => ({ family, round })), random));
  }
  const keyOrder = families.map((family) => shuffle(family.keys.map((_, i) => i), random));
  const variantOrder = families.map((family) => shuffle(family.variants.map((_, i) => i), random));

  const makeInstance = (instance: PlannedInstance, asked: boolean): { block: Block; follow?: Block } => {
    const family = families[instance.family];
    const [key, keyQ] = family.keys[keyOrder[instance.family][instance.round % family.keys.length]].split('|');
    const variantIndex = variantOrder[instance.family][instance.round % family.variants.length];
    const variant = family.variants[variantIndex];
    const report = reportQuestions[family.name]?.[variantIndex];
    const slots: Slots = {
      key,
      keyQ: keyQ ?? key,
      n: int(2, 9),
      m: int(11, 95),
      big: int(120, 980),
      ver: `${int(1, 4)}.${int(0, 12)}.${int(0, 9)}`,
    };
    const turns = [
      `${fill(pick(family.opens, random), slots, false)} ${fill(variant.sym, slots, false)}`,
      fill(variant.cause, slots, false),
      pick([...family.asks, ...commonAsks], random),
      fill(variant.fix, slots, false),
    ];
    if (random() < 0.55) turns.push(fill(pick(closes, random), slots, false), pick(acks, random));
    const questions = asked
      ? shuffle([...variant.qs, ...(report ? [{ q: report, e: [0] }] : [])], random)
          .slice(0, 2)
          .map((q) => ({ query: fill(q.q, slots, true), evidence: [...q.e] }))
      : [];
    const block: Block = { turns, questions, instance: { family: instance.family, latestEvidence: [...family.latest.e] } };
    if (!asked || !variant.follow) return { block };
    const follow: Block = {
      turns: [fill(variant.follow.u, slots, false), fill(variant.follow.a, slots, false)],
      questions: [{ query: fill(variant.follow.q, slots, true), evidence: [1] }],
      followOf: instance.family,
    };
    return { block, follow };
  };

  // Session start times: spread over 2025, in working hours, in order.
  const yearStart = Date.parse('2025-01-06T00:00:00Z');
  const starts = Array.from({ length: sessionCount }, () => Math.floor(random() * 350) * 86_400_000 + int(7, 17) * 3_600_000 + int(0, 59) * 60_000)
    .sort((a, b) => a - b)
    .map((offset) => yearStart + offset);

  let next = 0;
  const pendingFollows: { due: number; block: Block }[] = [];
  const sessions: Block[][] = [];
  for (let s = 0; s < sessionCount; s++) {
    const blocks: Block[] = [];
    let used: number[] = [];
    for (let i = 0; i < scenarioCounts[s]; i++) {
      // Two scenarios in one session are of different families.
      let at = next;
      while (at < planned.length && used.includes(planned[at].family)) at++;
      if (at >= planned.length) break;
      [planned[next], planned[at]] = [planned[at], planned[next]];
      const made = makeInstance(planned[next++], !distractor[s]);
      used = [...used, made.block.instance!.family];
      blocks.push(made.block);
      if (made.follow) pendingFollows.push({ due: s + int(3, 12), block: made.follow });
    }
    let length = blocks.reduce((sum, block) => sum + block.turns.length, 0);
    if (!distractor[s]) {
      const due = pendingFollows.findIndex((follow) => follow.due <= s);
      if (due >= 0 && length + 2 <= maxTurnsPerSession) {
        blocks.push(pendingFollows.splice(due, 1)[0].block);
        length += 2;
      }
    }
    const target = 12 + 2 * int(0, 6);
    // Small talk and general questions, none twice in a session; an opener first, a closer last, sometimes.
    const talk = (pool: readonly (readonly [string, string])[]): Block => {
      const fresh = pool.filter(([u]) => !blocks.some((block) => block.turns[0] === u));
      const [u, a] = pick(fresh.length > 0 ? fresh : pool, random);
      length += 2;
      return { turns: [u, a], questions: [] };
    };
    const opener = length + 2 <= target && random() < 0.35 ? talk(openers) : undefined;
    const closer = length + 2 <= target && random() < 0.5 ? talk(closers) : undefined;
    const generalShare = distractor[s] ? 0.7 : 0.35;
    while (length < target) blocks.push(talk(random() < generalShare ? generalExchanges : fillers));
    sessions.push([...(opener ? [opener] : []), ...shuffle(blocks, random), ...(closer ? [closer] : [])]);
  }

  // At least minTurns: top up the shortest sessions with small talk (a no-op for the default seed).
  let total = sessions.reduce((sum, blocks) => sum + blocks.reduce((n, block) => n + block.turns.length, 0), 0);
  while (total < minTurns) {
    const lengths = sessions.map((blocks) => blocks.reduce((n, block) => n + block.turns.length, 0));
    const shortest = lengths.indexOf(Math.min(...lengths));
    const [u, a] = pick(fillers, random);
    sessions[shortest].splice(sessions[shortest].length - 1, 0, { turns: [u, a], questions: [] });
    total += 2;
  }

  const turns: RecallCorpusTurn[] = [];
  const questions: RecallCorpusQuestion[] = [];
  const latest = new Map<number, { session: number; refs: string[] }>();
  const lastFollow = new Map<number, number>();
  const ask = (query: string, evidence: string[]): void => {
    questions.push({ id: `q${String(questions.length + 1).padStart(3, '0')}`, query, evidence });
  };
  sessions.forEach((blocks, s) => {
    const session = `conv-${String(s + 1).padStart(3, '0')}`;
    let at = starts[s];
    let index = 0;
    for (const block of blocks) {
      const refs = block.turns.map((text, i) => {
        const ref = `c${String(s + 1).padStart(3, '0')}-${String(index + 1).padStart(2, '0')}`;
        const role = index % 2 === 0 ? 'user' : 'assistant';
        index++;
        at += int(40, 280) * 1000 + (i === 0 ? int(0, 600) * 1000 : 0);
        turns.push({ session, role, text, at: new Date(at).toISOString(), ref });
        return ref;
      });
      for (const question of block.questions) ask(question.query, question.evidence.map((i) => refs[i]));
      if (block.instance) latest.set(block.instance.family, { session: s, refs: block.instance.latestEvidence.map((i) => refs[i]) });
      if (block.followOf !== undefined) lastFollow.set(block.followOf, s);
    }
  });

  // "The most recent …" questions: answered by the family's last occurrence, unless a follow-up came later.
  families.forEach((family, index) => {
    const last = latest.get(index);
    if (!last || (lastFollow.get(index) ?? -1) > last.session) return;
    ask(family.latest.q, last.refs);
  });

  return { turns, questions };
}
