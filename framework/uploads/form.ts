import type { Readable } from 'node:stream';

/**
 * An uploaded file. Up to `uploads.memorySize` (1 MiB by default) it is in memory (`buffer`); a larger one is in a
 * temporary file (`path`, `buffer` undefined). `bytes()` and `stream()` read either. The temporary file is removed
 * once the response is sent (also after an error or an aborted request): rename or copy it to keep it.
 *
 * @example
 * ```ts
 * @Post('/file') async upload(@UploadedFile('file') file: UploadedFile | undefined) {
 *   if (!file) return [{ error: 'No file uploaded' }, 400];
 *   await pipeline(file.stream(), createWriteStream(`uploads/${randomUUID()}`));
 *   return { filename: file.filename, size: file.size };
 * }
 * ```
 */
export interface FormFile {
  /** The form field the file came in. */
  readonly fieldname: string;
  /** The client's file name without any directory part; `''` when the client sent none. */
  readonly filename: string;
  /** The part's `Content-Type` as the client declared it (not sniffed). */
  readonly mimetype: string;
  /** Size in bytes. */
  readonly size: number;
  /** The content when the file is kept in memory (at most `uploads.memorySize` bytes), else `undefined`. */
  readonly buffer: Buffer | undefined;
  /** The temporary file holding a larger file, else `undefined`; removed once the response is sent. */
  readonly path: string | undefined;
  /** The content, from memory or read from the temporary file (the whole file in memory: prefer `stream()`). */
  bytes(): Promise<Buffer>;
  /** The content as a stream, from memory or the temporary file. */
  stream(): Readable;
}

/** A form field value: a string, or arrays and objects built from `a[]=1` / `a[b]=1` names. */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };

/**
 * The fields and files of a multipart or urlencoded body, from `await request.form()`.
 * Repeated names become arrays and `a[b]` names nest, as with Express's `extended` parser.
 *
 * @example
 * ```ts
 * @Post('/profile') async save(@Req() request: Request) {
 *   const form = await request.form();
 *   const avatar = form.file('avatar');
 *   return { name: form.fields.name, avatar: avatar?.filename, photos: form.filesOf('photos').length };
 * }
 * ```
 */
export class Form {
  constructor(
    readonly fields: Record<string, FormValue | undefined>,
    /** Every file, in the order received. */
    readonly files: readonly FormFile[],
  ) {}

  /** The first file sent in field `name`, if any. */
  file(name: string): FormFile | undefined {
    return this.files.find((file) => file.fieldname === name);
  }

  /** Every file sent in field `name`. */
  filesOf(name: string): FormFile[] {
    return this.files.filter((file) => file.fieldname === name);
  }
}
