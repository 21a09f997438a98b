import { INVALID } from './convert';

// Linear in the text: every quantifier is bounded or separated by a literal.
const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:[T ]([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.(\d{1,9}))?)?(Z|[+\- ](?:[01]\d|2[0-3]):?[0-5]\d)?)?$/i;

/**
 * Converts an ISO 8601 date (`2024-05-01`, midnight UTC) or date and time (`2024-05-01T10:30:00Z`, with an offset
 * `+02:00`, or none: UTC) to a `Date`, or {@link INVALID}. A day the month does not have (`2023-02-29`) is invalid,
 * where `new Date` would roll it over; a space before the offset is read as `+` (what an unencoded `+` in a query
 * string decodes to).
 *
 * @example
 * ```ts
 * dateFromText('2024-05-01T10:30:00+02:00'); // 2024-05-01T08:30:00.000Z
 * dateFromText('2024-02-30'); // INVALID
 * ```
 */
export function dateFromText(text: string): Date | typeof INVALID {
  const parts = ISO_8601.exec(text);
  if (!parts) return INVALID;
  const [, year, month, day, hours, minutes, seconds, fraction, zone] = parts;
  const y = Number(year);
  const m = Number(month);
  const d = Number(day);
  if (m < 1 || m > 12 || d < 1 || d > daysIn(y, m)) return INVALID;
  if (hours === undefined) return new Date(`${year}-${month}-${day}T00:00:00Z`);
  const offset = zone === undefined || zone.toUpperCase() === 'Z' ? 'Z' : `${zone[0] === '-' ? '-' : '+'}${zone.slice(1, 3)}:${zone.slice(-2)}`;
  const time = `${hours}:${minutes}:${seconds ?? '00'}${fraction ? `.${fraction.slice(0, 3).padEnd(3, '0')}` : ''}`;
  const date = new Date(`${year}-${month}-${day}T${time}${offset}`);
  return Number.isNaN(date.getTime()) ? INVALID : date;
}

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysIn(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : DAYS[month - 1];
}
