/** The prompt functions the wizards use: `@inquirer/prompts` in a terminal, plain functions in tests. */
export interface Prompts {
  input(config: { message: string; default?: string; validate?: (value: string) => boolean | string }): Promise<string>;
  confirm(config: { message: string; default?: boolean }): Promise<boolean>;
  checkbox<T extends string>(config: {
    message: string;
    choices: ReadonlyArray<{ name: string; value: T; checked?: boolean }>;
  }): Promise<T[]>;
}

/** Whether the wizard may ask: both stdin and stdout are terminals. */
export function isInteractive(): boolean {
  return Boolean(process.stdin.isTTY && process.stdout.isTTY);
}

/** The inquirer prompts, loaded on first use (they are ESM and only wizards need them). */
export async function terminalPrompts(): Promise<Prompts> {
  const { input, confirm, checkbox } = await import('@inquirer/prompts');
  return {
    input: (config) => input(config),
    confirm: (config) => confirm(config),
    checkbox: (config) => checkbox(config),
  };
}

/** Whether `error` is the user leaving a prompt (Ctrl+C, Ctrl+D). */
export function isPromptExit(error: unknown): boolean {
  return error instanceof Error && error.name === 'ExitPromptError';
}
