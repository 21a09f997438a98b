/** A JSON Schema (draft 2020-12, as OpenAPI 3.1 uses it) or a `$ref` to one in `components.schemas`. */
export type SchemaObject = { $ref: string } | { [keyword: string]: unknown };

export interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  schema: SchemaObject;
  /** `true` on an array read from repeated keys (`?tag=a&tag=b`). */
  explode?: boolean;
}

export interface MediaTypeObject {
  schema: SchemaObject;
}

export interface RequestBodyObject {
  required: boolean;
  description?: string;
  content: Record<string, MediaTypeObject>;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, { description?: string; schema: SchemaObject }>;
  content?: Record<string, MediaTypeObject>;
}

export interface OperationObject {
  operationId: string;
  summary?: string;
  description?: string;
  tags: string[];
  deprecated?: boolean;
  parameters?: ParameterObject[];
  requestBody?: RequestBodyObject;
  responses: Record<string, ResponseObject>;
  security?: SecurityRequirementObject[];
}

/** `{ bearerAuth: ["tasks:write"] }`: the schemes a request must satisfy together, each with the scopes checked (`[]` for none). */
export type SecurityRequirementObject = Record<string, string[]>;

/** An OpenAPI Security Scheme Object (`{ type: 'http', scheme: 'bearer' }`, `{ type: 'apiKey', in, name }`). */
export type SecuritySchemeObject = { type: string; [field: string]: unknown };

export interface ServerObject {
  url: string;
  description?: string;
}

/**
 * The OpenAPI 3.1 document of an app, as `app.openapi()` returns it and `/docs/openapi.json` serves it.
 *
 * @example
 * ```ts
 * const document: OpenAPIDocument = app.openapi();
 * console.log(Object.keys(document.paths)); // ['/tasks', '/tasks/{task_id}']
 * ```
 */
export interface OpenAPIDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description?: string };
  servers: ServerObject[];
  security?: SecurityRequirementObject[];
  tags?: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, SchemaObject>; securitySchemes?: Record<string, SecuritySchemeObject> };
}
