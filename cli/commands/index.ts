import type { Command } from 'commander';

/** Every command, in `--help` order; each module adds itself to the program. */
export const commands: Array<(program: Command) => void> = [];
