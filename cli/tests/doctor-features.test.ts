import assert from 'node:assert/strict';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { analyse } from '../doctor/analyse';
import { cleanup, copyFixture } from './run-support';

after(cleanup);

const lineOf = (dir: string, text: string) => readFileSync(join(dir, 'config.yaml'), 'utf8').split('\n').findIndex((line) => line.includes(text)) + 1;

// trellis doctor checks the HTTP essentials' sections as trellis run does, without starting the app.
describe('trellis doctor and the feature sections of config.yaml', () => {
  for (const [section, text, at] of [
    ['cors', 'cors:\n  origins: ["*"]\n  credentials: true\n', 'credentials'],
    ['compression', 'compression:\n  threshold: many\n', 'threshold'],
    ['rate_limit', 'rate_limit:\n  limit: -1\n', 'limit'],
  ] as const) {
    it(`reports a ${section}: section that does not fit at its line`, async () => {
      const dir = copyFixture('healthy');
      appendFileSync(join(dir, 'config.yaml'), text);
      const report = await analyse(dir);
      assert.deepEqual(
        report.errors.map((e) => [e.file, e.line, e.code]),
        [['config.yaml', lineOf(dir, `  ${at}:`), 'config']],
        JSON.stringify(report.errors),
      );
    });
  }

  it('passes a project whose sections fit', async () => {
    const dir = copyFixture('healthy');
    appendFileSync(join(dir, 'config.yaml'), 'cors:\n  origins: [http://localhost:5173]\ncompression:\netag: true\n');
    const report = await analyse(dir);
    assert.deepEqual(report.errors, []);
  });
});
