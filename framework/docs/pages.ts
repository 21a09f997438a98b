import { ASYNCAPI_FILE, asyncapiPath } from './asyncapi-link';

/** What the docs pages show: the app's title, version and description, and where the docs live. */
export interface PageInfo {
  title: string;
  version: string;
  description?: string;
  /** The docs prefix without a trailing slash: `/docs`, or `''` for docs at the root. */
  prefix: string;
  /** The API versions of the routes, in order: each has its document at `{prefix}/v{version}/openapi.json`. */
  versions?: readonly string[];
  /** Whether the app serves the AsyncAPI document of its WebSocket gateways at `{prefix}/asyncapi.json`: each page links it. */
  asyncapi?: boolean;
}

const REALTIME = 'Realtime API (AsyncAPI)';
const REALTIME_STYLE = '<style>.realtime{font-family:system-ui,sans-serif;padding:.5rem 1rem;border-bottom:1px solid #ddd}</style>';

/** The bar above Swagger UI and ReDoc that links the AsyncAPI document, or `''` when the app has no gateways. */
function realtimeBar(info: PageInfo): string {
  return info.asyncapi ? `<nav class="realtime"><a href="${escapeHtml(asyncapiPath(info.prefix))}">${REALTIME}</a></nav>\n` : '';
}

/** Where one version's page or document is: `{prefix}/v1/openapi.json`. */
export function versionHref(prefix: string, version: string, file: string): string {
  return `${prefix}/v${version}/${file}`;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

function page({ title, prefix: raw }: PageInfo, kind: string, head: string, body: string): string {
  const prefix = escapeHtml(raw);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${title} - ${kind}`)}</title>
<link rel="icon" type="image/png" href="${prefix}/assets/favicon-32x32.png">
${head}
</head>
<body>
${body}
</body>
</html>
`;
}

/** The landing page: the app's name and a link to every documentation format. */
export function landingPage(info: PageInfo): string {
  const { title, version, description } = info;
  const prefix = escapeHtml(info.prefix);
  const links = [
    ['swagger', 'Swagger UI', 'interactive: try the endpoints from the browser'],
    ['redoc', 'ReDoc', 'reference documentation'],
    ['openapi.json', 'openapi.json', 'the OpenAPI document as JSON'],
    ['openapi.yaml', 'openapi.yaml', 'the OpenAPI document as YAML'],
    ...(info.asyncapi ? [[ASYNCAPI_FILE, REALTIME, 'the AsyncAPI document of the WebSocket gateways: their paths, messages, replies and broadcasts']] : []),
  ]
    .map(([href, label, what]) => `<li><a href="${prefix}/${href}">${label}</a> - ${what}</li>`)
    .join('\n');
  const style = `<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;line-height:1.5}</style>`;
  const intro = description ? `<p>${escapeHtml(description)}</p>\n` : '';
  const versions = (info.versions ?? []).map((name) => {
    const files = ['redoc', 'openapi.json', 'openapi.yaml'].map((file) => `<a href="${escapeHtml(versionHref(info.prefix, name, file))}">${file === 'redoc' ? 'ReDoc' : file}</a>`);
    return `<li>v${escapeHtml(name)}: ${files.join(', ')}</li>`;
  });
  const perVersion = versions.length ? `\n<h2>API versions</h2>\n<ul>\n${versions.join('\n')}\n</ul>` : '';
  return page(
    info,
    'Documentation',
    style,
    `<h1>${escapeHtml(title)} <small>${escapeHtml(version)}</small></h1>\n${intro}<ul>\n${links}\n</ul>${perVersion}`,
  );
}

/**
 * Swagger UI; its start-up script is a separate file so the page needs no inline script. With API versions, the
 * standalone layout's top bar switches between their documents.
 */
export function swaggerPage(info: PageInfo): string {
  const prefix = escapeHtml(info.prefix);
  const preset = info.versions?.length ? `\n<script src="${prefix}/assets/swagger-ui-standalone-preset.js"></script>` : '';
  return page(
    info,
    'Swagger UI',
    `<link rel="stylesheet" href="${prefix}/assets/swagger-ui.css">${info.asyncapi ? `\n${REALTIME_STYLE}` : ''}`,
    `${realtimeBar(info)}<div id="swagger-ui"></div>\n<script src="${prefix}/assets/swagger-ui-bundle.js"></script>${preset}\n<script src="${prefix}/swagger-init.js"></script>`,
  );
}

export function swaggerInit({ prefix, versions = [] }: PageInfo): string {
  if (versions.length === 0) {
    const options = { url: `${prefix}/openapi.json`, dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null };
    return `window.ui = SwaggerUIBundle(Object.assign(${JSON.stringify(options)}, {
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
  layout: 'BaseLayout'
}));
`;
  }
  // Swagger UI's `urls` fill the top bar's "Select a definition" list; it opens on the latest version.
  const urls = versions.map((version) => ({ url: versionHref(prefix, version, 'openapi.json'), name: `v${version}` }));
  const options = { urls, 'urls.primaryName': `v${versions[versions.length - 1]}`, dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null };
  return `window.ui = SwaggerUIBundle(Object.assign(${JSON.stringify(options)}, {
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  plugins: [SwaggerUIBundle.plugins.DownloadUrl],
  layout: 'StandaloneLayout'
}));
`;
}

/** ReDoc of the default document, or of `version`'s; with API versions, a bar of links to each version's page. */
export function redocPage(info: PageInfo, version?: string): string {
  const prefix = escapeHtml(info.prefix);
  const url = version === undefined ? `${prefix}/openapi.json` : escapeHtml(versionHref(info.prefix, version, 'openapi.json'));
  const links = (info.versions ?? []).map((name) =>
    name === version ? `<strong>v${escapeHtml(name)}</strong>` : `<a href="${escapeHtml(versionHref(info.prefix, name, 'redoc'))}">v${escapeHtml(name)}</a>`,
  );
  const nav = links.length ? `<nav class="versions">API version: ${links.join(' ')}</nav>\n` : '';
  const style = links.length ? '<style>body{margin:0;padding:0}.versions{font-family:system-ui,sans-serif;padding:.5rem 1rem;border-bottom:1px solid #ddd}.versions a,.versions strong{margin-left:.5rem}</style>' : '<style>body{margin:0;padding:0}</style>';
  return page(info, 'ReDoc', info.asyncapi ? `${style}\n${REALTIME_STYLE}` : style, `${realtimeBar(info)}${nav}<redoc spec-url="${url}"></redoc>\n<script src="${prefix}/assets/redoc.standalone.js"></script>`);
}
