/** Exit codes of the CLI. */
export const EXIT_OK = 0;
/** `--check` found the manifest missing or stale. */
export const EXIT_STALE = 1;
/** Bad usage, or the project cannot be read. */
export const EXIT_ERROR = 2;
