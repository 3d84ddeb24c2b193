import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { assemblePrompt, BudgetShares } from '../context/assemble';
import type { Attachment } from '../context/attachments';
import { checkRuntime, ModelCalibration, planBudget, type BudgetPlan } from '../context/budget';
import type { ContextBlock, ContextReport } from '../context/contextReport';
import type { TokenCounter } from '../shared/tokenCounter';
import type { ChatMessage } from '../llm/chatModel';
import type { CorrectionOutcome } from '../memory/corrections';
import type { TurnCapture } from '../memory/facts';
import type { StatementRecord } from '../memory/statementRepository';
import type { TurnRecord } from '../store/turnRepository';
import type { ProjectScope } from '../project/projectScope';
import { answerFromMemory } from './directAnswers';
import type { MemoryAccess } from './engramMemory';
import { fillCorrectedSlot } from './correctedSlot';
import { memoTokenCounter } from './memoTokenCounter';
import { PromptBuilder } from './promptBuilder';
import { isForgetLast, isOffTheRecord, OffTheRecordTurns } from './offTheRecord';
import { chooseTools } from './toolChoice';
import { requiredToolsNote, runToolLoop } from './toolLoop';
import { buildReport, sentTokens, toolsOfTurn } from './turnReport';
import type { ToolRunner, TurnModel } from './turnModel';

/** Tool definitions go with every request of a turn: they may take this share of the budget at most. */
const toolDefinitionShare = 0.3;

export interface TurnInput {
  readonly sessionId: string;
  /** The user's own words: recorded, captured, answered. */
  readonly text: string;
  /** The project of the chat's workspace folder: its facts are captured and shown in this scope, no other. */
  readonly projectScope?: ProjectScope;
  /** Code and text attached to the message: in the prompt, in the report, never recorded or captured. */
  readonly attachments?: readonly Attachment[];
  /** Tools the user referenced with a chip (`#memory`): required for this turn. */
  readonly requiredTools?: readonly string[];
}

/** How a turn talks to the world: the model, the tools, where the reply streams, and the cancel signal. */
export interface TurnIo {
  readonly model: TurnModel;
  readonly tools: ToolRunner;
  readonly onText: (text: string) => void;
  /** A thinking model's reasoning as it streams: shown as progress, never stored, never captured. */
  readonly onThinking?: (text: string) => void;
  readonly signal?: AbortSignal;
  /** How many tools one turn offers at most (small local models pick badly from many). */
  readonly toolCap?: number;
}

/** What one turn did, for the chat to render and the CLI to print. */
export interface TurnResult {
  readonly sessionId: string;
  readonly reply: string;
  /** Answered without the model (undo, yes/no, an empty message). */
  readonly direct: boolean;
  readonly firstTurn: boolean;
  readonly learned: readonly StatementRecord[];
  readonly question?: StatementRecord;
  readonly correction?: CorrectionOutcome;
  readonly report?: ContextReport;
  /** What went wrong, in words a person can act on; the user's turn is recorded all the same. */
  readonly error?: string;
  readonly cancelled: boolean;
  /** The owner asked that this message not be remembered: it and the reply stay out of the store. */
  readonly offTheRecord?: boolean;
}

/** Prepared before the model is called: recorded, answered directly, corrected, captured. */
export interface PreparedTurn {
  readonly input: TurnInput;
  readonly firstTurn: boolean;
  readonly userTurn?: TurnRecord;
  readonly direct?: string;
  readonly capture: TurnCapture;
  readonly correction?: CorrectionOutcome;
  readonly offTheRecord?: boolean;
}

