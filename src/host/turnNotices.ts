import * as vscode from 'vscode';
import { learnedAnnouncement, questionAnnouncement } from '../core/memory/announce';
import type { TurnResult } from '../core/turn/turnEngine';
import { commandLink } from './turnReceipt';

const noticeCommands = ['engram.undoCorrection', 'engram.undoLastLearned', 'engram.answerQuestion'];

/**
 * What the turn changed in memory, said at the end of the reply: corrections, facts learned, the question. Their
 * actions (Undo, Yes, No) are links in one trusted Markdown part, not chat buttons: once a turn has run a tool,
 * VS Code 1.139 folds every part up to the last button into "Completed N steps", which hid the correction, its
 * Undo and the reply itself (seen in the e2e screenshots); Markdown after the tool calls stays in view.
 */
export function renderTurnNotices(stream: vscode.ChatResponseStream, result: TurnResult): void {
  const parts: string[] = [];
  const correction = result.correction;
  if (correction?.retired) {
    const belief = `${correction.retired.key} = ${correction.retired.value}`;
    parts.push(`**Corrected:** I no longer believe ${belief}. ${commandLink('Undo', 'engram.undoCorrection', [{ statementId: correction.retired.id }], 'Believe it again')}`);
    if (correction.lesson?.status === 'proposed') {
      parts.push(`Proposed lesson for next time: *${correction.lesson.text}* (approve it in the Memory view).`);
    }
  } else if (correction?.unattributed) {
    parts.push('It sounds like I got something about you wrong, but I cannot tell which belief. Tell me which one, or remove it with **Engram: Forget Fact…**.');
  }
  if (result.offTheRecord) {
    stream.markdown('\n\n---\n**Off the record:** I used this message for this reply only. Neither it nor my reply is stored; both are gone when this conversation ends.');
  }
  if (result.learned.length > 0) {
    parts.push(`${learnedAnnouncement(result.learned)} ${commandLink('Undo', 'engram.undoLastLearned', [{ statementIds: result.learned.map((s) => s.id) }], 'Take it back')}`);
  }
  if (result.question) {
    const answer = (word: 'yes' | 'no'): string => commandLink(word === 'yes' ? 'Yes' : 'No', 'engram.answerQuestion', [{ statementId: result.question!.id, answer: word }], word === 'yes' ? 'Remember it' : 'Do not remember it');
    parts.push(`${questionAnnouncement(result.question)} ${answer('yes')} · ${answer('no')}`);
  }
  if (parts.length === 0) return;
  const markdown = new vscode.MarkdownString(`\n\n---\n${parts.join('\n\n')}`);
  markdown.isTrusted = { enabledCommands: noticeCommands };
  stream.markdown(markdown);
}
