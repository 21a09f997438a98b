// NestJS 11 on platform-express with a global ValidationPipe (class-validator DTO, 400 on failure) and
// the Parse*Pipes for path and query conversion. Nest's logger is off.
import 'reflect-metadata';
import {
  BadRequestException,
  Body,
  Controller,
  DefaultValuePipe,
  Get,
  Module,
  NotFoundException,
  Param,
  ParseFloatPipe,
  ParseIntPipe,
  Post,
  Query,
  ValidationPipe,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { searchProducts, tasks } from './shared/store';
import { TaskIn } from './shared/task-in';

@Controller('tasks')
class TaskController {
  @Get(':id')
  one(@Param('id', ParseIntPipe) id: number) {
    const task = tasks.get(id);
    if (!task) throw new NotFoundException('Task not found');
    return task;
  }

  @Post()
  create(@Body() body: TaskIn) {
    return tasks.create(body);
  }
}

@Controller('products')
class ProductController {
  @Get('search')
  search(
    @Query('q') q: string | undefined,
    @Query('category') category: string | undefined,
    @Query('min_price', new ParseFloatPipe({ optional: true })) min_price: number | undefined,
    @Query('max_price', new ParseFloatPipe({ optional: true })) max_price: number | undefined,
    @Query('sort', new DefaultValuePipe('name')) sort: string,
    @Query('page', new DefaultValuePipe(1), ParseIntPipe) page: number,
    @Query('limit', new DefaultValuePipe(20), ParseIntPipe) limit: number,
  ) {
    if (q === undefined) throw new BadRequestException('q is required');
    return searchProducts({ q, category: category ?? null, min_price: min_price ?? null, max_price: max_price ?? null, sort, page, limit });
  }
}

@Module({ controllers: [TaskController, ProductController] })
class AppModule {}

async function main() {
  const app = await NestFactory.create(AppModule, { logger: false });
  app.useGlobalPipes(new ValidationPipe({ whitelist: true }));
  await app.listen(Number(process.env.PORT), '127.0.0.1');
}
main();
