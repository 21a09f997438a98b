export { checkRedisUrl, connectRedis, redactUrl, redisReady, REDIS_DEFAULTS } from './connect';
export type { ConnectRedisOptions } from './connect';
export { RedisSettings, redisUrlOf } from './settings';
