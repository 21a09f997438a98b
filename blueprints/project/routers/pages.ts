import { Config, Get, Injectable, RedirectResponse, router, TemplateResponse } from 'trellis';

/** HTML pages: `templates/index.html` filled with values from config.yaml, and a redirect. */
@Injectable()
export class PageRouter extends router('/') {
  private readonly site: { title: string; description: string; docs: string };

  constructor(config: Config) {
    super();
    this.site = {
      title: config.get('app.title', 'trellis API'),
      description: config.get('app.description', ''),
      docs: `${config.get('docs.path', '/docs').replace(/\/$/, '')}/`,
    };
  }

  /** The home page, linking to the API documentation. */
  @Get('/')
  home() {
    return new TemplateResponse('index.html', this.site);
  }

  /** Redirects to the home page (307). */
  @Get('/home')
  toHome() {
    return new RedirectResponse('/');
  }
}
