import { ArrayNotEmpty, ArrayUnique, IsArray, IsIn, IsInt, Max, Min } from 'class-validator';
import { TrellisError } from '../framework-error';
import { Settings } from '../settings';
import { ENCODINGS, type Encoding } from './negotiate';

// Chosen by `node bench/compression-levels.js` (docs/reference/compression.md has the table): on a 20 KB JSON answer,
// gzip 6 (zlib's own default, and @fastify/compress's) costs ~15-20 % more CPU than levels 1-4 for a body ~20 %
// smaller, and level 9 doubles the CPU for 1 % less; brotli 4 (@fastify/compress's default too) compresses better
// than gzip 6 at about its cost, where quality 5 adds ~15-25 % CPU and 11 costs ~150 times as much.
const DEFAULT_GZIP_LEVEL = 6;
const DEFAULT_BROTLI_QUALITY = 4;

/**
 * The options of the compression plug-in in code (`compression({ ... })`); config.yaml's `compression:` section
 * spells them in snake_case.
 *
 * @example
 * ```ts
 * const options: CompressionOptions = { threshold: 2048, encodings: ['gzip'], gzipLevel: 4 };
 * ```
 */
export interface CompressionOptions {
  /** Bytes: a body of known size below it goes out as it is. 1,024 by default. */
  threshold?: number;
  /** The codings offered, in the server's order of preference when the client's q-values tie. `['br', 'gzip']` by default. */
  encodings?: Encoding[];
  /** zlib level 1 (fastest) to 9 (smallest). 6 by default. */
  gzipLevel?: number;
  /** Brotli quality 0 (fastest) to 11 (smallest, and slow). 4 by default. */
  brotliQuality?: number;
}

/** The options with their defaults, checked. */
export interface CompressionConfig {
  threshold: number;
  encodings: readonly Encoding[];
  gzipLevel: number;
  brotliQuality: number;
}

/**
 * config.yaml's `compression:` section (`compression: {}` turns it on with the defaults).
 *
 * @example
 * ```yaml
 * compression:
 *   threshold: 1024
 *   encodings: [br, gzip]
 *   gzip_level: 6
 *   brotli_quality: 4
 * ```
 */
@Settings('compression')
export class CompressionSettings {
  @IsInt() @Min(0) threshold = 1024;
  @IsArray() @ArrayNotEmpty() @ArrayUnique() @IsIn(ENCODINGS, { each: true }) encodings: Encoding[] = [...ENCODINGS];
  @IsInt() @Min(1) @Max(9) gzip_level = DEFAULT_GZIP_LEVEL;
  @IsInt() @Min(0) @Max(11) brotli_quality = DEFAULT_BROTLI_QUALITY;
}

/** The checked options of `compression(options)`; an option that does not fit is `TRELLIS_ERR_COMPRESSION_OPTION`. */
export function compressionConfig(options: CompressionOptions): CompressionConfig {
  const config = {
    threshold: options.threshold ?? 1024,
    encodings: options.encodings ?? ENCODINGS,
    gzipLevel: options.gzipLevel ?? DEFAULT_GZIP_LEVEL,
    brotliQuality: options.brotliQuality ?? DEFAULT_BROTLI_QUALITY,
  };
  const fail = (option: string, value: unknown) => new TrellisError('TRELLIS_ERR_COMPRESSION_OPTION', option, JSON.stringify(value) ?? String(value));
  if (!(Number.isSafeInteger(config.threshold) && config.threshold >= 0)) throw fail('threshold', config.threshold);
  const { encodings } = config;
  const known = Array.isArray(encodings) && encodings.length > 0 && encodings.every((encoding, i) => ENCODINGS.includes(encoding) && encodings.indexOf(encoding) === i);
  if (!known) throw fail('encodings', encodings);
  if (!(Number.isInteger(config.gzipLevel) && config.gzipLevel >= 1 && config.gzipLevel <= 9)) throw fail('gzipLevel', config.gzipLevel);
  if (!(Number.isInteger(config.brotliQuality) && config.brotliQuality >= 0 && config.brotliQuality <= 11)) throw fail('brotliQuality', config.brotliQuality);
  return { ...config, encodings: [...encodings] };
}

/** The section as options. */
export function settingsOptions(settings: CompressionSettings): CompressionOptions {
  return { threshold: settings.threshold, encodings: [...settings.encodings], gzipLevel: settings.gzip_level, brotliQuality: settings.brotli_quality };
}
