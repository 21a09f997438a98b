#!/usr/bin/env node
'use strict';
// Issue 14's "Measured" section as one command: the OpenAPI document of the sample project checked with tools
// trellis did not write. By default it creates the sample from this working tree (`trellis create sample --yes
// --no-install --no-git --examples products,users,upload,pages,admin` in a temporary folder), serves it with
// `trellis run` on a free port (ADMIN_TOKEN set), waits for /readyz, fetches /docs/openapi.json and reports:
//   - openapi-typescript: the share of success responses whose generated type is not unknown / empty;
//   - Redocly's `recommended` rules (@redocly/openapi-core): errors and warnings by rule;
//   - Spectral's `spectral:oas`: errors and warnings by rule;
//   - a contract run: valid and invalid requests generated from the document for every operation, every answer
//     checked for a documented status, content type and a body valid against the schema (ajv).
//
//   node bench/openapi/check.js [--json] [--strict] [--keep] [--quiet-notes]
//   node bench/openapi/check.js --project DIR          # serve an existing project instead of a fresh sample
//   node bench/openapi/check.js --url URL [--token T]  # a running server's document (URL of openapi.json)
//   node bench/openapi/check.js --document FILE [--base URL] [--token T]   # a file; --base adds the contract run
//
// Exit code 0 whatever the findings (1 with --strict when a target is missed); 2 when the tool itself failed.
const fs = require('node:fs');
const path = require('node:path');
const { checkDocument } = require('./lib/check-document');
const { summary } = require('./lib/report');
const { createSample, serve, docsPath, EXAMPLES } = require('./lib/sample');

const USAGE = `Usage: node bench/openapi/check.js [--project DIR | --url URL | --document FILE [--base URL]]
                                  [--token T] [--basic user:pass] [--json] [--strict] [--keep] [--quiet-notes]

  (default)        create the sample project from this checkout (examples ${EXAMPLES}) and serve it
  --project DIR    serve this project with this checkout's \`trellis run\` instead
  --url URL        check the document at URL (e.g. http://localhost:8000/docs/openapi.json) and its server
  --document FILE  check a document file; the contract run needs --base URL (the server's origin)
  --token T        credentials for secured operations (default: the ADMIN_TOKEN this command sets, else $ADMIN_TOKEN)
  --basic u:p      user:password for HTTP basic schemes
  --json           the full report as JSON on stdout
  --strict         exit 1 when a target is missed (untyped responses, lint errors, contract mismatches)
  --keep           keep the created sample project (its path is printed)
  --quiet-notes    leave out the notes (valid requests answered 4xx) from the summary`;

class UsageError extends Error {}

function parse(argv) {
  const options = { json: false, strict: false, keep: false, notes: true, token: undefined, basic: undefined, project: undefined, url: undefined, document: undefined, base: undefined };
  const valued = { '--project': 'project', '--url': 'url', '--document': 'document', '--base': 'base', '--token': 'token', '--basic': 'basic' };
  const flags = { '--json': 'json', '--strict': 'strict', '--keep': 'keep' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') options.help = true;
    else if (arg === '--quiet-notes') options.notes = false;
    else if (flags[arg]) options[flags[arg]] = true;
    else if (valued[arg]) {
      if (argv[i + 1] === undefined) throw new UsageError(`${arg} needs a value`);
      options[valued[arg]] = argv[++i];
    } else throw new UsageError(`unknown option ${arg}`);
  }
  if ([options.project, options.url, options.document].filter(Boolean).length > 1) throw new UsageError('give one of --project, --url, --document');
  return options;
}

async function fetchDocument(url) {
  const answer = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  if (answer.status !== 200) throw new Error(`GET ${url} answered ${answer.status}`);
  return answer.json();
}

async function main() {
  const options = parse(process.argv.slice(2));
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  const log = options.json ? (line) => process.stderr.write(`${line}\n`) : (line) => console.log(line);
  let report;
  let source;

  if (options.document) {
    const doc = JSON.parse(fs.readFileSync(options.document, 'utf8'));
    source = path.resolve(options.document);
    report = await checkDocument(doc, { base: options.base, token: options.token ?? process.env.ADMIN_TOKEN, basic: options.basic });
  } else if (options.url) {
    const doc = await fetchDocument(options.url);
    source = options.url;
    report = await checkDocument(doc, { base: options.base ?? options.url, token: options.token ?? process.env.ADMIN_TOKEN, basic: options.basic });
  } else {
    const created = !options.project;
    const dir = options.project ? path.resolve(options.project) : await createSample();
    if (!fs.existsSync(path.join(dir, 'config.yaml')) && !fs.existsSync(path.join(dir, 'routers'))) throw new UsageError(`${dir} is not a trellis project`);
    if (created) log(`created the sample (examples ${EXAMPLES}) in ${dir}`);
    const token = options.token ?? 'contract-run-admin-token';
    let server;
    try {
      server = await serve(dir, token);
      const url = `${server.base}${docsPath(dir)}/openapi.json`;
      const doc = await fetchDocument(url);
      source = created ? `the sample project (trellis create --examples ${EXAMPLES}), served by trellis run: ${url}` : `${dir}, served by trellis run: ${url}`;
      report = await checkDocument(doc, { base: server.base, token, basic: options.basic });
    } finally {
      await server?.stop();
      if (created && !options.keep) fs.rmSync(path.dirname(dir), { recursive: true, force: true });
      else if (created) log(`kept ${dir}`);
    }
  }

  if (options.json) console.log(JSON.stringify({ source, ...report }, null, 2));
  else console.log(summary(report, source, { notes: options.notes }).join('\n'));
  return options.strict && !report.verdict.pass ? 1 : 0;
}

main().then(
  (code) => (process.exitCode = code),
  (error) => {
    process.stderr.write(error instanceof UsageError ? `check-openapi: ${error.message}\n\n${USAGE}\n` : `check-openapi: ${error.stack ?? error.message}\n`);
    process.exitCode = 2;
  },
);
