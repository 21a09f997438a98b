import { readdirSync, readFileSync } from 'node:fs';

/** `pid` and every process descended from it (Linux /proc); processes that end while being read are skipped. */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name (field 2) may hold spaces and parentheses: the parent pid follows the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const tree: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const next = queue.shift()!;
    tree.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return tree;
}

/** Summed resident memory of `pid` and its descendants, in MiB; 0 once they are all gone. */
export function treeRssMiB(pid: number): number {
  let kib = 0;
  for (const member of processTree(pid)) {
    try {
      const line = readFileSync(`/proc/${member}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
      kib += line ? Number(/(\d+)/.exec(line)![1]) : 0;
    } catch {
      // gone meanwhile
    }
  }
  return kib / 1024;
}

const ESTABLISHED = '01';
const CLOSE_WAIT = '08';

/**
 * Server-side TCP connections of a local `port` that the server still holds open: ESTABLISHED, or CLOSE_WAIT
 * (the client has gone but the server never closed its end). Read from /proc/net/tcp and tcp6.
 */
export function openServerConnections(port: number): number {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  let count = 0;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 4) continue;
      const localPort = fields[1].split(':')[1];
      if (localPort === hexPort && (fields[3] === ESTABLISHED || fields[3] === CLOSE_WAIT)) count++;
    }
  }
  return count;
}

/** Samples `read()` every `everyMs` until `stop()` is called; `peak` is the highest value seen. */
export function sampler(read: () => number, everyMs = 100): { peak(): number; stop(): number } {
  let peak = read();
  const timer = setInterval(() => (peak = Math.max(peak, read())), everyMs).unref();
  return {
    peak: () => peak,
    stop: () => {
      clearInterval(timer);
      return peak;
    },
  };
}
