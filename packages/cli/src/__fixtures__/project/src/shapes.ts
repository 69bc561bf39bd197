/** A point on the map. */
export interface GeoPoint {
  /** Latitude in degrees. */
  lat: number;
  /** Longitude in degrees. */
  lon: number;
}

/** Temperature unit. */
export type Unit = 'celsius' | 'fahrenheit';

/** A stop on a trip. */
export type Stop = {
  name: string;
  location: GeoPoint;
  /** When the traveller arrives. */
  arrival?: Date;
  tags: string[];
};

/** A weather report. */
export interface Report {
  city: string;
  temperature: number;
  unit: Unit;
  /** Free-form notes keyed by source. */
  notes: Record<string, string>;
}

/** A category tree: recursive, so it stays a `$ref` into `$defs`. */
export interface Category {
  name: string;
  children: Category[];
}
