/** A city's weather, as the forecaster agent answers it. */
export interface Forecast {
  /** City name, as the user wrote it */
  city: string;
  celsius: number;
  sky: 'clear' | 'cloudy' | 'rain';
  /** The next days, when the user asked for them */
  days?: DayForecast[];
}

export interface DayForecast {
  day: number;
  high: number;
  low: number;
}

/** An outline: topics within topics (a recursive type). */
export interface Outline {
  title: string;
  subtopics: Outline[];
}
