import { statSync } from 'node:fs';
import { readManifest } from './generations';
import type { StoreLayout } from './storeLayout';

/**
 * Tells an open window that a compaction removed a journal before the window read all of it (the window was
 * idle across two compactions of other windows), from the removals each compaction records in generations.json.
 * Costs one stat of that file when nothing changed.
 */
export class RemovedJournalWatch {
  private stamp = '';
  private generation = 0;

  constructor(private readonly layout: StoreLayout) {
    this.note();
  }

  /** Remembers the manifest as it is now: removals up to here are accounted for. */
  note(): void {
    this.stamp = manifestStamp(this.layout.manifest);
    this.generation = readManifest(this.layout)?.current?.generation ?? this.generation;
  }

  /** Looks again at the next call, whatever the manifest says. */
  forget(): void {
    this.stamp = '';
  }

  /** Whether lines were missed: a removed journal (not ours) that was longer than what we applied of it. */
  missedLines(applied: ReadonlyMap<string, number>, ours: (name: string) => boolean): boolean {
    if (manifestStamp(this.layout.manifest) === this.stamp) return false;
    const manifest = readManifest(this.layout);
    const seen = this.generation;
    this.note();
    if (!manifest) return false;
    // The manifest remembers a few compactions: past that, assume the worst.
    const gap = seen > 0 && manifest.removed.length > 0 && manifest.removed[0].generation > seen + 1;
    const newer = manifest.removed.filter((entry) => entry.generation > seen);
    return gap || newer.some((entry) => entry.journals.some((journal) => !ours(journal.name) && (applied.get(journal.name) ?? 0) < journal.size));
  }
}

function manifestStamp(path: string): string {
  try {
    const stat = statSync(path, { bigint: true });
    return `${stat.ino}:${stat.mtimeNs}:${stat.size}`;
  } catch {
    return 'none';
  }
}
