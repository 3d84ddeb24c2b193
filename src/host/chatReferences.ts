import * as vscode from 'vscode';
import { attachmentText, fenceLanguageOf, type Attachment } from '../core/context/attachments';

/** A referenced file larger than this is not read (the prompt could hold only its start): its row says so. */
const readLimitBytes = 2 * 1024 * 1024;

/** What a request's references and chips become for the engine: attached code, the words typed, the tools required. */
export interface RequestParts {
  /** The prompt without tool chips ("#memory"): a chip is an instruction to Engram, not words for the model. */
  readonly text: string;
  readonly attachments: Attachment[];
  readonly requiredTools: string[];
}

/** The label a chip shows: "notes.txt", "notes.txt:1-2". */
function labelOf(uri: vscode.Uri, range?: { startLine: number; endLine: number }): string {
  const name = vscode.workspace.asRelativePath(uri, false);
  if (!range) return name;
  return range.startLine === range.endLine ? `${name}:${range.startLine}` : `${name}:${range.startLine}-${range.endLine}`;
}

/** The text of a file as the editor holds it: an open document (unsaved edits included), else through VS Code's file system. */
async function readText(uri: vscode.Uri): Promise<{ text: string; language?: string } | { problem: string }> {
  const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
  if (open) return { text: open.getText(), language: open.languageId === 'plaintext' ? undefined : open.languageId };
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.type & vscode.FileType.Directory) return { problem: 'a folder: attach its files, or ask and let the model find them' };
    if (stat.size > readLimitBytes) return { problem: `${stat.size.toLocaleString('en-US')} bytes, more than the ${readLimitBytes.toLocaleString('en-US')} an attachment may have` };
    const read = attachmentText(await vscode.workspace.fs.readFile(uri));
    return 'problem' in read ? read : { text: read.text, language: fenceLanguageOf(uri.path) };
  } catch (error) {
    return { problem: `could not be read: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** VS Code's ranges are 0-based; a range ending at column 0 of a later line does not include that line. */
function lineRange(range: vscode.Range): { startLine: number; endLine: number } {
  const end = range.end.character === 0 && range.end.line > range.start.line ? range.end.line - 1 : range.end.line;
  return { startLine: range.start.line + 1, endLine: end + 1 };
}

async function fromUri(uri: vscode.Uri, label?: string): Promise<Attachment> {
  const read = await readText(uri);
  const common = { label: label ?? labelOf(uri), uri: uri.toString(), kind: 'file' as const };
  return 'problem' in read ? { ...common, text: '', problem: read.problem } : { ...common, text: read.text, language: read.language };
}

async function fromLocation(location: vscode.Location, id: string): Promise<Attachment> {
  const range = lineRange(location.range);
  const kind = id === 'vscode.implicit.selection' || id.includes('selection') ? 'selection' : 'symbol';
  const read = await readText(location.uri);
  const common = { label: labelOf(location.uri, range), uri: location.uri.toString(), range, kind } as const;
  if ('problem' in read) return { ...common, text: '', problem: read.problem };
  const lines = read.text.split(/\r?\n/).slice(range.startLine - 1, range.endLine);
  return { ...common, text: lines.join('\n'), language: read.language };
}

function isBinaryData(value: unknown): value is { mimeType: string } {
  return !!value && typeof value === 'object' && typeof (value as { mimeType?: unknown }).mimeType === 'string' && typeof (value as { data?: unknown }).data === 'function';
}

async function fromReference(reference: vscode.ChatPromptReference): Promise<Attachment> {
  const value = reference.value;
  if (value instanceof vscode.Uri) return fromUri(value);
  if (value instanceof vscode.Location) return fromLocation(value, reference.id);
  if (typeof value === 'string') return { label: reference.modelDescription ?? reference.id, text: value, kind: 'text' };
  if (isBinaryData(value)) {
    const what = value.mimeType.startsWith('image/') ? 'images are' : `${value.mimeType} attachments are`;
    return { label: reference.modelDescription ?? reference.id, text: '', kind: 'unsupported', problem: `${what} not supported by this model` };
  }
  return { label: reference.id, text: '', kind: 'unsupported', problem: `Engram cannot read this kind of reference (${reference.id})` };
}

/**
 * `#file:path` typed rather than picked from the completion list stays plain text in VS Code 1.139 (no reference):
 * the path is looked up in the workspace, so the question is answered with the file all the same.
 */
async function typedFiles(prompt: string, covered: readonly [number, number][]): Promise<Attachment[]> {
  const found: Attachment[] = [];
  for (const match of prompt.matchAll(/#file:([^\s`'"]+)/g)) {
    const at = match.index ?? 0;
    if (covered.some(([start, end]) => at >= start && at < end)) continue;
    const path = match[1].replace(/[.,;:!?)]+$/, '');
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const direct = folder ? vscode.Uri.joinPath(folder, path) : undefined;
    const exists = direct && (await vscode.workspace.fs.stat(direct).then(() => true, () => false));
    const uri = exists ? direct : (await vscode.workspace.findFiles(`**/${path}`, '**/node_modules/**', 2))[0];
    found.push(uri ? await fromUri(uri, `#file:${path}`) : { label: `#file:${path}`, text: '', kind: 'file', problem: 'no such file in the workspace' });
  }
  return found;
}

/** Removes the text of the chips in `ranges` from the prompt, and the double spaces they leave. */
function withoutRanges(prompt: string, ranges: readonly [number, number][]): string {
  let text = prompt;
  for (const [start, end] of [...ranges].sort((a, b) => b[0] - a[0])) text = text.slice(0, start) + text.slice(end);
  return text.replace(/[ \t]{2,}/g, ' ').trim();
}

/** The request as the engine takes it: every reference read, each once, chips turned into required tools. */
export async function readRequestParts(request: vscode.ChatRequest): Promise<RequestParts> {
  const seen = new Set<string>();
  const attachments: Attachment[] = [];
  for (const reference of request.references) {
    const attachment = await fromReference(reference);
    // The implicit selection and a chip for the same lines arrive as two references: one is enough.
    const key = `${attachment.uri ?? attachment.label}|${attachment.range?.startLine ?? ''}-${attachment.range?.endLine ?? ''}|${attachment.text.length}`;
    if (seen.has(key)) continue;
    seen.add(key);
    attachments.push(attachment);
  }
  const referenced = request.references.flatMap((reference) => (reference.range ? [reference.range] : []));
  attachments.push(...(await typedFiles(request.prompt, referenced)));
  const chips = request.toolReferences.flatMap((tool) => (tool.range ? [tool.range] : []));
  // A message that is only a chip ("#memory") keeps its words: an empty message would not reach the model.
  return { text: withoutRanges(request.prompt, chips) || request.prompt, attachments, requiredTools: [...new Set(request.toolReferences.map((tool) => tool.name))] };
}
