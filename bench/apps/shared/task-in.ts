import { IsBoolean, IsOptional, IsString, Length } from 'class-validator';

/** The task input model of the class-validator contenders (trellis, routing-controllers, NestJS). */
export class TaskIn {
  @IsString()
  @Length(1, 100)
  title!: string;

  @IsOptional()
  @IsString()
  description?: string;

  @IsOptional()
  @IsBoolean()
  completed?: boolean;
}
