'use strict';
// Writes router source files for the route-count scaling test: `count / 10` routers of 10 routes each
// (static, parameter and nested-parameter paths over several methods), as a project would have them.
const fs = require('node:fs');
const path = require('node:path');

const FRAMEWORK = path.resolve(__dirname, '..', '..', 'framework');

function routerSource(index) {
  const base = `/resource${index}`;
  const id = "@Path('id', { type: Int }) id: number";
  return `import { Delete, Get, Patch, Post, Put, router } from ${JSON.stringify(FRAMEWORK)};
import { Int, Path } from ${JSON.stringify(path.join(FRAMEWORK, 'param'))};

export class Resource${index}Router extends router(${JSON.stringify(base)}) {
  @Get() list() { return { resource: ${index}, items: [] }; }
  @Get('/search') search() { return { resource: ${index}, items: [] }; }
  @Get('/stats') stats() { return { resource: ${index}, count: 0 }; }
  @Post() create() { return [{ resource: ${index} }, 201]; }
  @Get('/{id}') one(${id}) { return { resource: ${index}, id }; }
  @Put('/{id}') replace(${id}) { return { resource: ${index}, id }; }
  @Patch('/{id}') update(${id}) { return { resource: ${index}, id }; }
  @Delete('/{id}') remove(${id}) { return { resource: ${index}, id }; }
  @Get('/{id}/items') items(${id}) { return { resource: ${index}, id, items: [] }; }
  @Get('/{id}/items/{item_id}') item(${id}, @Path('item_id', { type: Int }) itemId: number) { return { resource: ${index}, id, itemId }; }
}
`;
}

/**
 * Writes the routers for `count` routes into `dir` and returns the path of a GET route in the middle of
 * the table (the middle router's `/{id}`).
 */
function generateRoutes(dir, count) {
  const routers = Math.max(1, Math.round(count / 10));
  fs.mkdirSync(dir, { recursive: true });
  for (let i = 0; i < routers; i++) fs.writeFileSync(path.join(dir, `resource${i}.router.ts`), routerSource(i));
  return `/resource${Math.floor(routers / 2)}/7`;
}

module.exports = { generateRoutes };
