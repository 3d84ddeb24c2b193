/**
 * A quotation that runs over several lines ("A friend asked me to proofread this:" then a letter opened by `"` or `«` on
 * its first line and closed on its last): all of it is the quoted writer's, and the line after its close is not.
 */
const quotationOpens = /^\s*(["“«„])/;
const closingOf: Record<string, RegExp> = { '"': /"/g, '“': /”/g, '„': /[“”]/g, '«': /»/g };
const quotationSpan = 60;

export function quotedBlocks(lines: readonly string[]): boolean[] {
  const marked = lines.map(() => false);
  for (let i = 0; i < lines.length; i++) {
    const open = quotationOpens.exec(lines[i]);
    if (!open) continue;
    const closes = (line: string): number => (line.match(closingOf[open[1]]) ?? []).length - (open[1] === '"' ? 0 : (line.match(new RegExp(open[1], 'g')) ?? []).length);
    // Closed on its own line ("\"I'm vegan,\" she said"), the quotation is inline and stripped as such.
    const own = open[1] === '"' ? (lines[i].match(/"/g) ?? []).length % 2 === 0 : closes(lines[i]) >= 0;
    if (own) continue;
    let end = i + 1;
    while (end < lines.length && end - i <= quotationSpan && !(open[1] === '"' ? (lines[end].match(/"/g) ?? []).length % 2 === 1 : closes(lines[end]) > 0)) end++;
    if (end >= lines.length || end - i > quotationSpan) continue;
    for (let j = i; j <= end; j++) marked[j] = true;
    i = end;
  }
  return marked;
}
