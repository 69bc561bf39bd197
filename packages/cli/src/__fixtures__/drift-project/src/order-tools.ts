// Every kind of drift `toolsmith schema --check` reports, once each, next to forms that are fine.
import { Inject, Injectable, Param, Tool, Toolset } from '@toolsmith/core';
import { IsInt, IsOptional, IsString, Min, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import type { OrderRepository } from './order-repository';

export type Status = 'open' | 'shipped';

/** A clock: an interface, so it needs a token. */
export interface Clock {
  now(): Date;
}
export const CLOCK = Symbol('clock');

export class Line {
  @IsString() sku!: string;
  quantity!: number;
}

export class SearchDto {
  @IsString() query!: string;
  @IsOptional() @IsInt() @Min(1) limit = 10;
  note?: string;
  @IsOptional() @IsString() cursor?: string | null;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Line) lines?: Line[] | null;
}

@Injectable()
export class Auditor {
  constructor(readonly clock: Clock) {}
}

@Toolset()
export class OrderTools {
  constructor(
    private readonly orders: OrderRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Tool()
  list(@Param('status') status: Status) {
    return { status };
  }

  @Tool()
  count(@Param('status', { enum: ['open', 'shipped', 'cancelled'] }) status: Status) {
    return { status };
  }

  @Tool()
  get(@Param('id', { schema: { type: 'string' } }) id: number) {
    return { order: this.orders.find(String(id)), at: this.clock.now().toISOString() };
  }

  @Tool()
  fine(@Param('status', { enum: ['open', 'shipped'] }) status: Status, @Param('n', { schema: { type: 'integer', minimum: 1 } }) n: number) {
    return { status, n };
  }

  @Tool()
  search(args: SearchDto) {
    return { query: args.query };
  }
}
