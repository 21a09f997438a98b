import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { RESPONSE } from '../symbols';
import type { UploadLimits } from './limits';

/**
 * What reading a form needs of a request: `Request` is one (it passes itself to `readForm`), so the upload
 * parsers depend on this shape, not on `request.ts`, which depends on them.
 */
export interface FormSource {
  readonly raw: IncomingMessage;
  readonly headers: IncomingHttpHeaders;
  readonly uploadLimits: Readonly<UploadLimits>;
  readonly [RESPONSE]: ServerResponse;
  body(): Promise<Buffer>;
  text(): Promise<string>;
}