export interface TurnEngineOptions {
  readonly memory: MemoryAccess;
  readonly tokens: TokenCounter;
  readonly shares?: () => BudgetShares;
  /** Mark retired beliefs where the prompt still voices them. On by default; the evaluation measures it off too. */
  readonly markStale?: boolean;
  /** Act on corrections (retire the belief the assistant voiced). On by default; replay turns it off per policy. */
  readonly actOnCorrections?: boolean;
  /** Told about the turns just recorded, after the reply (the vector index embeds them). */
  readonly afterReply?: (turns: readonly TurnRecord[]) => void;
  readonly log?: (level: 'info' | 'warn' | 'error', message: string) => void;
  /** The learned per-model token correction (shared by the engines of one process); a new one by default. */
  readonly calibration?: ModelCalibration;
  /** Told how long each part of a turn took on this thread (the benchmark reads it). */
  readonly onTiming?: (part: TurnPart, ms: number) => void;
}

/** The parts of a turn's own work: everything but the model's time. */
export type TurnPart = 'prepare' | 'assemble' | 'finish';

const noCapture: TurnCapture = { learned: [], queued: [] };

/**
 * The one engine of a chat turn, for `@engram`, the CLI's `chat`, `replay` and `bench`: record the user's words,
 * answer what needs no model, act on a correction, capture, assemble the prompt under the model's real window,
 * run the tool loop, record the reply and the report, and start the after-turn work off the reply path.
 */
export class TurnEngine {
  private readonly tokens: TokenCounter;
  /** What the owner said off the record, and the replies to it: in this process only, never in the store. */
  readonly offRecord = new OffTheRecordTurns();
  private readonly prompts: PromptBuilder;
  /** The model's count over Engram's, per model, from each turn's `prompt_eval_count`: the next budgets use it. */
  readonly calibration: ModelCalibration;

  constructor(private readonly options: TurnEngineOptions) {
    this.tokens = memoTokenCounter(options.tokens);
    this.calibration = options.calibration ?? new ModelCalibration();
    this.prompts = new PromptBuilder({ ...options, tokens: this.tokens, offRecord: this.offRecord });
  }

  private get log(): NonNullable<TurnEngineOptions['log']> {
    return this.options.log ?? (() => undefined);
  }

  async run(input: TurnInput, io: TurnIo): Promise<TurnResult> {
    const started = performance.now();
    const prepared = this.prepare(input);
    this.options.onTiming?.('prepare', performance.now() - started);
    const base = {
      sessionId: input.sessionId,
      firstTurn: prepared.firstTurn,
      learned: prepared.capture.learned,
      question: prepared.capture.question,
      correction: prepared.correction,
      offTheRecord: prepared.offTheRecord,
    };
    if (prepared.direct !== undefined) {
      io.onText(prepared.direct);
      return { ...base, reply: prepared.direct, direct: true, cancelled: false };
    }
    return { ...base, ...(await this.respond(prepared, io)), direct: false };
  }

  /** Everything before the model: public for `replay`, whose assistant turns come from its corpus. */
  prepare(input: TurnInput): PreparedTurn {
    const memory = this.options.memory;
    if (input.text.trim() === '') {
      // Nothing is recorded: an empty user turn would leave two assistant turns in a row in the next prompt.
      return { input, firstTurn: false, capture: noCapture, direct: 'Type a question or a request after @engram.' };
    }
    if (memory.state !== 'open') return { input, firstTurn: true, capture: noCapture };
    const { store, facts, corrections } = memory;
    store.syncFromOtherWriters();
    const firstTurn = store.recentTurns(input.sessionId, 1).length === 0 && !this.offRecord.has(input.sessionId);
    if (isForgetLast(input.text)) {
      // Not recorded itself: it would only say that something was forgotten, and where.
      return { input, firstTurn, capture: noCapture, direct: this.forgetLastMessage(input.sessionId) };
    }
    if (isOffTheRecord(input.text)) {
      // Used for this reply and this conversation, never stored: so nothing is captured or corrected from it either.
      const userTurn = this.offRecord.hold(input.sessionId, 'user', input.text, this.tokens.count(input.text), this.lastStoredSeq(input.sessionId));
      return { input, firstTurn, userTurn, capture: noCapture, offTheRecord: true };
    }
    const userTurn = this.record(input.sessionId, 'user', input.text);
    const answered = answerFromMemory(facts, input.text, input.sessionId, { firstTurn });
    if (answered !== undefined) {
      this.record(input.sessionId, 'assistant', answered.text);
      // A "yes" confirms a fact: it is announced as learned, with its Undo, like any other.
      return { input, firstTurn, userTurn, direct: answered.text, capture: { learned: [...answered.learned], queued: [] } };
    }
    let capture = noCapture;
    let correction: CorrectionOutcome | undefined;
    if (userTurn) {
      try {
        // A correction acts first, in its own turn; a new value said in the same breath then goes through capture.
        if (this.options.actOnCorrections ?? true) correction = corrections.onUserTurn(userTurn);
        capture = facts.captureFromTurn(userTurn, { project: input.projectScope?.scope });
        if (correction?.retired) capture = fillCorrectedSlot(facts, capture, correction.retired);
      } catch (error) {
        this.log('error', `capture failed: ${messageOf(error)}`);
      }
    }
    return { input, firstTurn, userTurn, capture, correction };
  }

