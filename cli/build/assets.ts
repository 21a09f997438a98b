import { cpSync, existsSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { CONFIG_FILE, projectPath, type Project } from 'trellis/internal';
import { CliError } from '../cli-error';
import { messages } from '../messages';

/**
 * Copies what the app serves besides its code into the build, at the same paths, so the build folder works
 * on its own wherever it is moved (a Docker `COPY dist`): `config.yaml` as written (`${VAR}`s are read at
 * start), the static and templates folders config.yaml names, and `favicon.ico`. A folder given by an
 * absolute path is left where it is (the built app reads it there); one outside the project is refused,
 * since the copy would have no place in the build. Returns what was copied, relative to the project.
 */
export function copyAssets(project: Project, outDir: string): string[] {
  const { settings } = project.config;
  const copied: string[] = [];
  const copy = (path: string) => {
    if (!existsSync(projectPath(project, path))) return;
    cpSync(projectPath(project, path), join(outDir, path), { recursive: true });
    copied.push(path);
  };
  copy(CONFIG_FILE);
  for (const [key, dir] of [['static.dir', settings.static.dir], ['templates.dir', settings.templates.dir]] as const) {
    if (isAbsolute(dir)) continue;
    const inside = relative(project.dir, projectPath(project, dir));
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) throw new CliError(messages.build.assetOutside(key, dir));
    copy(inside);
  }
  copy('favicon.ico');
  return copied;
}
