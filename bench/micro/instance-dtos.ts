import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Min, ValidateNested } from 'class-validator';

// A nested DTO for bench/micro/instance-builder.js: an order with an address and lines (each with an address).

export class Address {
  @IsString() street!: string;
  @IsString() city!: string;
  @IsOptional() @IsString() zip?: string;
}

export class Line {
  @IsString() sku!: string;
  @IsInt() @Min(1) quantity!: number;
  @IsOptional() @ValidateNested() @Type(() => Address) shipTo?: Address;
}

export class OrderIn {
  @IsString() reference!: string;
  @IsOptional() @IsString() note?: string;
  @ValidateNested() @Type(() => Address) address!: Address;
  @ValidateNested({ each: true }) @Type(() => Line) lines: Line[] = [];
}