  /** The prompt the model would get for a prepared turn, under a budget: for evaluations that run no model. */
  previewPrompt(prepared: PreparedTurn, budget: number, io: Pick<TurnIo, 'model' | 'tools'>): ReturnType<typeof assemblePrompt> {
    return this.prompts.build(prepared, { model: io.model, toolNames: io.tools.specs().map((tool) => tool.name) }, budget);
  }

  /**
   * Assembles (and forgets) the prompt of a message in a conversation that does not exist and counts the tool
   * definitions into this engine's cache: warmUp.ts runs it at a quiet moment so the first real turn is not the cold one.
   */
  warmUp(text: string, io: Pick<TurnIo, 'model' | 'tools'>): void {
    const specs = io.tools.specs();
    for (const spec of specs) this.tokens.count(JSON.stringify(spec));
    this.prompts.build({ input: { sessionId: 'engram-warm-up', text } }, { model: io.model, toolNames: specs.map((spec) => spec.name) }, 6_000);
  }

  /** Records a turn the engine did not run itself (replay's corpus replies). */
  recordReply(sessionId: string, text: string): TurnRecord | undefined {
    return this.record(sessionId, 'assistant', text);
  }

  private async respond(prepared: PreparedTurn, io: TurnIo): Promise<Pick<TurnResult, 'reply' | 'report' | 'error' | 'cancelled'>> {
    const { input } = prepared;
    const turnId = prepared.userTurn?.id ?? randomUUID();
    let reply = '';
    let report: ContextReport | undefined;
    let error: string | undefined;
    let plan: BudgetPlan | undefined;
    try {
      const window = await io.model.window();
      const correction = this.calibration.correction(io.model.id);
      const unplanned = planBudget({ window: window.tokens, replyReserve: window.replyReserve, correction });
      const choice = chooseTools({
        available: io.tools.specs(),
        message: input.text,
        required: input.requiredTools ?? [],
        cap: io.toolCap,
        always: io.tools.alwaysOffered,
        definitions: { budget: Math.floor(unplanned.budget * toolDefinitionShare), cost: (spec) => this.tokens.count(JSON.stringify(spec)) },
      });
      // One plan for every block: the tool definitions and room for their results are taken before the prompt is filled.
      plan = planBudget({ window: window.tokens, replyReserve: window.replyReserve, correction, toolDefinitions: choice.offered.length ? this.tokens.count(JSON.stringify(choice.offered)) : 0 });
      const budget = plan.budget;
      const assembling = performance.now();
      const assembled = this.prompts.build(prepared, { model: io.model, toolNames: choice.offered.map((tool) => tool.name) }, plan.blocks);
      const note = requiredToolsNote(choice, io.tools, input.text);
      const noteBlock = note ? [this.requiredToolsBlock(note)] : [];
      const messages: ChatMessage[] = [
        { role: io.model.systemDelivery === 'system message' ? 'system' : 'user', content: assembled.system },
        ...assembled.history.map((turn): ChatMessage => ({ role: turn.role, content: turn.text })),
        { role: 'user', content: note ? `${assembled.prompt}\n\n${note}` : assembled.prompt },
      ];
      this.options.onTiming?.('assemble', performance.now() - assembling);
      const inPrompt = new Set(assembled.history.map((turn) => turn.id));
      if (prepared.userTurn) inPrompt.add(prepared.userTurn.id);
      const toolContext = { sessionId: input.sessionId, inPrompt, projectScope: input.projectScope?.scope };
      const promptBlocks = [...assembled.blocks, ...noteBlock];
      const used = promptBlocks.reduce((sum, block) => sum + block.tokens, 0);
      // The reply is gathered here as it streams: what was said is kept even when the loop fails half-way.
      const onText = (text: string): void => {
        reply += text;
        io.onText(text);
      };
      const room = budget - plan.toolDefinitions - plan.framing - used;
      const loop = await runToolLoop({ messages, model: io.model, tools: io.tools, choice, message: input.text, onText, onThinking: io.onThinking, signal: io.signal, tokens: this.tokens, room, budget, context: toolContext });
      const totalTokens = sentTokens(messages, assembled.history.length, promptBlocks, loop.blocks, loop.definitionTokens, this.tokens);
      // The runtime's own count checks the estimate; what it teaches sizes the next turn's budget.
      const runtime = loop.promptEvalCount !== undefined ? checkRuntime(loop.promptEvalCount, totalTokens, plan) : undefined;
      if (runtime) this.calibration.observe(io.model.id, runtime.counted, runtime.estimate, window.tokens);
      if (runtime?.flagged) this.log('warn', `context over budget by the model's count: ${runtime.why}`);
      report = buildReport({
        turnId,
        sessionId: input.sessionId,
        model: io.model,
        window,
        budget,
        blocks: [...promptBlocks, ...loop.blocks],
        toolDefinitionTokens: loop.definitionTokens,
        retrieval: [...assembled.retrieval, ...loop.retrieval],
        totalTokens,
        tools: toolsOfTurn(choice, loop.required, io.tools.withheld?.() ?? []),
        plan,
        runtime,
      });
    } catch (failure) {
      if (!io.signal?.aborted) {
        error = io.model.explain?.(failure) ?? messageOf(failure);
        this.log('error', `chat request failed: ${error}`);
      }
    }
    const finishing = performance.now();
    this.finish(prepared, reply, report, io.model, plan);
    this.options.onTiming?.('finish', performance.now() - finishing);
    return { reply, report, error, cancelled: !!io.signal?.aborted };
  }

