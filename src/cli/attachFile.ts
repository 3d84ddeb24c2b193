import { readFileSync, statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { attachmentText, fenceLanguageOf, type Attachment } from '../core/context/attachments';
import { UsageError } from './args';

/** Larger files are refused: the prompt could hold only their start, and reading them costs the whole file. */
const attachLimitBytes = 2 * 1024 * 1024;

/**
 * `chat --attach FILE`: the file as `#file` attaches it in VS Code, read whole (the turn engine cuts it to its share
 * of the budget). A file that cannot be read is a usage error, before any message is sent.
 */
export function attachFile(file: string): Attachment {
  const path = resolve(file);
  let size: number;
  try {
    size = statSync(path).size;
  } catch (error) {
    throw new UsageError(`--attach ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const label = relative(process.cwd(), path) || file;
  if (size > attachLimitBytes) throw new UsageError(`--attach ${file}: ${size} bytes, more than the ${attachLimitBytes} an attachment may have`);
  const read = attachmentText(readFileSync(path));
  const common = { label, uri: pathToFileURL(path).href, kind: 'file' as const, language: fenceLanguageOf(path) };
  return 'problem' in read ? { ...common, text: '', problem: read.problem } : { ...common, text: read.text };
}
