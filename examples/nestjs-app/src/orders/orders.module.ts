import { Module } from '@nestjs/common';
import { CurrentCustomer } from './current-customer';
import { OrderRepository } from './order.repository';
import { OrdersTools } from './orders.tools';

/** The orders feature. Nothing here knows about Toolsmith's module: the toolset is found by discovery. */
@Module({ providers: [OrderRepository, CurrentCustomer, OrdersTools], exports: [OrderRepository] })
export class OrdersModule {}
