import type { Command } from 'commander';
import { registerDoctor } from './doctor';
import { registerRun } from './run';
import { registerTest } from './test';
import { registerCreate } from './create';
import { registerAdd } from './add';
import { registerBuild } from './build';
import { registerDb } from './db';
import { registerClient } from './client';
import { registerToken } from './token';

/**
 * Every command, in `--help` order; each module adds itself to the program. They declare only the command
 * line: what a command does is imported by its action, so `trellis run` never loads the generators or doctor.
 */
export const commands: Array<(program: Command) => void> = [registerCreate, registerAdd, registerRun, registerBuild, registerClient, registerToken, registerDb, registerDoctor, registerTest];
