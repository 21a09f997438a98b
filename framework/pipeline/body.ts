import type { IncomingMessage } from 'node:http';
import getRawBody from 'raw-body';
import secureJson from 'secure-json-parse';
import { HTTPException } from '../http-exception';

/** Reads the whole body, enforcing `limit` bytes (413) and a matching Content-Length (400). */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  try {
    return await getRawBody(req, { limit, length: req.headers['content-length'] });
  } catch (error) {
    const e = error as { type?: string; status?: number };
    if (e.type === 'entity.too.large') throw new HTTPException(413, `Request body is larger than ${limit} bytes`);
    if (e.type === 'request.aborted') throw new HTTPException(400, 'Request aborted');
    throw new HTTPException(400, 'Request body could not be read');
  }
}

export function parseJson(bytes: Buffer): unknown {
  if (bytes.length === 0) return undefined;
  try {
    return secureJson.parse(bytes, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    if (error instanceof SyntaxError && /prototype/i.test(error.message)) {
      throw new HTTPException(400, 'JSON body may not contain "__proto__" or "constructor.prototype" keys');
    }
    throw new HTTPException(400, 'Malformed JSON body');
  }
}

export function isJsonContentType(contentType: string | undefined): boolean {
  if (!contentType) return true;
  const type = contentType.split(';', 1)[0].trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
}
