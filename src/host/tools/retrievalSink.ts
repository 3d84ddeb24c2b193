import type { RetrievalEntry } from '../../core/context/contextReport';

/**
 * What the tools returned, handed to the turn that called them: the participant takes the entries after
 * each invocation and puts them in its context report and the retrieval log.
 */
export class RetrievalSink {
  private entries: RetrievalEntry[] = [];

  add(entries: readonly RetrievalEntry[]): void {
    this.entries.push(...entries);
  }

  take(): RetrievalEntry[] {
    const taken = this.entries;
    this.entries = [];
    return taken;
  }
}
