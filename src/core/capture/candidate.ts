/**
 * How plainly a fact was stated. A: the plain shape of its own key ("My editor is…", "I work at…"), confirmed in the
 * turn. B: a weaker but first-person shape ("I switched to…"), asked once. C: a guess only the owner can settle.
 */
export type Tier = 'A' | 'B' | 'C';

/** One fact a message proposes about its owner (or the project), on an allowed key. */
export interface Candidate {
  readonly key: string;
  readonly value: string;
  readonly tier: Tier;
}
