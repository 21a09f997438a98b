import { isInteractive, terminalPrompts, type Prompts } from '../prompts/prompts';

/** What generator commands need from the outside world; tests pass their own. */
export interface Terminal {
  cwd(): string;
  /** Whether prompts and spinners may be shown (stdin and stdout are terminals). */
  interactive(): boolean;
  prompts(): Promise<Prompts>;
  /** A line on stdout. */
  out(line: string): void;
  /** A line on stderr. */
  warn(line: string): void;
  /**
   * Shows a spinner until `stop()`, on a terminal only; elsewhere nothing, or `text` as a line on stdout with
   * `plain` (for steps long enough that a log should say what is going on).
   */
  spinner(text: string, options?: { plain?: boolean }): Promise<{ stop(): void }>;
}

/** The real terminal: process streams, @inquirer/prompts, an ora spinner on stderr. */
export const processTerminal: Terminal = {
  cwd: () => process.cwd(),
  interactive: isInteractive,
  prompts: terminalPrompts,
  out: (line) => void quietOnClosedPipe(process.stdout).write(`${line}\n`),
  warn: (line) => void process.stderr.write(`${line}\n`),
  async spinner(text, options) {
    // ora loops forever clearing lines on a terminal that reports 0 columns (some pseudo-terminals).
    if (!isInteractive() || !process.stderr.isTTY || !(process.stderr.columns > 0)) {
      if (options?.plain) processTerminal.out(text);
      return { stop() {} };
    }
    const { default: ora } = await import('ora');
    const spinner = ora({ text, stream: process.stderr }).start();
    return { stop: () => void spinner.stop() };
  },
};

const guarded = new WeakSet<NodeJS.WriteStream>();

// `trellis create demo | head` closes stdout early: the rest of the listing is dropped, not a crash.
function quietOnClosedPipe(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  if (!guarded.has(stream)) {
    guarded.add(stream);
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }
  return stream;
}
