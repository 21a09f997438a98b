import type { Command } from 'commander';
import { messages } from '../messages';
import { requireClientGenerator, requireCompiler } from './compiler';

/** `trellis client [path] [--out dir] [--dry-run]`: a typed client of the project's API. */
export function registerClient(program: Command): void {
  program
    .command('client')
    .description(messages.client.description)
    .argument('[path]', 'the project folder', '.')
    .option('--out <dir>', 'the folder to write schema.d.ts and index.ts into (default: <path>/client)')
    .option('--dry-run', 'list the files, write nothing')
    .action(async (path: string, flags: { out?: string; dryRun?: boolean }) => {
      requireClientGenerator();
      requireCompiler(); // the project's routers are TypeScript
      const { generateClient } = await import('../client/generate-client');
      await generateClient(path, flags, (line) => void process.stdout.write(`${line}\n`));
    });
}
