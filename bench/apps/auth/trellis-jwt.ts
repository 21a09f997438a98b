// trellis's jwtAuth guarding GET /tasks/{task_id}, the twin of fastify-jwt.js: the same key, the one algorithm
// allowed, issuer and audience (./config.js), the same body. Run through register.js as apps/trellis.ts is.
import { BaseRouter, Get, HTTPException, Request, Use, router } from '../../../framework';
import { jwtAuth } from '../../../framework/auth';
import { Int, Path, Req } from '../../../framework/param';
import { tasks } from '../shared/store';
import { AUDIENCE, ISSUER, cacheOn, jwtSettings, taskOf } from './config';

const { algorithm, secret, publicKey } = jwtSettings();
const guard = jwtAuth({ ...(secret ? { secret } : { publicKey }), algorithms: [algorithm], issuer: ISSUER, audience: AUDIENCE, ...(cacheOn() ? {} : { cache: false as const }) });

@Use(guard)
class TaskRouter extends router('/tasks') {
  @Get('/{task_id}')
  one(@Path('task_id', { type: Int }) taskId: number, @Req() request: Request) {
    const task = tasks.get(taskId);
    if (!task) throw new HTTPException(404, 'Task not found');
    return taskOf(task, request.user);
  }
}

const app = new BaseRouter({ title: 'bench' }).includeRouter(new TaskRouter());
app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
