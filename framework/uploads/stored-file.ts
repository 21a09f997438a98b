import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { FormFile } from './form';

/** A received file, in memory (`buffer`) or in a temporary file (`path`). */
export class StoredFile implements FormFile {
  constructor(
    readonly fieldname: string,
    readonly filename: string,
    readonly mimetype: string,
    readonly size: number,
    readonly buffer: Buffer | undefined,
    readonly path: string | undefined,
  ) {}

  bytes(): Promise<Buffer> {
    return this.buffer ? Promise.resolve(this.buffer) : readFile(this.path!);
  }

  stream(): Readable {
    return this.buffer ? Readable.from([this.buffer]) : createReadStream(this.path!);
  }
}