  private requiredToolsBlock(note: string): ContextBlock {
    const tokens = this.tokens.count(note) + 1;
    return { id: 'tools.required', layer: 'L0', title: 'Tools you referenced', state: 'included', tokens, fullTokens: tokens, why: 'the model is asked to call them (a local model cannot be made to)', text: note };
  }

  /** After the reply: record it, keep the report (and with it the retrieval log), then the work off the reply path. */
  private finish(prepared: PreparedTurn, reply: string, report: ContextReport | undefined, model: TurnModel, plan?: BudgetPlan): void {
    const memory = this.options.memory;
    if (memory.state !== 'open') return;
    const { sessionId } = prepared.input;
    if (prepared.offTheRecord) {
      // The reply may repeat what was said off the record: it is held with it, never stored.
      if (reply) this.offRecord.hold(sessionId, 'assistant', reply, this.tokens.count(reply), this.lastStoredSeq(sessionId));
      if (report) this.saveReport(report);
      return;
    }
    // What was said is remembered even when the reply was cut short.
    const assistantTurn = reply ? this.record(sessionId, 'assistant', reply) : undefined;
    if (report) this.saveReport(report);
    const recorded = [prepared.userTurn, assistantTurn].filter((turn): turn is TurnRecord => !!turn);
    this.options.afterReply?.(recorded);
    const conversation = report?.blocks.find((block) => block.id === 'conversation');
    if (conversation?.state === 'truncated' && plan) this.rollSummary(sessionId, model, plan);
  }

