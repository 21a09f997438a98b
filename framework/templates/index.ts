export { TemplateEngine } from './engine';
export type { TemplateOptions } from './engine';
export { TemplateResponse, render, renderPending, finishResponse } from './template-response';
