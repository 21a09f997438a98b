import { IsArray, IsBoolean, IsInt, IsOptional, IsString, Min } from 'class-validator';
import { Settings } from '../settings';
import type { CorsOptions } from './options';

/**
 * config.yaml's `cors:` section (snake_case), read by `cors()` called without options.
 *
 * @example
 * ```yaml
 * cors:
 *   origins: [http://localhost:5173, 'https://*.example.com']
 *   credentials: true
 *   max_age: 600
 * ```
 */
@Settings('cors')
export class CorsSettings {
  /** A list, or one value (`'*'`). */
  @IsOptional() @IsString({ each: true }) origins?: string | string[];
  @IsOptional() @IsArray() @IsString({ each: true }) methods?: string[];
  @IsOptional() @IsArray() @IsString({ each: true }) headers?: string[];
  @IsOptional() @IsArray() @IsString({ each: true }) expose_headers?: string[];
  @IsOptional() @IsBoolean() credentials?: boolean;
  @IsOptional() @IsInt() @Min(0) max_age?: number;
}

/** The section as {@link CorsOptions}. */
export function corsOptionsOf(settings: CorsSettings): CorsOptions {
  return {
    origins: settings.origins,
    methods: settings.methods,
    headers: settings.headers,
    exposeHeaders: settings.expose_headers,
    credentials: settings.credentials,
    maxAge: settings.max_age,
  };
}
