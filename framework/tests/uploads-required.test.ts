import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BaseRouter, Post, router } from '../index';
import { UploadedFile } from '../param';
import { TestClient } from '../testing';
import { file, multipart } from './fixtures/uploads/multipart';

class RequiredRouter extends router('/upload') {
  @Post('/required')
  required(@UploadedFile('file', { required: true }) upload: UploadedFile) {
    return { filename: upload.filename, size: upload.size };
  }

  @Post('/optional')
  optional(@UploadedFile('file') upload: UploadedFile | undefined) {
    return { sent: upload !== undefined };
  }
}

function client(): TestClient {
  return new TestClient(new BaseRouter().includeRouter(RequiredRouter));
}

describe('@UploadedFile(name, { required: true })', () => {
  it('answers 400 {error} naming the field when the file is absent, before the handler runs', async () => {
    const { body, headers } = multipart([{ name: 'note', value: 'hi' }]);
    for (const res of [await client().post('/upload/required', { body, headers }), await client().post('/upload/required')]) {
      assert.equal(res.status, 400);
      assert.equal(typeof res.json().error, 'string');
    }
    const res = await client().post('/upload/required', { body, headers });
    assert.deepEqual(res.json(), { error: 'Missing file in the multipart field "file"' });
  });

  it('gives the handler the file when it is sent', async () => {
    const { body, headers } = multipart([file('file', 'notes.txt', 'hello')]);
    const res = await client().post('/upload/required', { body, headers });
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), { filename: 'notes.txt', size: 5 });
  });

  it('stays optional without the option: the handler gets undefined', async () => {
    const { body, headers } = multipart([{ name: 'note', value: 'hi' }]);
    const res = await client().post('/upload/optional', { body, headers });
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), { sent: false });
  });

  it('documents the required file and the 400', () => {
    const doc = new BaseRouter().includeRouter(RequiredRouter).openapi() as any;
    const required = doc.paths['/upload/required'].post;
    assert.equal(required.requestBody.required, true);
    assert.deepEqual(required.requestBody.content['multipart/form-data'].schema.required, ['file']);
    assert.match(required.responses['400'].description, /missing file \("file"\)/);
    const optional = doc.paths['/upload/optional'].post;
    assert.equal(optional.requestBody.required, false);
    assert.equal(optional.requestBody.content['multipart/form-data'].schema.required, undefined);
  });
});
