/**
 * The most runs a case may have (`runs` of a set or case, `toolsmith eval --runs`): each run is a whole
 * conversation, and 1000 already measures a pass rate to within about 3%; more is a typo that would run
 * for days.
 */
export const MAX_EVAL_RUNS = 1000;
