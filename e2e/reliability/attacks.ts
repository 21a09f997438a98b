// `npm run reliability -- attacks` (and the full run): the second attack round's figures (issue: first contact),
// one module per attack, each measuring on its own fresh project and returning its table rows.
import type { ExitLog } from '../support/exit-log';

export type Row = [figure: string, measured: string, target: string];
type Attack = (exits: ExitLog) => Promise<Row[]>;

/** Each attack's module, in the order its rows appear in the table. */
const ATTACKS: Array<() => Promise<Attack>> = [
  // Added by each attack's module: `async () => (await import('./NAME')).NAME,`
  async () => (await import('./express-edge')).expressEdge,
  async () => (await import('./docs-and-readiness')).docsAndReadiness,
];

export async function attacks(exits: ExitLog): Promise<Row[]> {
  const rows: Row[] = [];
  for (const load of ATTACKS) rows.push(...(await (await load())(exits)));
  return rows;
}
