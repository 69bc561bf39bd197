// Shared by the examples (not a published package): provider picking and event printing.
export { pickModel } from './pick-model';
export type { PickedModel } from './pick-model';
export { printEvent } from './print-event';
