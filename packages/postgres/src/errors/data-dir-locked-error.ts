import { ToolsmithError } from '@toolsmith/core';

/**
 * Another live process (or another open store in this one) has the PGlite data directory open. PGlite
 * allows one process per directory: a second one would silently lose writes. Close the other one, or
 * use a PostgreSQL server for several processes.
 */
export class DataDirLockedError extends ToolsmithError {
  constructor(
    /** The data directory. */
    readonly dataDir: string,
    /** The process id of the process holding it (`undefined` when the lock file cannot be read). */
    readonly pid: number | undefined,
    /** The lock file naming that process. */
    readonly lockFile: string,
  ) {
    super(
      'POSTGRES_DATA_DIR_LOCKED',
      `The PGlite data directory "${dataDir}" is in use by ${pid === undefined ? 'a process its lock file does not name' : `process ${pid}`}` +
        `${pid === process.pid ? ' (this process: another open store)' : ''}. ` +
        'One process at a time may open it: close that one first, or use a PostgreSQL server for several processes. ' +
        `If no Toolsmith process has it open (the process id was reused, or the file is not a lock), delete ${lockFile}.`,
      { details: { dataDir, pid, lockFile } },
    );
  }
}
