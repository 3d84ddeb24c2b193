import type { Facts } from '../memory/facts';
import type { StatementRecord } from '../memory/statementRepository';
import type { ProjectFactsNow, ProjectMemory } from './projectMemory';
import type { ProjectScope } from './projectScope';

/** One project's part of the overview: its confirmed facts as they stand (citations re-checked) and its proposals. */
export interface ProjectOverview {
  readonly scope: ProjectScope;
  readonly now: ProjectFactsNow;
  readonly proposed: readonly StatementRecord[];
}

/** The numbers every view shows: the badge, Review Proposed Facts, `/help`, the status bar, the tree and the graph. */
export interface MemoryCounts {
  /** The owner's confirmed facts (the tree's Confirmed, the graph's You). */
  readonly confirmed: number;
  readonly proposed: number;
  readonly retired: number;
  readonly projects: readonly {
    readonly scope: string;
    readonly label: string;
    /** Confirmed facts whose citations hold (or that cite nothing): what reaches a prompt. */
    readonly confirmed: number;
    readonly needsLook: number;
    readonly proposed: number;
  }[];
  /** What waits for the owner: every proposal, the owner's and each project's, and each project fact that needs a look. */
  readonly waiting: number;
}

/** The projects a window shows (one per workspace folder) and their memory. */
export interface ProjectsInView {
  readonly memory: ProjectMemory;
  readonly scopes: readonly ProjectScope[];
}

/** What the owner sees of memory at one moment: the lists each view draws, and the counts read off those same lists. */
export interface MemoryOverview {
  readonly owner: { readonly confirmed: readonly StatementRecord[]; readonly proposed: readonly StatementRecord[]; readonly retired: readonly StatementRecord[] };
  readonly projects: readonly ProjectOverview[];
  readonly counts: MemoryCounts;
}

/**
 * The one reading of memory behind every count Engram shows. Views that drew their own lists disagreed (the badge
 * counted project proposals that the review command did not offer; `/help` counted every scope's confirmed facts
 * where the tree counted the owner's): each view now draws from this and says these numbers.
 */
export function memoryOverview(facts: Facts, projects?: ProjectsInView): MemoryOverview {
  const owner = { confirmed: facts.list('confirmed'), proposed: facts.list('proposed'), retired: facts.list('retired') };
  const seen = new Set<string>();
  const ofProjects = (projects?.scopes ?? [])
    .filter((scope) => !seen.has(scope.scope) && !!seen.add(scope.scope))
    .map((scope): ProjectOverview => ({ scope, now: projects!.memory.confirmed(scope), proposed: projects!.memory.proposed(scope) }));
  const projectCounts = ofProjects.map(({ scope, now, proposed }) => ({
    scope: scope.scope, label: scope.label, confirmed: now.current.length, needsLook: now.needsLook.length, proposed: proposed.length,
  }));
  return {
    owner,
    projects: ofProjects,
    counts: {
      confirmed: owner.confirmed.length,
      proposed: owner.proposed.length,
      retired: owner.retired.length,
      projects: projectCounts,
      waiting: owner.proposed.length + projectCounts.reduce((sum, project) => sum + project.proposed + project.needsLook, 0),
    },
  };
}

/** "2 wait for your review", in the words `/help`, the badge and the status bar share. */
export function waitingText(waiting: number): string {
  return waiting === 1 ? '1 fact waits for your review' : `${waiting} facts wait for your review`;
}
