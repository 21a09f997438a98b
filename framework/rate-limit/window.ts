import { TrellisError } from '../framework-error';

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^(\d{1,9})\s*(ms|s|m|h|d)$/;
const ONE_DAY_MAX = 7 * UNITS.d;

/**
 * A rate limit window in milliseconds: `'30s'`, `'1m'`, `'1h'`, `'1d'`, `'500ms'` or a number of milliseconds; from
 * one second (a window the clock and Redis's expiry can keep) to seven days. Anything else is
 * `TRELLIS_ERR_RATE_LIMIT_OPTION` naming `option`.
 *
 * @example
 * ```ts
 * windowMs('1m'); // 60000
 * windowMs(15_000); // 15000
 * ```
 */
export function windowMs(value: unknown, option = 'window'): number {
  let ms: number | undefined;
  if (typeof value === 'number') ms = value;
  else if (typeof value === 'string') {
    const match = DURATION.exec(value.trim());
    if (match) ms = Number(match[1]) * UNITS[match[2]];
    else if (/^\d{1,12}$/.test(value.trim())) ms = Number(value.trim());
  }
  if (ms === undefined || !Number.isSafeInteger(ms) || ms < 1_000 || ms > ONE_DAY_MAX) {
    throw new TrellisError('TRELLIS_ERR_RATE_LIMIT_OPTION', option, `${JSON.stringify(value) ?? String(value)} is not a window from 1s to 7d ('30s', '1m', '1h' or milliseconds)`);
  }
  return ms;
}

/** `value` when it is a positive integer (a limit), else `TRELLIS_ERR_RATE_LIMIT_OPTION` naming `option`. */
export function positiveCount(value: unknown, option = 'limit'): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  throw new TrellisError('TRELLIS_ERR_RATE_LIMIT_OPTION', option, `${JSON.stringify(value) ?? String(value)} is not a positive integer`);
}
