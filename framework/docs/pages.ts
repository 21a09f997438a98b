/** What the docs pages show: the app's title, version and description, and where the docs live. */
export interface PageInfo {
  title: string;
  version: string;
  description?: string;
  /** The docs prefix without a trailing slash: `/docs`, or `''` for docs at the root. */
  prefix: string;
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
  ]
    .map(([href, label, what]) => `<li><a href="${prefix}/${href}">${label}</a> - ${what}</li>`)
    .join('\n');
  const style = `<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;line-height:1.5}</style>`;
  const intro = description ? `<p>${escapeHtml(description)}</p>\n` : '';
  return page(
    info,
    'Documentation',
    style,
    `<h1>${escapeHtml(title)} <small>${escapeHtml(version)}</small></h1>\n${intro}<ul>\n${links}\n</ul>`,
  );
}

/** Swagger UI; its start-up script is a separate file so the page needs no inline script. */
export function swaggerPage(info: PageInfo): string {
  const prefix = escapeHtml(info.prefix);
  return page(
    info,
    'Swagger UI',
    `<link rel="stylesheet" href="${prefix}/assets/swagger-ui.css">`,
    `<div id="swagger-ui"></div>\n<script src="${prefix}/assets/swagger-ui-bundle.js"></script>\n<script src="${prefix}/swagger-init.js"></script>`,
  );
}

export function swaggerInit({ prefix }: PageInfo): string {
  const options = { url: `${prefix}/openapi.json`, dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null };
  return `window.ui = SwaggerUIBundle(Object.assign(${JSON.stringify(options)}, {
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
  layout: 'BaseLayout'
}));
`;
}

export function redocPage(info: PageInfo): string {
  const prefix = escapeHtml(info.prefix);
  return page(
    info,
    'ReDoc',
    `<style>body{margin:0;padding:0}</style>`,
    `<redoc spec-url="${prefix}/openapi.json"></redoc>\n<script src="${prefix}/assets/redoc.standalone.js"></script>`,
  );
}
