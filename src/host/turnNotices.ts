import type * as vscode from 'vscode';
import { learnedAnnouncement, questionAnnouncement } from '../core/memory/announce';
import type { TurnResult } from '../core/turn/turnEngine';

/** What the turn changed in memory, said at the end of the reply with its buttons: corrections, facts learned, the question. */
export function renderTurnNotices(stream: vscode.ChatResponseStream, result: TurnResult): void {
  const correction = result.correction;
  if (correction?.retired) {
    const belief = `${correction.retired.key} = ${correction.retired.value}`;
    stream.markdown(`\n\n---\n**Corrected:** I no longer believe ${belief}.`);
    stream.button({ command: 'engram.undoCorrection', title: 'Undo', arguments: [{ statementId: correction.retired.id }] });
    if (correction.lesson?.status === 'proposed') {
      stream.markdown(`\n\nProposed lesson for next time: *${correction.lesson.text}* (approve it in the Memory view).`);
    }
  } else if (correction?.unattributed) {
    stream.markdown(
      '\n\n---\nIt sounds like I got something about you wrong, but I cannot tell which belief. ' +
        'Tell me which one, or remove it with **Engram: Forget Fact…**.',
    );
  }
  if (result.offTheRecord) {
    stream.markdown('\n\n---\n**Off the record:** I used this message for this reply only. Neither it nor my reply is stored; both are gone when this conversation ends.');
  }
  if (result.learned.length > 0) {
    stream.markdown(`\n\n---\n${learnedAnnouncement(result.learned)}`);
    stream.button({ command: 'engram.undoLastLearned', title: 'Undo', arguments: [{ statementIds: result.learned.map((s) => s.id) }] });
  }
  if (result.question) {
    stream.markdown(`\n\n${questionAnnouncement(result.question)}`);
    stream.button({ command: 'engram.answerQuestion', title: 'Yes', arguments: [{ statementId: result.question.id, answer: 'yes' }] });
    stream.button({ command: 'engram.answerQuestion', title: 'No', arguments: [{ statementId: result.question.id, answer: 'no' }] });
  }
}
