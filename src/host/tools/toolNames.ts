/** The language-model tools Engram registers; the names live in the core, beside the tools (package.json repeats them). */
export { memoryToolNames as toolNames, type MemoryToolName as EngramToolName } from '../../core/turn/memoryTools';