  /**
   * Folds the turns that left the prompt into the summary, off the reply path: each request is planned to the same
   * window as the prompt (no tools), and the summary kept to its share of the prompt. Thinking is asked off.
   */
  private rollSummary(sessionId: string, model: TurnModel, plan: BudgetPlan): void {
    if (this.options.memory.state !== 'open') return;
    const shares = this.options.shares?.();
    const budget = planBudget({ window: plan.window, replyReserve: plan.replyReserve, correction: this.calibration.correction(model.id) }).budget;
    this.options.memory.summaries
      .roll(
        sessionId,
        async (messages, signal) => {
          let text = '';
          for await (const chunk of model.send(messages, { tools: [], think: false, signal })) if (chunk.kind === 'text') text += chunk.text;
          return text;
        },
        { budget, summaryTokens: Math.floor(plan.blocks * (shares?.summary ?? 0.1)) },
      )
      .then((rolled) => rolled && this.log('info', `summary of ${sessionId} rolled forward: ${this.options.memory.state === 'open' ? this.options.memory.summaries.describe(sessionId) : ''}`))
      .catch((error: unknown) => this.log('warn', `summary not rolled: ${messageOf(error)}`));
  }

  /**
   * "Forget what I just said": the owner's last message, the reply to it and any fact learned from it leave every file
   * of the store (the purge runs off this thread); an off-the-record message is simply dropped from this window.
   */
  private forgetLastMessage(sessionId: string): string {
    if (this.offRecord.has(sessionId)) {
      this.offRecord.end(sessionId);
      return 'Done: what you said off the record in this conversation is gone from this window too.';
    }
    const memory = this.options.memory;
    if (memory.state !== 'open') return 'There is nothing stored to forget: memory is not available.';
    const recent = memory.store.recentTurns(sessionId, 2);
    const userIndex = recent.map((turn) => turn.role).lastIndexOf('user');
    if (userIndex < 0) return 'There is nothing you said in this conversation to forget.';
    const forgotten = recent.slice(userIndex);
    const userTurn = forgotten[0];
    // Facts learned from those words go with them, audit trail and all: nothing the user took back lingers.
    const learned = memory.facts.list().filter((statement) => statement.sourceTurnId === userTurn.id);
    for (const statement of learned) {
      memory.store.applyOperation({ kind: 'statement', action: 'forget', id: randomUUID(), statementId: statement.id, at: new Date().toISOString(), reason: 'the owner asked to forget what they said' });
    }
    memory.store
      .forgetTurns(sessionId, forgotten.map((turn) => turn.id))
      .catch((error: unknown) => this.log('error', `forgetting the last message: ${messageOf(error)}`));
    const facts = learned.length ? ` and what I learned from it (${learned.map((s) => `${s.key} = ${s.value}`).join(', ')})` : '';
    return `Done: I forgot your last message, my reply to it${facts}. They are gone from memory.`;
  }

  /** The report keeps figures, ids and reasons only: no text of the turn reaches the store through it. */
  private saveReport(report: ContextReport): void {
    if (this.options.memory.state !== 'open') return;
    try {
      this.options.memory.saveReport(report);
    } catch (error) {
      this.log('warn', `context report not stored: ${messageOf(error)}`);
    }
  }

  private lastStoredSeq(sessionId: string): number {
    return this.options.memory.state === 'open' ? (this.options.memory.store.recentTurns(sessionId, 1)[0]?.seq ?? 0) : 0;
  }

  private record(sessionId: string, role: 'user' | 'assistant', text: string): TurnRecord | undefined {
    const memory = this.options.memory;
    if (memory.state !== 'open') return undefined;
    try {
      return memory.store.recordTurn({ sessionId, role, text });
    } catch (error) {
      this.log('error', `could not record the ${role} turn: ${messageOf(error)}`);
      return undefined;
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
