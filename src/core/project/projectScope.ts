import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import type { StatementScope } from '../memory/statementRepository';

/**
 * Which project a workspace folder belongs to. A repository is one project wherever it is checked out: the id is
 * its normalized remote URL (a clone elsewhere, a worktree, an https or an ssh remote all agree), else its root
 * commit, else the folder itself. Another repository never shares the id, so its facts never meet this one's.
 */
export interface ProjectScope {
  /** `project:<id>`: what the statements of this project carry. */
  readonly scope: StatementScope;
  /** A short name for people: the repository's name, or the folder's. */
  readonly label: string;
  /** The workspace folder: citations are read relative to it. */
  readonly root: string;
  readonly identifiedBy: 'remote' | 'root commit' | 'folder';
}

/** github.com/acme/app for `https://user:token@GitHub.com/acme/app.git`, `git@github.com:acme/app.git`, `ssh://git@github.com/acme/app`. */
export function normalizeRemote(url: string): string | undefined {
  let rest = url.trim();
  if (!rest) return undefined;
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/)(.+)$/.exec(rest);
  if (scp && !/^[a-z][a-z0-9+.-]*:\/\//i.test(rest)) rest = `${scp[1]}/${scp[2]}`;
  else rest = rest.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  // Credentials never become part of an id (nor reach the store).
  rest = rest.replace(/^[^@/]*@/, '');
  const slash = rest.indexOf('/');
  const host = (slash < 0 ? rest : rest.slice(0, slash)).toLowerCase().replace(/:(?:22|443|80)$/, '');
  const path = slash < 0 ? '' : rest.slice(slash + 1);
  const cleaned = path.replace(/\/+$/, '').replace(/\.git$/i, '').replace(/\/+$/, '');
  return host ? (cleaned ? `${host}/${cleaned}` : host) : undefined;
}

/** The repository's git folder for a working folder: `.git`, or where a worktree's `.git` file points (its common dir). */
export function gitDirOf(folder: string): string | undefined {
  for (let dir = resolve(folder); ; dir = dirname(dir)) {
    const dotGit = join(dir, '.git');
    if (existsSync(dotGit)) {
      if (statSync(dotGit).isDirectory()) return dotGit;
      const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
      if (!pointer) return undefined;
      const gitDir = isAbsolute(pointer) ? pointer : resolve(dir, pointer);
      const common = join(gitDir, 'commondir');
      return existsSync(common) ? resolve(gitDir, readFileSync(common, 'utf8').trim()) : gitDir;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** The remote URLs in a git config, `origin` first. */
export function remotesIn(config: string): string[] {
  const remotes: { name: string; url: string }[] = [];
  let current: string | undefined;
  for (const line of config.split(/\r?\n/)) {
    const section = /^\s*\[\s*remote\s+"([^"]+)"\s*\]/.exec(line);
    if (section) current = section[1];
    else if (/^\s*\[/.test(line)) current = undefined;
    const url = current && /^\s*url\s*=\s*(.+?)\s*$/.exec(line);
    if (current && url) remotes.push({ name: current, url: url[1] });
  }
  return remotes.sort((a, b) => Number(b.name === 'origin') - Number(a.name === 'origin')).map((remote) => remote.url);
}

function rootCommit(folder: string): string | undefined {
  try {
    const out = execFileSync('git', ['rev-list', '--max-parents=0', 'HEAD'], { cwd: folder, encoding: 'utf8', timeout: 3000, stdio: ['ignore', 'pipe', 'ignore'] });
    return out.split(/\s+/).filter((line) => /^[0-9a-f]{40,64}$/.test(line)).sort()[0];
  } catch {
    return undefined;
  }
}

/** The project scope of a workspace folder (one per folder of a multi-root workspace). */
export function projectScopeOf(folder: string): ProjectScope {
  const root = existsSync(folder) ? realpathSync(folder) : resolve(folder);
  const gitDir = gitDirOf(root);
  const configPath = gitDir && join(gitDir, 'config');
  const remote = configPath && existsSync(configPath) ? remotesIn(readFileSync(configPath, 'utf8')).map(normalizeRemote).find(Boolean) : undefined;
  if (remote) return { scope: `project:${remote}`, label: remote.split('/').pop() ?? remote, root, identifiedBy: 'remote' };
  const commit = gitDir ? rootCommit(root) : undefined;
  if (commit) return { scope: `project:git-root:${commit}`, label: basename(gitDir === join(root, '.git') ? root : dirname(gitDir!)), root, identifiedBy: 'root commit' };
  return { scope: `project:folder:${root}`, label: basename(root), root, identifiedBy: 'folder' };
}
