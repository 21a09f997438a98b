import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DiagnosticSeverity, Parser } from '@asyncapi/parser';
import { createSampleProject, runProject, type RunningApp } from './support/sample-server';

// Issue 40, item 9: the realtime API is in the docs. The sample under `trellis run`: its docs pages link the AsyncAPI
// document of its gateway, which the AsyncAPI parser reads without an error, with the feed's path and broadcasts.

const sample = createSampleProject();
let app: RunningApp;

before(async () => {
  app = await runProject(sample.dir, ['--no-access-log']);
});

after(async () => {
  await app?.stop();
  sample.remove();
});

describe("the sample's AsyncAPI document", () => {
  it('is linked from the docs pages', async () => {
    for (const page of ['/docs/', '/docs/swagger', '/docs/redoc']) {
      const response = await fetch(`${app.url}${page}`);
      assert.equal(response.status, 200, page);
      assert.match(await response.text(), /href="\/docs\/asyncapi\.json"/, page);
    }
  });

  it('parses without an error and holds /ws/tasks with its created, updated and deleted broadcasts', async () => {
    const response = await fetch(`${app.url}/docs/asyncapi.json`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    const document = (await response.json()) as { asyncapi: string; channels: Record<string, unknown>; operations: Record<string, unknown> };
    const { diagnostics } = await new Parser().parse(document as never);
    const errors = diagnostics.filter((diagnostic) => diagnostic.severity === DiagnosticSeverity.Error).map((diagnostic) => diagnostic.message);
    assert.deepEqual(errors, []);
    assert.equal(document.asyncapi, '3.0.0');
    const channels = Object.values(document.channels) as Array<{ address: string }>;
    assert.deepEqual(channels.map((channel) => channel.address), ['/ws/tasks']);
    const sent = Object.values(document.operations as Record<string, { action: string; messages: Array<{ $ref: string }> }>)
      .filter((operation) => operation.action === 'send')
      .map((operation) => operation.messages[0].$ref.split('/').pop());
    assert.equal(sent.length, 3, JSON.stringify(document.operations));
  });
});
