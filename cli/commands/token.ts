import type { Command } from 'commander';
import { messages } from '../messages';
import type { TokenFlags } from './token-action';

/** `trellis token [path] [--scope <scope>]... [--sub <name>] [--expires <duration>]`: prints a development JWT. */
export function registerToken(program: Command): void {
  program
    .command('token')
    .description(messages.token.description)
    .argument('[path]', 'the project folder', '.')
    .option('--scope <scope>', 'a scope the token carries (repeat for more): --scope tasks:write', collect)
    .option('--sub <name>', 'the subject (sub claim): who the token is for (default: dev)')
    .option('--expires <duration>', 'lifetime: a number and a unit, s, m, h, d or w (default: 1h)')
    .action(async (path: string, flags: TokenFlags) => {
      const token = await (await import('./token-action')).mintToken(path, flags);
      process.stdout.write(`${token}\n`);
    });
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
