import { crc32 } from 'node:zlib';

/**
 * One journal line: the operation as JSON, a tab, its CRC32 in hex, a newline. JSON never holds a raw tab, so
 * the last tab splits the line unambiguously. A flipped byte, a torn write or a line glued to a torn fragment
 * fails the checksum and is skipped and reported, never applied. Lines written before checksums existed
 * (no tab) are still read as they were. CRC32 is Node's own (zlib), native and on every Node this runs on.
 */

export function encodeJournalLine(op: unknown): string {
  const json = JSON.stringify(op);
  return `${json}\t${checksum(json)}\n`;
}

export type DecodedLine = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string };

/** Decodes one line (without its newline). */
export function decodeJournalLine(line: string): DecodedLine {
  const tab = line.lastIndexOf('\t');
  const json = tab < 0 ? line : line.slice(0, tab);
  if (tab >= 0 && line.slice(tab + 1) !== checksum(json)) return { ok: false, reason: 'its checksum does not match (damaged bytes)' };
  try {
    return { ok: true, value: JSON.parse(json) };
  } catch {
    return { ok: false, reason: tab < 0 ? 'it is not valid JSON (a torn or damaged write)' : 'it is not valid JSON' };
  }
}

function checksum(text: string): string {
  return (crc32(text) >>> 0).toString(16).padStart(8, '0');
}
