export { templates, Templates } from './plugin';
export { TemplateEngine } from './engine';
export type { TemplateOptions } from './engine';
export { TemplateResponse, render } from './template-response';
