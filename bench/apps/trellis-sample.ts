// The sample project made by `trellis create`, assembled in-process by the same loader `trellis run` uses
// (routers, services, middleware and config.yaml from SAMPLE_DIR) and served by the framework's `listen`
// without the CLI's per-request layer (the access log). `trellis run` / this app is what the CLI adds.
import { listen } from '../../framework/server';
import { loadProject } from '../../runtime/internal';

const { app } = loadProject(process.env.SAMPLE_DIR ?? '');
void listen(app.handler, { host: '127.0.0.1', port: Number(process.env.PORT) });
