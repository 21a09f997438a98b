import { randomUUID } from 'node:crypto';
import { createWriteStream, rm, type WriteStream } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';

/**
 * Where one uploaded file goes: memory up to `memoryLimit` bytes, then a temporary file (created `0600`, never
 * an existing one) that the rest streams into with backpressure. `destroy()` removes the file, after its writer
 * has closed (so a file still being opened cannot appear after its removal).
 */
export class Spool extends Writable {
  #chunks: Buffer[] = [];
  #size = 0;
  #file: WriteStream | undefined;
  #path: string | undefined;

  constructor(readonly memoryLimit: number) {
    // Not destroyed on finish: the file lives until the response is sent.
    super({ autoDestroy: false });
  }

  get size(): number {
    return this.#size;
  }

  /** The temporary file, once the content outgrew memory. */
  get path(): string | undefined {
    return this.#path;
  }

  /** The content, when it stayed in memory (joined once: the chunks are not kept beside it). */
  get buffer(): Buffer | undefined {
    if (this.#file) return undefined;
    if (this.#chunks.length !== 1) this.#chunks = [Buffer.concat(this.#chunks, this.#size)];
    return this.#chunks[0];
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.#size += chunk.length;
    if (!this.#file && this.#size <= this.memoryLimit) {
      this.#chunks.push(chunk);
      return done();
    }
    if (!this.#file) {
      this.#path = join(tmpdir(), `trellis-upload-${randomUUID()}`);
      this.#file = createWriteStream(this.#path, { flags: 'wx', mode: 0o600 });
      this.#file.on('error', () => {}); // reported by the write callback below
      for (const held of this.#chunks) this.#file.write(held);
      this.#chunks = [];
    }
    this.#file.write(chunk, done);
  }

  override _final(done: (error?: Error | null) => void): void {
    if (!this.#file) return done();
    this.#file.end(done);
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    this.#chunks = [];
    const file = this.#file;
    const path = this.#path;
    if (file && path) {
      const remove = () => rm(path, { force: true }, () => {});
      if (file.closed) remove();
      else {
        file.once('close', remove);
        file.destroy();
      }
    }
    done(error);
  }
}

const spools = new WeakMap<ServerResponse, Set<Spool>>();

/** Destroys `spool` (removing its temporary file) once `res` is closed: sent, failed or aborted. */
export function removeAfterResponse(res: ServerResponse, spool: Spool): void {
  if (res.closed) {
    spool.destroy();
    return;
  }
  let set = spools.get(res);
  if (!set) {
    const created = (set = new Set());
    spools.set(res, created);
    res.once('close', () => {
      for (const each of created) each.destroy();
      created.clear();
    });
  }
  set.add(spool);
}
