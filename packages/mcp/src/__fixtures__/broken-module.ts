// A module that fails while loading (for loadToolsModule's error path).
throw new Error('database is down');
