import type { Command } from 'commander';
import { CliError } from '../cli-error';
import { messages } from '../messages';
import { requireCompiler } from './compiler';

/** `trellis doctor <path> [--json]`: exit 1 when it finds an error. */
export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description(messages.doctor.description)
    .argument('[path]', 'the project folder', '.')
    .option('--json', 'print the report as JSON')
    .action(async (path: string, flags: { json?: boolean }) => {
      requireCompiler();
      const [{ analyse }, { formatText }] = await Promise.all([import('../doctor/analyse'), import('../doctor/format-text')]);
      const report = await analyse(path);
      process.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatText(report));
      if (report.errors.length) throw new CliError(messages.doctor.failed(report.errors.length));
    });
}
