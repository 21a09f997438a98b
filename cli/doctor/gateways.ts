import type { BaseRouter } from 'trellis';
import { inspectGateway, TrellisError } from 'trellis/inspect';
import { configValueProblems, createApp, problemAt, registerDatabase, type Discovery, type Found, type Problem, type Project } from 'trellis/internal';
import { websockets } from 'trellis/plugins';
import { createLogger } from 'trellis/runtime';
import { memoryBus, type Gateway } from 'trellis/websocket';
import { errorAt, type Finding, type GatewayRow } from './report';
import { declaredAt } from './routes';

/** A discovered gateway and what the framework made of it. */
export interface GatewayCheck {
  found: Found<Gateway>;
  row: GatewayRow;
}

/**
 * Registers each discovered gateway alone on an app of its own (config, services and the database provided), as
 * `trellis run`'s `websockets` plug-in does, so one gateway's mistake (a path without `/`, a message class without
 * rules) is an error at its class and hides no other. A `websockets:` section that does not fit is left to the full
 * app (`registerGateways`), which reports it once at its line. Rooms live in memory: doctor opens no connection.
 */
export function checkGateways(project: Project, discovery: Discovery): { gateways: GatewayCheck[]; findings: Finding[] } {
  const gateways: GatewayCheck[] = [];
  const findings: Finding[] = [];
  const silent = createLogger({ level: 'silent' });
  for (const found of discovery.gateways ?? []) {
    const app = createApp(project, discovery, [], { logger: silent });
    registerDatabase(app, project);
    let rejected = false;
    try {
      app.register(websockets({ gateways: [found.cls], bus: memoryBus() }));
    } catch (error) {
      if (!configValueProblems(project.config, error).length) {
        findings.push(errorAt(problemAt(found, project.dir, unwrapped(error))));
        rejected = true;
      }
    }
    const inspected = inspectGateway(found.cls);
    const row: GatewayRow = {
      path: inspected?.path ?? '',
      name: found.cls.name,
      ...declaredAt(project.dir, found),
      guards: inspected?.guards.map((guard) => guard.name) ?? [],
      events: inspected?.events ?? [],
      rejected,
    };
    gateways.push({ found, row });
  }
  // In the order of the sources, as the route table is.
  gateways.sort((a, b) => a.row.file.localeCompare(b.row.file) || a.row.line - b.row.line);
  return { gateways, findings };
}

/**
 * Registers the gateways the checks accepted on the full app, as `trellis run` does (before the project's plug-ins):
 * a `websockets:` section that does not fit is a problem at its line, two gateways on one path a problem at the
 * second. Nothing to register without gateways.
 */
export function registerGateways(app: BaseRouter, project: Project, gateways: GatewayCheck[]): Problem[] {
  const accepted = gateways.filter((gateway) => !gateway.row.rejected).map((gateway) => gateway.found);
  if (!accepted.length) return [];
  try {
    app.register(websockets({ gateways: accepted.map((found) => found.cls), bus: memoryBus() }));
    return [];
  } catch (error) {
    const located = configValueProblems(project.config, error);
    if (located.length) return located;
    const cause = unwrapped(error);
    // A gateway is named by its class (TRELLIS_ERR_GATEWAY) or by its route (`Second.upgrade`, a route clash).
    const named = cause instanceof TrellisError ? String(cause.details.handler ?? cause.details.gateway) : undefined;
    const found = accepted.find((candidate) => named === candidate.cls.name || named?.startsWith(`${candidate.cls.name}.`)) ?? accepted[0];
    return [problemAt(found, project.dir, cause)];
  }
}

// The framework's error a plug-in's registration wrapped (TRELLIS_ERR_PLUGIN_REGISTER): the gateway's own says what to fix.
function unwrapped(error: unknown): unknown {
  const cause = error instanceof TrellisError ? (error as Error & { cause?: unknown }).cause : undefined;
  return cause instanceof TrellisError ? cause : error;
}
