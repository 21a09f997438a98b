'use strict';
// Resident memory and CPU time of a server process and its descendants, from /proc (Linux). VmHWM is the
// kernel's record of the process's peak RSS, so no sampling is needed.
const fs = require('node:fs');

function readStatus(pid) {
  try {
    const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
    return { rss: kb('VmRSS'), peak: kb('VmHWM') };
  } catch {
    return { rss: 0, peak: 0 };
  }
}

/** Pids of every live descendant of `pid` (e.g. a CLI that runs the app in a child). */
function descendants(pid) {
  const children = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  const out = [];
  const queue = [pid];
  while (queue.length) {
    for (const child of children.get(queue.shift()) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/** `{ rssMB, peakMB }` summed over `pid` and its descendants. */
function memoryOf(pid) {
  let rss = 0;
  let peak = 0;
  for (const p of [pid, ...descendants(pid)]) {
    const status = readStatus(p);
    rss += status.rss;
    peak += status.peak;
  }
  return { rssMB: rss / 1024, peakMB: peak / 1024 };
}

// USER_HZ: the unit of utime/stime in /proc/<pid>/stat (100 on every Linux this runs on).
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system) used so far by `pid` and its descendants. Time the hypervisor steals is
 * not in it, which makes CPU time per request steadier than req/s on a noisy machine.
 */
function cpuSecondsOf(pid) {
  let ticks = 0;
  for (const p of [pid, ...descendants(pid)]) {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
    } catch {
      // the process ended while we looked
    }
  }
  return ticks / TICKS_PER_SECOND;
}

module.exports = { memoryOf, cpuSecondsOf, descendants };
