/**
 * An uploaded file, held in memory (nothing is written to disk).
 *
 * @example
 * ```ts
 * @Post('/file') upload(@UploadedFile('file') file: UploadedFile | undefined) {
 *   if (!file) return [{ error: 'No file uploaded' }, 400];
 *   return { filename: file.filename, size: file.size };
 * }
 * ```
 */
export interface FormFile {
  /** The form field the file came in. */
  fieldname: string;
  /** The client's file name without any directory part; `''` when the client sent none. */
  filename: string;
  /** The part's `Content-Type` as the client declared it (not sniffed). */
  mimetype: string;
  /** Length of `buffer` in bytes. */
  size: number;
  buffer: Buffer;
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
