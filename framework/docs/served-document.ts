import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import fresh from 'fresh';
import type { OpenAPIDocument } from '../openapi';
import type { Request } from '../request';
import { Response } from '../response';
import { fixedResponse, type FixedBody } from '../responses/fixed';
import { mountBase } from './mount-base';

/** Mount paths whose whole bodies are kept; others are sent as the shared parts around their own `servers` URL. */
const KEPT_BASES = 8;

/**
 * One format of the document, serialized once with a marker for the `servers` URL: `head`, the URL, `tail`.
 * Every mount path (Express's `req.baseUrl`, whatever its casing) only fills in its URL.
 */
interface Template {
  head: Buffer;
  tail: Buffer;
  /** The URL as this format writes it. */
  url(base: string): string;
  type: string;
  /** Hash of `head` and `tail`, the shared part of every ETag. */
  hash: string;
  kept: Map<string, FixedBody>;
  /** The first kept body of each mount path without case. */
  folded: Map<string, FixedBody>;
}

/**
 * The OpenAPI document as `openapi.json` and `openapi.yaml` under any mount path: each format is serialized on
 * its first request only (YAML never, unless asked for), then every request costs the length of its mount
 * path, not of the document. The first few mount paths keep their whole body; past them, another casing of a
 * kept one gets its body, and any other (a pattern mount takes any value) is sent as the shared parts around
 * its own `servers` URL: no spelling of the URL makes the server serialize the document again.
 */
export class ServedDocument {
  #json: Template | undefined;
  #yaml: Template | undefined;

  constructor(private readonly document: () => OpenAPIDocument) {}

  json(request: Request): Response {
    return serve(request, (this.#json ??= jsonTemplate(this.document())));
  }

  yaml(request: Request): Response {
    return serve(request, (this.#yaml ??= yamlTemplate(this.document())));
  }
}

function jsonTemplate(document: OpenAPIDocument): Template {
  const marker = newMarker();
  const text = JSON.stringify(withServer(document, marker));
  return template(text, JSON.stringify(marker), (base) => JSON.stringify(base), 'application/json; charset=utf-8');
}

function yamlTemplate(document: OpenAPIDocument): Template {
  const { stringify } = require('yaml') as typeof import('yaml');
  const marker = newMarker();
  const text = stringify(withServer(document, marker), { aliasDuplicateObjects: false });
  const url = (base: string) => stringify(base, { lineWidth: 0 }).trimEnd();
  return template(text, marker, url, 'application/yaml; charset=utf-8');
}

// Random, so no text of the document can contain it.
function newMarker(): string {
  return `trellis-mount-${randomBytes(12).toString('hex')}`;
}

function withServer(document: OpenAPIDocument, url: string): OpenAPIDocument {
  return { ...document, servers: [{ url }] };
}

function template(text: string, marker: string, url: (base: string) => string, type: string): Template {
  const at = text.indexOf(marker);
  const head = Buffer.from(text.slice(0, at));
  const tail = Buffer.from(text.slice(at + marker.length));
  const hash = createHash('sha1').update(head).update(tail).digest('base64url');
  return { head, tail, url, type, hash, kept: new Map(), folded: new Map() };
}

function serve(request: Request, template: Template): Response {
  const base = mountBase(request);
  // Past the kept spellings, another casing of a kept mount path gets its body: Express matches mount paths
  // without case (with `caseSensitive` no other casing reaches the app), so its `servers` URL routes the same.
  const kept = template.kept.get(base) ?? (template.kept.size < KEPT_BASES ? undefined : template.folded.get(base.toLowerCase()));
  if (kept) return fixedResponse(request, kept);
  const url = Buffer.from(template.url(base || '/'));
  const etag = `"${template.hash}.${createHash('sha1').update(url).digest('base64url')}"`;
  const headers = { etag, 'content-type': template.type };
  const { head, tail } = template;
  if (template.kept.size < KEPT_BASES) {
    const fixed = { body: Buffer.concat([head, url, tail]), headers };
    template.kept.set(base, fixed);
    if (!template.folded.has(base.toLowerCase())) template.folded.set(base.toLowerCase(), fixed);
    return fixedResponse(request, fixed);
  }
  if (fresh(request.headers, headers)) return new Response(undefined, { status: 304, headers });
  const length = String(head.length + url.length + tail.length);
  return new Response(chunks([head, url, tail]), { headers: { ...headers, 'content-length': length } });
}

// Pushed in one go: `Readable.from` iterates asynchronously, which cost a third more memory under load.
function chunks(parts: Buffer[]): Readable {
  return new Readable({
    read() {
      for (const part of parts) this.push(part);
      this.push(null);
    },
  });
}
