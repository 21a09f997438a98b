import { HTTPException, Post, router } from 'trellis';
import { UploadedFile } from 'trellis/param';

/** File uploads: a multipart form with a `file` field. */
export class UploadRouter extends router('/upload') {
  /** Receives one file in the form field `file` and answers its name and size in bytes; 400 without a file. */
  @Post('/file')
  upload(@UploadedFile('file') file: UploadedFile | undefined) {
    if (!file) throw new HTTPException(400, 'Send a multipart form with a file in the field "file"');
    return { filename: file.filename, size: file.size };
  }
}
