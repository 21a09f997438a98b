import { spawnSync } from 'node:child_process';

/** What `initGit` did. */
export type GitOutcome = 'initialized' | 'inside-repository' | 'git-missing' | 'failed';

/**
 * `git init` in a new project, unless it already is or lies inside a git work tree (a monorepo): nested
 * repositories surprise people, as create-react-app found. Never throws: the project exists either way.
 */
export function initGit(root: string): GitOutcome {
  const probe = spawnSync('git', ['rev-parse', '--is-inside-work-tree'], { cwd: root, encoding: 'utf8' });
  if ((probe.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') return 'git-missing';
  if (probe.status === 0 && probe.stdout.trim() === 'true') return 'inside-repository';
  const init = spawnSync('git', ['init', '--quiet'], { cwd: root, encoding: 'utf8' });
  return init.status === 0 ? 'initialized' : 'failed';
}
