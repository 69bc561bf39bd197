import { Tool, Toolset } from '@toolsmith/core';

/**
 * An order number as the shop prints it.
 * @pattern ^A-\d{4}$
 */
export type OrderId = string;

/** @asType integer */
export type Count = number;

/**
 * How many rows a page holds.
 * @minimum 1
 * @maximum 50
 */
export type PageSize = Count;

/** Where a parcel goes. */
export interface Address {
  /** @minLength 2 */
  city: string;
  /** @format email */
  contact: string;
  /** @integer */
  floor: number;
  lastOrder?: OrderId;
}

/** Looks up orders. Constraints come from JSDoc, on type aliases and on parameters. */
@Toolset()
export class OrderTools {
  /**
   * Finds orders.
   * @param id The order to start from
   * @param note Why the user asks
   */
  @Tool()
  findOrders(
    id: OrderId,
    /**
     * @minLength 1
     * @maxLength 20
     */
    note?: string,
    pageSize: PageSize = 10,
    /**
     * @integer
     * @minimum 0
     * @default 0
     */
    offset?: number,
    related: OrderId[] = [],
    /** @format email */
    notify?: string,
    shipTo?: Address,
  ): { ids: string[] } {
    return { ids: [id, ...related].slice(offset ?? 0, (offset ?? 0) + pageSize).concat(note && notify && shipTo ? [] : []) };
  }

  /** Tags an order. */
  @Tool()
  tagOrder(
    id: OrderId | null,
    also: Array<OrderId>,
    /**
     * @minItems 1
     * @maxItems 3
     * @uniqueItems
     */
    tags: string[],
    /**
     * @exclusiveMinimum 0
     * @exclusiveMaximum 100
     * @multipleOf 0.5
     */
    weight?: number,
    /**
     * @minProperties 1
     * @maxProperties 2
     */
    labels?: Record<string, string>,
  ): { ok: boolean } {
    return { ok: id !== null && also.length + tags.length + (weight ?? 0) + Object.keys(labels ?? {}).length > 0 };
  }
}
