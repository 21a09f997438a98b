import type { Command } from 'commander';
import { messages } from '../messages';

/** `trellis build [path]`: compiles the project into `<path>/dist`; exit 1 with `file:line` lines on an error. */
export function registerBuild(program: Command): void {
  program
    .command('build')
    .description(messages.build.description)
    .argument('[path]', 'the project folder', '.')
    .action(async (path: string) => {
      const { buildProject } = await import('../build/build-project');
      await buildProject(path, {
        out: (line) => void process.stdout.write(`${line}\n`),
        err: (line) => void process.stderr.write(`${line}\n`),
      });
    });
}
