import { Agent, request } from 'node:http';

/** What became of one POST /tasks. */
export interface Outcome {
  /** The task's title: unique, so its row (if any) is found by it. */
  title: string;
  /** The instance the request was sent to. */
  target: string;
  /** The answer's status: 201 (with `id`), or another one. */
  status?: number;
  id?: number;
  /**
   * `refused`: the connection was refused (nothing listened, the request never reached a server). `cut`: the
   * connection broke before a whole answer (the request may or may not have been handled).
   */
  error?: 'refused' | 'cut';
  /** What the test was doing when the request was sent (the phase it set last). */
  phase: string;
}

/**
 * A client sending POST /tasks without pause on `loops` keep-alive connections per target, each task titled
 * uniquely, recording every {@link Outcome}. A target that refuses connections is retried 10 ms later (as a
 * client's backoff would). `phase` labels the requests sent from then on.
 *
 * @example
 * ```ts
 * const stream = new PostStream({ a: 'http://127.0.0.1:8001', b: 'http://127.0.0.1:8002' }, 2);
 * stream.start();
 * await stream.stop();
 * stream.outcomes.filter((o) => o.status === 201);
 * ```
 */
export class PostStream {
  readonly outcomes: Outcome[] = [];
  phase = 'start';
  readonly #targets: Record<string, string>;
  readonly #loops: number;
  readonly #running: Promise<void>[] = [];
  readonly #agents: Agent[] = [];
  #stopping = false;
  #next = 0;

  constructor(targets: Record<string, string>, loops: number) {
    this.#targets = targets;
    this.#loops = loops;
  }

  start(): void {
    for (const [name, url] of Object.entries(this.#targets)) {
      for (let i = 0; i < this.#loops; i++) this.#running.push(this.#loop(name, url));
    }
  }

  /** The 201s `target` answered so far (all targets when not given). */
  created(target?: string): number {
    return this.outcomes.filter((o) => o.status === 201 && (target === undefined || o.target === target)).length;
  }

  /** Sends no new request; resolves once every request in flight has its outcome. */
  async stop(): Promise<void> {
    this.#stopping = true;
    await Promise.all(this.#running);
    for (const agent of this.#agents) agent.destroy();
  }

  async #loop(target: string, url: string): Promise<void> {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    this.#agents.push(agent);
    while (!this.#stopping) {
      const outcome: Outcome = { title: `stream-${this.#next++}`, target, phase: this.phase };
      Object.assign(outcome, await post(url, agent, outcome.title));
      this.outcomes.push(outcome);
      if (outcome.error === 'refused') await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

function post(url: string, agent: Agent, title: string): Promise<Pick<Outcome, 'status' | 'id' | 'error'>> {
  const body = JSON.stringify({ title });
  return new Promise((resolve) => {
    const req = request(`${url}/tasks`, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        resolve(status === 201 ? { status, id: (JSON.parse(text) as { id: number }).id } : { status });
      });
      res.on('error', () => resolve({ error: 'cut' }));
      res.on('aborted', () => resolve({ error: 'cut' }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code === 'ECONNREFUSED' ? 'refused' : 'cut' }));
    req.end(body);
  });
}
