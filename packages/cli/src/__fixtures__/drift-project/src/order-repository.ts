import { Injectable } from '@toolsmith/core';

/** Where orders live. */
@Injectable()
export class OrderRepository {
  find(id: string): string {
    return id;
  }
}
