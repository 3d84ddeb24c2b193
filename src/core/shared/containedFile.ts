import { constants, closeSync, fstatSync, lstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { lstat, open, realpath } from 'node:fs/promises';
import { posix } from 'node:path';

/**
 * The one check every file Engram reads for the model or for a citation goes through: containment by what a path
 * *is*, not how it is spelled. A path written by a model, a teammate's file or a citation is placed in a workspace
 * folder (`\` counts as a separator, `..` may not climb out, an absolute path must lie inside a folder), then resolved
 * to its canonical place (every symbolic link followed) and accepted only when that place is still inside a folder.
 * Only regular files are read (a FIFO, socket or device is refused before it is opened, so nothing blocks), and never
 * more than a cap of bytes.
 */

/** What sits at a canonical path, as the file system that holds it says (without following a link). */
export interface FileKind {
  readonly type: 'file' | 'folder' | 'special';
  readonly size: number;
}

/** A file system the check can ask: the local disk (below), or the editor's for a remote workspace (src/host). */
export interface ContainedFileSystem {
  /** The canonical path, every link resolved; throws (code ENOENT) when nothing is there. */
  realPath(path: string): Promise<string>;
  kind(realPath: string): Promise<FileKind>;
  /** At most `maxBytes` from the start of a regular file; throws NotRegularFileError when it is not one (any more). */
  readHead(realPath: string, maxBytes: number): Promise<Uint8Array>;
}

export class NotRegularFileError extends Error {}

/** A file read inside the workspace: `path` is as shown (relative to its folder, forward slashes). */
export interface ContainedBytes {
  readonly path: string;
  readonly bytes: Uint8Array;
  /** The file's whole size: more than `bytes.length` when only its head was read. */
  readonly size: number;
}
export type ContainedRead = ContainedBytes | { readonly error: string };

const slashed = (path: string): string => path.replace(/\\/g, '/');
const isAbsolute = (path: string): boolean => path.startsWith('/') || /^[A-Za-z]:\//.test(path);

/** Whether `path` is `root` or below it (both forward-slashed and normalised). */
function isInside(root: string, path: string): boolean {
  const relative = posix.relative(root, path);
  return relative === '' || (!relative.startsWith('../') && relative !== '..' && !isAbsolute(relative));
}

/**
 * Where a written path points by its spelling: the folder it falls in and the absolute path, or why it does not.
 * Relative paths are relative to the first folder.
 */
export function placeInRoots(roots: readonly string[], requested: string): { root: string; absolute: string; shown: string } | { error: string } {
  if (requested.includes('\0')) return { error: 'a path cannot contain a NUL character' };
  const spelled = slashed(requested.trim()).replace(/^\.\//, '');
  const folders = roots.map((root) => posix.normalize(slashed(root)).replace(/(.)\/$/, '$1'));
  if (folders.length === 0) return { error: 'no workspace folder is open, so there is no file to read' };
  const absolute = posix.normalize(isAbsolute(spelled) ? spelled : `${folders[0]}/${spelled}`);
  const index = folders.findIndex((root) => isInside(root, absolute));
  if (index < 0) return { error: `${requested} is outside the workspace; give a path relative to the workspace folder, without ".."` };
  return { root: roots[index], absolute, shown: posix.relative(folders[index], absolute) || '.' };
}

/** Why a canonical path may not be read, or undefined when it may. One judgement for every file system. */
function refusal(realRoots: readonly string[], real: string, kind: FileKind, shown: string): string | undefined {
  if (!realRoots.some((root) => isInside(slashed(root), slashed(real)))) {
    return `${shown} leads outside the workspace (a symbolic link to ${real}); Engram reads only files whose real place is inside a workspace folder`;
  }
  if (kind.type === 'folder') return `${shown} is a folder; call the find tool with a pattern such as ${shown}/**`;
  if (kind.type === 'special') return `${shown} is not a regular file (a FIFO, socket or device); Engram reads only regular files`;
  return undefined;
}

const missing = (shown: string): string => `there is no file ${shown} in the workspace; find it first with a glob pattern`;
const isMissing = (error: unknown): boolean => ['ENOENT', 'ENOTDIR', 'ELOOP'].includes((error as NodeJS.ErrnoException)?.code ?? '');

/** Reads at most `maxBytes` of a file inside one of `roots`, or says why not (for the model, or a log). */
export async function readContained(roots: readonly string[], requested: string, maxBytes: number, fs: ContainedFileSystem = localFileSystem): Promise<ContainedRead> {
  const placed = placeInRoots(roots, requested);
  if ('error' in placed) return placed;
  let real: string;
  try {
    real = await fs.realPath(placed.absolute);
  } catch (error) {
    return { error: isMissing(error) ? missing(placed.shown) : `${placed.shown} cannot be read: ${(error as Error).message}` };
  }
  const realRoots = await Promise.all(roots.map((root) => fs.realPath(root).catch(() => root)));
  const kind = await fs.kind(real);
  const refused = refusal(realRoots, real, kind, placed.shown);
  if (refused) return { error: refused };
  try {
    return { path: placed.shown, bytes: await fs.readHead(real, maxBytes), size: kind.size };
  } catch (error) {
    if (error instanceof NotRegularFileError) return { error: refusal(realRoots, real, { type: 'special', size: 0 }, placed.shown) ?? error.message };
    return { error: isMissing(error) ? missing(placed.shown) : `${placed.shown} cannot be read: ${(error as Error).message}` };
  }
}

/** The same check, synchronously, on the local disk: for citations, checked while a prompt is assembled. */
export function readContainedSync(roots: readonly string[], requested: string, maxBytes: number): ContainedRead {
  const placed = placeInRoots(roots, requested);
  if ('error' in placed) return placed;
  try {
    const real = realpathSync(placed.absolute);
    const realRoots = roots.map((root) => (safely(() => realpathSync(root)) ?? root));
    const refused = refusal(realRoots, real, kindOf(lstatSync(real)), placed.shown);
    if (refused) return { error: refused };
    const fd = openSync(real, readFlags);
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile()) return { error: refusal(realRoots, real, { type: 'special', size: 0 }, placed.shown) ?? 'not a regular file' };
      const bytes = Buffer.alloc(Math.min(stat.size, maxBytes));
      let filled = 0;
      while (filled < bytes.length) {
        const got = readSync(fd, bytes, filled, bytes.length - filled, filled);
        if (got === 0) break;
        filled += got;
      }
      return { path: placed.shown, bytes: bytes.subarray(0, filled), size: stat.size };
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return { error: isMissing(error) ? missing(placed.shown) : `${placed.shown} cannot be read: ${(error as Error).message}` };
  }
}

function safely<T>(run: () => T): T | undefined {
  try {
    return run();
  } catch {
    return undefined;
  }
}

function kindOf(stat: { isFile(): boolean; isDirectory(): boolean; size: number }): FileKind {
  return { type: stat.isFile() ? 'file' : stat.isDirectory() ? 'folder' : 'special', size: stat.size };
}

// Non-blocking, so that a file swapped for a FIFO after the check still cannot hang the read; no following of a
// link swapped in at the last component. (Both flags are 0 where the platform lacks them.)
const readFlags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** The local disk, through node:fs. */
export const localFileSystem: ContainedFileSystem = {
  realPath: (path) => realpath(path),
  kind: async (path) => kindOf(await lstat(path)),
  async readHead(path, maxBytes) {
    const handle = await open(path, readFlags);
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) throw new NotRegularFileError(`${path} is not a regular file`);
      const bytes = Buffer.alloc(Math.min(stat.size, maxBytes));
      let filled = 0;
      while (filled < bytes.length) {
        const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return bytes.subarray(0, filled);
    } finally {
      await handle.close();
    }
  },
};
