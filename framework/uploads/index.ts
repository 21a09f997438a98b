export { Form } from './form';
export type { FormFile, FormValue } from './form';
export { DEFAULT_UPLOAD_LIMITS, resolveUploadLimits } from './limits';
export type { UploadLimits } from './limits';
export { fileExtractor } from './file-param';
