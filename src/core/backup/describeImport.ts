import type { ImportPlan, ImportResult, KeyConflict } from './importMemory';
import { count, describeMemoryFile, formatNumber } from './memoryFile';

function describeConflict(conflict: KeyConflict): string {
  const where = (from: 'file' | 'here'): string => (from === 'file' ? 'in the file' : 'on this machine');
  return `${conflict.key}${conflict.scope === 'owner' ? '' : ` (${conflict.scope})`}: "${conflict.kept.value}" ${where(conflict.kept.from)} ` +
    `(confirmed ${conflict.kept.confirmedAt.slice(0, 10)}) is newer than "${conflict.retired.value}" ${where(conflict.retired.from)} ` +
    `(confirmed ${conflict.retired.confirmedAt.slice(0, 10)}), which will be retired with a note in its history`;
}

/**
 * The question before an import, the same words in VS Code and in `engram import-memory`: what the file holds, then
 * what importing it would change here.
 */
export function describeImportPlan(plan: ImportPlan): string {
  const holds = `The file holds ${describeMemoryFile(plan.holds)}`;
  if (plan.nothingNew) return `${holds}\nEverything in it is already here: importing it changes nothing.`;
  const adds = [
    plan.turns.add > 0 ? count(plan.turns.add, 'turn') : '',
    plan.facts.add.length > 0 ? count(plan.facts.add.length, 'fact') : '',
    plan.behaviors.add.length > 0 ? count(plan.behaviors.add.length, 'behaviour') : '',
  ].filter(Boolean);
  const lines = [holds, `New here: ${adds.join(', ') || 'nothing but updates'}.`];
  const updates = plan.facts.update.length + plan.behaviors.update.length + plan.conversations.update.length;
  if (updates > 0) lines.push(`${count(updates, 'record')} already here will take the file's later changes.`);
  for (const conflict of plan.conflicts) lines.push(`Confirmed on both machines: ${describeConflict(conflict)}.`);
  if (plan.forget.removesHere > 0) lines.push(`${count(plan.forget.removesHere, 'record')} this machine still holds were forgotten there and will be forgotten here too.`);
  const skipped = plan.turns.forgottenHere + plan.facts.forgottenHere;
  if (skipped > 0) lines.push(`${count(skipped, 'record')} you forgot on this machine stay forgotten.`);
  return lines.join('\n');
}

/** What an import did, in one line. */
export function describeImportResult(result: ImportResult): string {
  if (!result.changed) return `Nothing new: all ${count(result.turnsAlreadyStored, 'turn')} and every fact in the file were already here.`;
  const parts = [
    `${count(result.turnsAdded, 'turn')} from ${count(result.sessions, 'conversation')}`,
    `${count(result.factsAdded, 'fact')} (${formatNumber(result.factsUpdated)} updated)`,
    `${count(result.behaviorsAdded, 'behaviour')} (${formatNumber(result.behaviorsUpdated)} updated)`,
  ];
  const notes = [
    result.turnsAlreadyStored ? `${count(result.turnsAlreadyStored, 'turn')} already remembered` : '',
    result.conflicts.length ? `${count(result.conflicts.length, 'older value')} retired where both machines had confirmed a key` : '',
    result.forgottenHere ? `${count(result.forgottenHere, 'record')} forgotten here as they were there` : '',
    result.turnsForgottenHere ? `${count(result.turnsForgottenHere, 'turn')} you forgot here left out` : '',
  ].filter(Boolean);
  return `Imported ${parts.join(', ')}${notes.length ? `; ${notes.join('; ')}` : ''}.`;
}
