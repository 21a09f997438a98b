export { buildOpenAPI } from './document';
export type { DocumentInfo } from './document';
export type {
  OpenAPIDocument,
  OperationObject,
  ParameterObject,
  RequestBodyObject,
  ResponseObject,
  SchemaObject,
  SecurityRequirementObject,
  SecuritySchemeObject,
  ServerObject,
} from './types';
export type { ClassDocs, DocCommentTable, MethodDocs } from './doc-table';
export type { ExceptionStatus } from './error-statuses';
