import type { VsCodeApi } from './dom';

/** What the graph page keeps across a hide and show, or a reload of the window: the selected and focused nodes. */
export interface GraphState {
  selectedId?: string;
  focusedId?: string;
}

/** The saved state, read defensively: it was written by an earlier version of the page, or by none. */
export function readGraphState(api: VsCodeApi): GraphState {
  const state = api.getState() as Record<string, unknown> | undefined;
  return {
    selectedId: typeof state?.selectedId === 'string' ? state.selectedId : undefined,
    focusedId: typeof state?.focusedId === 'string' ? state.focusedId : undefined,
  };
}
