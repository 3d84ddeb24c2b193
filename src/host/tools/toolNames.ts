/** The language-model tools Engram registers; one place for their names (package.json repeats them). */
export const toolNames = {
  memorySearch: 'memory_search',
  recallConversation: 'recall_conversation',
} as const;

export type EngramToolName = (typeof toolNames)[keyof typeof toolNames];
