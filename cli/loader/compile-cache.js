'use strict';
// Compiled TypeScript on disk, so a start only runs swc for files that changed since the last one.
//
// An entry is named by the hash of everything the output depends on (source, file name, swc version,
// options) and starts with a header holding that key and a hash of the code after it: an entry that was cut
// short, altered, or written for other input is ignored and rewritten. Entries are written to a temporary
// name, then renamed (processes compiling the same file at once each leave a whole entry). The folder must
// be this user's and not writable by others, else nothing is read from it (a planted entry would run).
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const HEADER = '//trellis-compile-cache ';
/** Entries kept by default; past this, the oldest half is removed when a process first writes. */
const MAX_ENTRIES = 4000;

const sha256 = (text) => crypto.createHash('sha256').update(text).digest('hex');

/**
 * Where entries go: `$TRELLIS_CACHE_DIR` when set, else `node_modules/.cache/trellis` of the package, else
 * (a read-only or shared install) a folder of this user's in the system's temporary folder.
 * @param {string} packageRoot
 * @returns {string[]}
 */
function cacheDirs(packageRoot) {
  if (process.env.TRELLIS_CACHE_DIR) return [path.resolve(process.env.TRELLIS_CACHE_DIR)];
  const user = typeof process.getuid === 'function' ? process.getuid() : os.userInfo().username;
  return [path.join(packageRoot, 'node_modules', '.cache', 'trellis'), path.join(os.tmpdir(), `trellis-cache-${user}`)];
}

/** Creates `dir` (private) if needed; true when it is a real folder of this user's that only they can write. */
function usable(dir) {
  try {
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') return false;
  }
  try {
    const stat = fs.lstatSync(dir); // a symbolic link (someone else's folder in /tmp) is refused
    if (!stat.isDirectory()) return false;
    if (process.platform !== 'win32' && (stat.uid !== process.getuid?.() || (stat.mode & 0o022) !== 0)) return false;
    fs.accessSync(dir, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

class CompileCache {
  /**
   * @param {string[]} candidates folders to try, in order; the first usable one is used
   * @param {{ maxEntries?: number }} [options]
   */
  constructor(candidates, { maxEntries = MAX_ENTRIES } = {}) {
    this.candidates = candidates;
    this.maxEntries = maxEntries;
    /** @type {string | null | undefined} undefined until chosen, null when none is usable */
    this.chosen = undefined;
    this.pruned = false;
  }

  /** The folder in use, chosen on first use; null when no candidate is usable (then nothing is cached). */
  get dir() {
    if (this.chosen === undefined) this.chosen = this.candidates.find(usable) ?? null;
    return this.chosen;
  }

  /** The key of an output: a hash of every input it depends on. */
  key(...inputs) {
    return sha256(inputs.join('\0'));
  }

  /** The cached output for `key`, or undefined when there is none or it does not check out. */
  get(key) {
    if (!this.dir) return undefined;
    let text;
    try {
      text = fs.readFileSync(path.join(this.dir, `${key}.js`), 'utf8');
    } catch {
      return undefined;
    }
    const end = text.indexOf('\n');
    const code = text.slice(end + 1);
    return end > 0 && text.slice(0, end) === `${HEADER}${key} ${sha256(code)}` ? code : undefined;
  }

  /** Stores `code` under `key`; a failure (disk full, folder removed) only means no entry. */
  set(key, code) {
    const dir = this.dir;
    if (!dir) return;
    const file = path.join(dir, `${key}.js`);
    const temporary = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    try {
      if (!this.pruned) this.prune(dir);
      fs.writeFileSync(temporary, `${HEADER}${key} ${sha256(code)}\n${code}`, { mode: 0o600 });
      fs.renameSync(temporary, file);
    } catch {
      fs.rmSync(temporary, { force: true });
    }
  }

  /** Once per process, on its first write: the oldest half goes when there are too many entries. */
  prune(dir) {
    this.pruned = true;
    const names = fs.readdirSync(dir);
    if (names.length <= this.maxEntries) return;
    const entries = [];
    for (const name of names) {
      try {
        entries.push({ name, time: fs.statSync(path.join(dir, name)).mtimeMs });
      } catch {
        // removed by another process meanwhile
      }
    }
    entries.sort((a, b) => a.time - b.time);
    for (const { name } of entries.slice(0, entries.length - Math.floor(this.maxEntries / 2))) fs.rmSync(path.join(dir, name), { force: true });
  }
}

module.exports = { CompileCache, cacheDirs, MAX_ENTRIES };
