import { readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';

/** A running {@link watchTree}. */
export interface TreeWatcher {
  close(): void;
}

/**
 * Watches the folder `root` and every folder under it that `ignored` does not exclude, calling `changed` with
 * the path (relative to `root`, with `/`) of each file or folder created, written, deleted or renamed.
 *
 * One `fs.watch` per folder, never per file: a folder's watch sees its entries come and go whatever the
 * editor does, so a rename-style save (`sed -i`, an editor's safe-write: a temporary file renamed over the
 * original) is one more change, where a watch on the file itself would stay on the replaced file and miss
 * every later edit (what node 20's recursive `fs.watch` does on Linux, watching each file). A folder created
 * (or moved in) is watched from then on, and reported; one deleted or moved away is no longer watched.
 *
 * @example
 * ```ts
 * const watcher = watchTree('/home/me/demo', (path) => path.startsWith('node_modules'), (path) => console.log(path));
 * watcher.close();
 * ```
 */
export function watchTree(root: string, ignored: (path: string) => boolean, changed: (path: string) => void): TreeWatcher {
  const watchers = new Map<string, FSWatcher>();
  let closed = false;

  const isFolder = (path: string) => {
    try {
      return statSync(join(root, path)).isDirectory();
    } catch {
      return false;
    }
  };

  const unwatch = (folder: string) => {
    for (const [path, watcher] of watchers) {
      if (path === folder || path.startsWith(`${folder}/`)) {
        watcher.close();
        watchers.delete(path);
      }
    }
  };

  const add = (folder: string) => {
    if (closed || watchers.has(folder)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(join(root, folder), (event, name) => seen(folder, event, name === null ? undefined : String(name)));
    } catch {
      return; // gone already (or unreadable): its parent's watch reports it if it comes back
    }
    // A folder deleted under its watch: its parent's watch tells, and stops watching it.
    watcher.on('error', () => unwatch(folder));
    watchers.set(folder, watcher);
    let entries: string[] = [];
    try {
      entries = readdirSync(join(root, folder), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    } catch {
      // removed meanwhile
    }
    for (const name of entries) {
      const path = folder ? `${folder}/${name}` : name;
      if (!ignored(path)) add(path);
    }
  };

  const seen = (folder: string, event: string, name: string | undefined) => {
    if (closed) return;
    // The folder itself went away (its own watch says so too): its parent's watch reports it.
    if (folder && !isFolder(folder)) return unwatch(folder);
    // Some platforms may not name the entry: the folder changed.
    const path = name === undefined ? folder : [folder, name.split('\\').join('/')].filter(Boolean).join('/');
    if (ignored(path)) return;
    if (name !== undefined && event === 'rename') {
      // A folder created, deleted, or renamed over: watched afresh from what is there now.
      unwatch(path);
      if (isFolder(path)) add(path);
    }
    changed(path);
  };

  add('');
  return {
    close() {
      closed = true;
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
