import { HTTPException } from '../http-exception';
import { TrellisError } from '../framework-error';
import type { ParamDefinition } from '../metadata';
import type { Request } from '../request';
import type { FormFile } from './form';
import type { PartPolicy } from './multipart';
import { formOf } from '../pipeline/body-reader';

/**
 * Builds the reader of one `@UploadedFile(name)` parameter, once per route: the file, or `undefined` when
 * none was sent (the handler decides), or a 400 naming the field when the parameter is `required`. More than one file in the field is a 400, and so is a file in a
 * field no `@UploadedFile` names, unless the handler also takes `@Req()` (it may read more via `form()`).
 * Without `@Req()`, such files are refused as they start and text fields are dropped unread: nothing could use them.
 */
export function fileExtractor(label: string, param: ParamDefinition, all: readonly ParamDefinition[]) {
  if (all.some((p) => p.kind === 'body')) throw new TrellisError('TRELLIS_ERR_BODY_WITH_FILE', label);
  const name = param.name!;
  const strict = !all.some((p) => p.kind === 'request');
  const names = all.filter((p) => p.kind === 'file').map((p) => p.name!);
  const policy: PartPolicy | undefined = strict ? { files: new Map(names.map((n) => [n, 1])), keepFields: false } : undefined;

  return async (request: Request): Promise<FormFile | undefined> => {
    const form = await formOf(request, policy);
    // The form may have been read earlier without the policy (middleware calling request.form()).
    if (policy) {
      const stray = form.files.find((file) => !policy.files!.has(file.fieldname));
      if (stray) throw new HTTPException(400, `Unexpected file field ${JSON.stringify(stray.fieldname)}`);
    }
    const files = form.filesOf(name);
    if (files.length > 1) throw new HTTPException(400, `Field ${JSON.stringify(name)} takes one file, got ${files.length}`);
    if (!files.length && param.required) throw new HTTPException(400, `Missing file in the multipart field ${JSON.stringify(name)}`);
    return files[0];
  };
}
