const SPEC = /^(?:(\d+)-(\d*)|-\d+)$/;

/**
 * Whether a `Range` header may be acted on: absent, of another unit (send ignores those), or a well-formed
 * `bytes=` range set (RFC 9110 14.1.1: `first-last`, `first-`, `-suffix`, comma-separated, with `last` not
 * before `first`). An invalid one (`bytes=abc`, `bytes=5-1`, `bytes=`) is to be ignored, the whole file sent
 * with 200 (RFC 9110 14.2); only a well-formed range the file cannot meet is a 416.
 */
export function actionableRange(header: string | undefined): boolean {
  const set = /^ *bytes=(.*)$/.exec(header ?? '');
  if (!set) return true;
  let specs = 0;
  for (const element of set[1].split(',')) {
    const spec = element.trim();
    if (spec === '') continue; // empty list elements are allowed (RFC 9110 5.6.1)
    const parts = SPEC.exec(spec);
    if (!parts) return false;
    if (parts[1] !== undefined && parts[2] !== '' && BigInt(parts[2]) < BigInt(parts[1])) return false;
    specs++;
  }
  return specs > 0;
}
