import { fileURLToPath } from 'node:url';
import type { SourceLocation } from '../core/types';

// `    at f (/app/routers/tasks.ts:12:5)`, `    at /app/main.js:3:1`, `    at file:///app/main.mjs:3:1`
const FRAME = /^\s+at (?:.*? \()?((?:file:\/\/)?[^()\s]+?):(\d+):\d+\)?$/;

/** The file and line one line of a stack points at; undefined for a frame without a file (`<anonymous>`). */
export function frameLocation(frame: string): SourceLocation | undefined {
  const match = FRAME.exec(frame);
  if (!match) return undefined;
  const file = match[1].startsWith('file://') ? fileURLToPath(match[1]) : match[1];
  return { file, line: Number(match[2]) };
}

/**
 * Where each frame of a stack is, innermost first (with source maps on, TypeScript files and lines):
 * where an error happened, as opposed to where something is declared.
 *
 * @example
 * ```ts
 * stackLocations(error.stack ?? '')[0]; // { file: '/home/me/demo/routers/tasks.ts', line: 3 }
 * ```
 */
export function stackLocations(stack: string): SourceLocation[] {
  return stack
    .split('\n')
    .map(frameLocation)
    .filter((location): location is SourceLocation => location !== undefined);
}
