import type { BaseRouter } from 'trellis';
import type { Finding, OpenApiResult } from '../report';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * Builds the app's OpenAPI document and validates it against the OpenAPI schema (swagger-parser, which
 * also resolves every `$ref`). Not checked when the app could not be assembled.
 */
export async function checkOpenApi(app: BaseRouter | undefined): Promise<{ result: OpenApiResult; findings: Finding[] }> {
  if (!app) return { result: { checked: false }, findings: [] };
  let document: Record<string, unknown>;
  try {
    document = app.openapi() as unknown as Record<string, unknown>;
  } catch (error) {
    return { result: { checked: true, valid: false }, findings: [invalid(`cannot be built: ${firstLine(error)}`)] };
  }
  const paths = (document.paths ?? {}) as Record<string, Record<string, unknown>>;
  const operations = Object.values(paths).reduce((count, item) => count + METHODS.filter((m) => m in item).length, 0);
  const result: OpenApiResult = { checked: true, valid: true, version: String(document.openapi), operations };
  try {
    const SwaggerParser = require('@apidevtools/swagger-parser') as { validate(api: object): Promise<unknown> };
    await SwaggerParser.validate(structuredClone(document));
    return { result, findings: [] };
  } catch (error) {
    return { result: { ...result, valid: false }, findings: [invalid(`is invalid: ${firstLine(error)}`)] };
  }
}

function invalid(reason: string): Finding {
  return { severity: 'error', code: 'openapi-invalid', message: `The OpenAPI document ${reason}` };
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n').map((line) => line.trim()).filter(Boolean).slice(0, 3).join(' ');
}
