import type { Word } from './wordTagger';

/** The languages capture reads besides English (frames per language: frames/*.json). */
export type Language = 'de' | 'es' | 'pt' | 'fr' | 'it' | 'nl';

/** One clause of the owner's own text that may state something about the owner, now (clauses.ts reads them). */
export interface OwnerClause {
  /** The clause as plain text: contractions expanded, emoji and fillers gone ("i am a backend dev at Fernhill"). */
  readonly text: string;
  /** Why a fact from this clause must not be confirmed on its own (empty: its plainest shapes may be tier A). */
  readonly weaker: readonly string[];
  /** The tagged words (English clauses only), for checking a value in context. */
  readonly words: readonly Word[];
  readonly language: 'en' | Language;
}
