import type { Terminal } from '../../cli/commands/terminal';
import type { Prompts } from '../../cli/prompts/prompts';

/** One scripted prompt answer: the answer, or a function of the prompt's config (to call `validate`). */
export type Answer = unknown | ((config: any) => unknown);

/**
 * Prompts that answer from a script, in order, and record each question (`kind: message`). A question
 * beyond the script fails the test.
 */
export function scriptedPrompts(answers: Answer[]): Prompts & { asked: string[]; configs: any[] } {
  const queue = [...answers];
  const asked: string[] = [];
  const configs: any[] = [];
  const answer = (kind: string) => async (config: any) => {
    asked.push(`${kind}: ${config.message}`);
    configs.push(config);
    if (queue.length === 0) throw new Error(`unexpected prompt: ${config.message}`);
    const next = queue.shift();
    return typeof next === 'function' ? (next as (config: any) => unknown)(config) : next;
  };
  return { input: answer('input'), confirm: answer('confirm'), checkbox: answer('checkbox'), asked, configs } as never;
}

/** A terminal for in-process command tests: fixed cwd, scripted prompts, captured output and spinner texts. */
export function fakeTerminal(
  cwd: string,
  prompts: Prompts,
  interactive = true,
): Terminal & { lines: string[]; warnings: string[]; spinners: string[] } {
  const lines: string[] = [];
  const warnings: string[] = [];
  const spinners: string[] = [];
  return {
    cwd: () => cwd,
    interactive: () => interactive,
    prompts: async () => prompts,
    out: (line) => void lines.push(line),
    warn: (line) => void warnings.push(line),
    spinner: async (text) => {
      spinners.push(text);
      return { stop() {} };
    },
    lines,
    warnings,
    spinners,
  };
}

/** An error like the one @inquirer/prompts throws on Ctrl+C. */
export function exitPromptError(): Error {
  const error = new Error('User force closed the prompt with SIGINT');
  error.name = 'ExitPromptError';
  return error;
}
