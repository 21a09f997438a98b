import { Post, router } from 'trellis';
import { UploadedFile } from 'trellis/param';

/** File uploads: a multipart form with a `file` field. */
export class UploadRouter extends router('/upload') {
  /**
   * Receives one file in the form field `file` and answers its name and size in bytes. The file is required:
   * without it, trellis answers 400 `{ "error": "Missing file in the multipart field \"file\"" }`.
   */
  @Post('/file')
  upload(@UploadedFile('file', { required: true }) file: UploadedFile) {
    return { filename: file.filename, size: file.size };
  }
}
