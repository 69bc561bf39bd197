import { Param, Tool, ToolContext, Toolset } from '@toolsmith/core';
import type { Unit } from './shapes';

/** Written with `@Param` for runtime reflection and JSDoc for the manifest: both must agree. */
@Toolset()
export class AgreementTools {
  /**
   * Looks a city up.
   * @param city City name
   * @param limit Maximum results
   * @param exact Match the name exactly
   * @param unit Unit of the temperatures
   */
  @Tool()
  lookup(
    @Param('city', { description: 'City name' }) city: string,
    @Param('limit', { description: 'Maximum results' }) limit: number,
    ctx: ToolContext,
    @Param('exact', { optional: true, description: 'Match the name exactly' }) exact?: boolean,
    @Param('unit', { enum: ['celsius', 'fahrenheit'], default: 'celsius', description: 'Unit of the temperatures' }) unit: Unit = 'celsius',
  ): { city: string } {
    void ctx;
    return { city: `${city}${limit}${exact ?? ''}${unit}` };
  }

  /**
   * Renames a place.
   * @param from Old name
   * @param to New name
   */
  @Tool()
  rename(@Param('from', { description: 'Old name' }) oldName: string, @Param('to', { description: 'New name' }) newName: string): void {
    void oldName;
    void newName;
  }
}
