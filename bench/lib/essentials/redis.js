'use strict';
// The harness's Redis access for the redis pair: each framework's keys deleted before every cell, so both count
// from nothing, and afterwards.
const { PREFIXES } = require('../../apps/essentials/config');

/** Runs `use(client)` on a fresh ioredis client of `url`, then quits it. */
async function withRedis(url, use) {
  const { Redis } = require('ioredis');
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    return await use(redis);
  } finally {
    redis.disconnect();
  }
}

/** Deletes every key under both frameworks' prefixes; resolves to how many. */
function deleteBenchKeys(url) {
  return withRedis(url, async (redis) => {
    let deleted = 0;
    for (const prefix of Object.values(PREFIXES)) {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) deleted += await redis.del(...keys);
    }
    return deleted;
  });
}

module.exports = { withRedis, deleteBenchKeys };
