import { HTTPException } from '../http-exception';
import { announcesBody } from '../pipeline/body';
import { fieldsFromPairs, parseUrlencoded } from './fields';
import { Form } from './form';
import type { FormSource } from './form-source';
import { parseMultipart, type PartPolicy } from './multipart';

// One parse per request: `@UploadedFile` params and `request.form()` share it.
const forms = new WeakMap<FormSource, Promise<Form>>();

/**
 * The request's form, parsed on first use: multipart (busboy; large files in temporary files) or urlencoded (qs).
 * A request with no body and no content type is an empty form; any other content type is a 400. `policy`, given
 * by routes whose only form access is `@UploadedFile`, refuses any other file as it starts and drops text fields.
 */
export function readForm(request: FormSource, policy?: PartPolicy): Promise<Form> {
  let form = forms.get(request);
  if (!form) {
    form = parseForm(request, policy);
    forms.set(request, form);
  }
  return form;
}

async function parseForm(request: FormSource, policy: PartPolicy | undefined): Promise<Form> {
  const contentType = request.headers['content-type'];
  const type = contentType?.split(';', 1)[0].trim().toLowerCase();
  if (type === 'multipart/form-data') {
    const parts = await parseMultipart(request, request.uploadLimits, policy);
    return new Form(fieldsFromPairs(parts.fields), parts.files);
  }
  if (type === 'application/x-www-form-urlencoded') {
    return new Form(parseUrlencoded(await request.text()), []);
  }
  if (type === undefined && !announcesBody(request.headers)) return new Form({}, []);
  throw new HTTPException(400, 'Expected a multipart/form-data or application/x-www-form-urlencoded body');
}
